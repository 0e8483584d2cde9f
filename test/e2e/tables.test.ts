// Tables dialog in the playground: map three columns (a domain input, a research agent using it, an LLM agent that
// consumes the research), push them to a table and see the created column IDs, then save the mapping as a template
// (after confirming what it replaces). A new mapping starts with no column included; "Include all / none" set them all.
// A push the service refuses brings the field it marked into view and names it, however far down its card is. The local
// check knows the keys a company table has built in: a prompt using {company_name} and {company_profile} is pushed to
// a company table (the sandbox's table then holds it), while a typo of one is caught before anything is sent, and a
// contacts table, which has no such keys, refuses the push with the prompt marked and named (issue 36, item 7).
import { describeWithBrowser, startStack, type Stack } from './harness';

const TABLE = 'tbl_labs_companies';
const TEMPLATE = 'tpl_labs_account_research';

describeWithBrowser('tables dialog in the playground', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
    stack.playground.runtime.spreadsheet.sheet('Companies').setValues('D1:E1', [['Research', 'Pitch']]);
  }, 60000);

  afterAll(async () => {
    await stack?.close();
  });

  function sandbox<T>(path: string): Promise<T> {
    return stack.control.call<T>('GET', path, undefined, 'sbx_pro_token');
  }

  it('maps three columns, pushes them and shows the created IDs, then saves a template', async () => {
    const { page } = stack;
    await page.click('td[data-cell="A1"]');
    await page.click('[data-handler="showTablesDialog"]');
    const handle = await page.waitForSelector('#dialog-frame:visible');
    const dialog = (await handle.contentFrame())!;
    await dialog.waitForSelector('[data-row="4"]');

    const included = () =>
      dialog
        .locator('[aria-label^="Include column"]')
        .evaluateAll((boxes) => boxes.map((box) => (box as HTMLInputElement).checked));
    expect(await included()).toEqual([false, false, false, false, false]);
    expect(await dialog.textContent('#credits-badge')).toBe('500 credits · pro@sandbox.example.com');
    await dialog.click('#tables-include-all');
    expect(await included()).toEqual([true, true, true, true, true]);
    await dialog.click('#tables-include-none');
    expect(await included()).toEqual([false, false, false, false, false]);
    for (const header of ['Domain', 'Research', 'Pitch']) await dialog.check(`[aria-label="Include column ${header}"]`);
    await dialog.selectOption('[aria-label="Kind of Research"]', 'agent');
    await dialog.fill(
      '[aria-label="Prompt of Research"]',
      'Research the company at {input}: what it sells and to whom.',
    );
    await dialog.selectOption('[aria-label="Kind of Pitch"]', 'agent');
    await dialog.selectOption('[aria-label="Agent type of Pitch"]', 'llm');
    await dialog.fill('[aria-label="Prompt of Pitch"]', 'Write a one-line opener from this research: ');
    await dialog.selectOption('[aria-label="Reference of Pitch"]', 'research');
    expect(await dialog.inputValue('[aria-label="Prompt of Pitch"]')).toBe(
      'Write a one-line opener from this research: {research}',
    );
    expect(await dialog.locator('[data-row="4"] .issues li').count()).toBe(0);
    await dialog.waitForSelector('#tables-save-status:text("All changes saved")');
    await stack.screenshot('tables-1-mapping');

    // Against the local sandbox the dialog names its table and template ids (issue 29).
    expect(await dialog.textContent('#sandbox-tables')).toContain('tbl_labs_companies');
    expect(await dialog.textContent('#sandbox-templates')).toContain('tpl_labs_account_research');
    await dialog.fill('#tables-table', `https://app.example.com/tables/${TABLE}`);
    await dialog.click('#tables-push');
    await dialog.waitForSelector(`#tables-push-result :text("Created 3 columns in table ${TABLE}.")`);
    const records = dialog.locator('#tables-push-result li[data-column-id]');
    const ids = await records.evaluateAll((items) => items.map((item) => item.getAttribute('data-column-id')));
    const keys = await records.evaluateAll((items) => items.map((item) => item.getAttribute('data-key')));
    expect(await dialog.locator('#tables-push-result code').allTextContents()).toEqual(ids);
    expect(keys).toEqual(['domain', 'research', 'pitch']);
    const table = await sandbox<{ columns: Array<{ id: string; config: { key: string } }> }>(`/v1/tables/${TABLE}`);
    expect(table.columns.slice(-3).map((column) => column.id)).toEqual(ids);
    await stack.screenshot('tables-2-pushed');

    await dialog.fill('#tables-template', TEMPLATE);
    await dialog.fill('#tables-template-name', 'Outbound research');
    await dialog.click('#tables-template-save');
    await dialog.waitForSelector(
      `#tables-template-result :text("This replaces every column of template ${TEMPLATE} with the 3 included columns. Replace?")`,
    );
    // The question is in view without scrolling (issue 29).
    expect(
      await dialog.$eval('#tables-template-confirm', (button) => {
        const box = button.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight + 1;
      }),
    ).toBe(true);
    expect((await sandbox<{ name: string }>(`/v1/templates/${TEMPLATE}`)).name).not.toBe('Outbound research');
    await dialog.click('#tables-template-confirm');
    await dialog.waitForSelector(
      '#tables-template-result :text("Template \\"Outbound research\\" now has 3 columns.")',
    );
    // The next save names the template and its column count.
    await dialog.click('#tables-template-save');
    await dialog.waitForSelector(
      `#tables-template-result :text("This replaces template \\"Outbound research\\" (${TEMPLATE}) and its 3 columns with the 3 included columns. Replace?")`,
    );
    const template = await sandbox<{ name: string; column_configs: Array<{ key: string }> }>(
      `/v1/templates/${TEMPLATE}`,
    );
    expect(template.name).toBe('Outbound research');
    expect(template.column_configs.map((config) => config.key)).toEqual(['domain', 'research', 'pitch']);
    await stack.screenshot('tables-3-template');
  });

  it('reopens with the saved mapping, and offers the pushed columns as "after" positions', async () => {
    const { page } = stack;
    const open = (await (await page.waitForSelector('#dialog-frame:visible')).contentFrame())!;
    await open.click('#tables-close');
    await page.waitForSelector('#dialog-frame', { state: 'hidden' });
    await page.click('[data-handler="showTablesDialog"]');
    const handle = await page.waitForSelector('#dialog-frame:visible');
    const dialog = (await handle.contentFrame())!;
    await dialog.waitForSelector('[data-row="4"]');
    expect(await dialog.inputValue('[aria-label="Prompt of Pitch"]')).toBe(
      'Write a one-line opener from this research: {research}',
    );
    expect(await dialog.isChecked('[aria-label="Include column Stage"]')).toBe(false);
    expect(await dialog.inputValue('#tables-table')).toBe(TABLE);
    await dialog.check('input[value="after"]');
    const options = await dialog.locator('#tables-after option').allTextContents();
    expect(options.slice(0, 3).map((text) => text.split(' ')[0])).toEqual(['Domain', 'Research', 'Pitch']);
    await stack.screenshot('tables-4-reopened');
  });

  it('scrolls to the field the service marked, far down the columns, and names it', async () => {
    const { page } = stack;
    const open = (await (await page.waitForSelector('#dialog-frame:visible')).contentFrame())!;
    await open.click('#tables-close');
    await page.waitForSelector('#dialog-frame', { state: 'hidden' });
    // Twenty more columns, then a people finder asking for more results than the service allows (column Z).
    const extra = Array.from({ length: 20 }, (_, i) => `Extra ${i + 1}`);
    stack.playground.runtime.spreadsheet.sheet('Companies').setValues('F1:Z1', [[...extra, 'People']]);
    await page.click('[data-handler="showTablesDialog"]');
    const dialog = (await (await page.waitForSelector('#dialog-frame:visible')).contentFrame())!;
    await dialog.waitForSelector('[data-row="25"]');
    await dialog.click('#tables-include-none');
    await dialog.check('[aria-label="Include column People"]');
    await dialog.selectOption('[aria-label="Kind of People"]', 'company_people_finder');
    await dialog.fill('[aria-label="Roles of People"]', 'CEO');
    await dialog.fill('[aria-label="Max results of People"]', '500');
    const inView = () =>
      dialog.$eval('[aria-label="Max results of People"]', (field) => {
        const box = field.getBoundingClientRect();
        const rows = field.closest('.tables-rows')!.getBoundingClientRect();
        return box.top >= rows.top && box.bottom <= rows.bottom;
      });
    await dialog.$eval('.tables-rows', (rows) => rows.scrollTo(0, 0));
    expect(await inView()).toBe(false);
    await dialog.fill('#tables-table', TABLE);
    await dialog.click('#tables-push');
    await dialog.waitForSelector(
      '#tables-push-result :text("The service refused the mapping: see the marked field, Max results of \\"People\\"")',
    );
    expect(await inView()).toBe(true);
    expect(
      await dialog.$eval('[aria-label="Max results of People"]', (field) => field === document.activeElement),
    ).toBe(true);
    expect(await dialog.getAttribute('[aria-label="Max results of People"]', 'class')).toContain('invalid');
    await stack.screenshot('tables-5-refused-field');
  });

  it('knows the keys a company table has built in; a contacts table refuses them and the prompt is named', async () => {
    const { page } = stack;
    const open = (await (await page.waitForSelector('#dialog-frame:visible')).contentFrame())!;
    await open.click('#tables-close');
    await page.waitForSelector('#dialog-frame', { state: 'hidden' });
    await page.click('[data-handler="showTablesDialog"]');
    const dialog = (await (await page.waitForSelector('#dialog-frame:visible')).contentFrame())!;
    await dialog.waitForSelector('[data-row="5"]');
    await dialog.click('#tables-include-none');
    // Column F ("Extra 1"): an LLM agent writing an opener from the company table's own columns.
    await dialog.check('[aria-label="Include column Extra 1"]');
    await dialog.selectOption('[aria-label="Kind of Extra 1"]', 'agent');
    await dialog.selectOption('[aria-label="Agent type of Extra 1"]', 'llm');
    const issues = () => dialog.locator('[data-row="5"] .issues li').allTextContents();
    // A typo is caught before anything is sent, with the built-in key it resembles.
    await dialog.fill('[aria-label="Prompt of Extra 1"]', 'Write a one-line opener for {compnay_name}');
    await dialog.waitForSelector('[data-row="5"] .issues li:has-text("did you mean {company_name}?")');
    await dialog.fill(
      '[aria-label="Prompt of Extra 1"]',
      'Write a one-line opener for {company_name} from {company_profile}',
    );
    await dialog.waitForFunction(
      () => !document.querySelector('[data-row="5"] .issues li.error, [data-row="5"] .invalid'),
    );
    const warning = (key: string) =>
      `Prompt: Uses {${key}} of the table: Push accepts it, Save as template does not (a template holds only its own columns)`;
    expect(await issues()).toEqual([warning('company_name'), warning('company_profile')]);

    // Pushed to the company table: created, and the sandbox's table holds the prompt as it was written.
    await dialog.fill('#tables-table', TABLE);
    await dialog.check('input[value="end"]');
    await dialog.click('#tables-push');
    await dialog.waitForSelector(`#tables-push-result :text("Created 1 column in table ${TABLE}.")`);
    const table = await sandbox<{
      columns: Array<{ id: string; config: { key: string; value?: { prompt?: string } } }>;
    }>(`/v1/tables/${TABLE}`);
    const created = await dialog.locator('#tables-push-result li[data-column-id]').getAttribute('data-column-id');
    expect(table.columns.at(-1)).toMatchObject({
      id: created,
      config: {
        key: 'extra_1',
        value: { prompt: 'Write a one-line opener for {company_name} from {company_profile}' },
      },
    });

    // A contacts table has no company_name: the service refuses, and the dialog names the prompt it marked.
    const contactsBefore = (await sandbox<{ columns: unknown[] }>('/v1/tables/tbl_labs_contacts')).columns.length;
    await dialog.fill('#tables-table', 'tbl_labs_contacts');
    await dialog.click('#tables-push');
    await dialog.waitForSelector(
      '#tables-push-result :text("The service refused the mapping: see the marked field, Prompt of \\"Extra 1\\"")',
    );
    expect(await dialog.$eval('[aria-label="Prompt of Extra 1"]', (field) => field === document.activeElement)).toBe(
      true,
    );
    expect(await dialog.getAttribute('[aria-label="Prompt of Extra 1"]', 'class')).toContain('invalid');
    expect((await sandbox<{ columns: unknown[] }>('/v1/tables/tbl_labs_contacts')).columns).toHaveLength(
      contactsBefore,
    );
    await stack.screenshot('tables-6-built-in-keys');
  });
});
