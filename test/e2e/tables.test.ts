// Tables dialog in the playground: map three columns (a domain input, a research agent using it, an LLM agent that
// consumes the research), push them to a table and see the created column IDs, then save the mapping as a template.
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

  async function sandbox<T>(path: string): Promise<T> {
    const response = await fetch(`${stack.sandboxUrl}${path}`, { headers: { Authorization: 'Bearer sbx_pro_token' } });
    return (await response.json()) as T;
  }

  it('maps three columns, pushes them and shows the created IDs, then saves a template', async () => {
    const { page } = stack;
    await page.click('td[data-cell="A1"]');
    await page.click('[data-handler="showTablesDialog"]');
    const handle = await page.waitForSelector('#dialog-frame:visible');
    const dialog = (await handle.contentFrame())!;
    await dialog.waitForSelector('[data-row="4"]');

    await dialog.uncheck('[aria-label="Include column Account owner"]');
    await dialog.uncheck('[aria-label="Include column Stage"]');
    await dialog.selectOption('[aria-label="Kind of Research"]', 'agent');
    await dialog.fill('[aria-label="Prompt of Research"]', 'Research the company at {input}: what it sells and to whom.');
    await dialog.selectOption('[aria-label="Kind of Pitch"]', 'agent');
    await dialog.selectOption('[aria-label="Agent type of Pitch"]', 'llm');
    await dialog.fill('[aria-label="Prompt of Pitch"]', 'Write a one-line opener from this research: ');
    await dialog.selectOption('[aria-label="Reference of Pitch"]', 'research');
    expect(await dialog.inputValue('[aria-label="Prompt of Pitch"]')).toBe('Write a one-line opener from this research: {research}');
    expect(await dialog.locator('[data-row="4"] .issues li').count()).toBe(0);
    await dialog.waitForSelector('#tables-save-status:text("All changes saved")');
    await stack.screenshot('tables-1-mapping');

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
    await dialog.waitForSelector('#tables-template-result :text("Template \\"Outbound research\\" now has 3 columns.")');
    const template = await sandbox<{ name: string; column_configs: Array<{ key: string }> }>(`/v1/templates/${TEMPLATE}`);
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
    expect(await dialog.inputValue('[aria-label="Prompt of Pitch"]')).toBe('Write a one-line opener from this research: {research}');
    expect(await dialog.isChecked('[aria-label="Include column Stage"]')).toBe(false);
    expect(await dialog.inputValue('#tables-table')).toBe(TABLE);
    await dialog.check('input[value="after"]');
    const options = await dialog.locator('#tables-after option').allTextContents();
    expect(options.slice(0, 3).map((text) => text.split(' ')[0])).toEqual(['Domain', 'Research', 'Pitch']);
    await stack.screenshot('tables-4-reopened');
  });
});
