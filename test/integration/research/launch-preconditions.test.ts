// Nothing is paid for before every precondition of finishing holds, through the built bundle, the emulator as a
// published add-on and the sandbox over HTTP: a timer to collect the results with the panels closed (Google allows a
// user 20 triggers of a script: one per spreadsheet where work runs), room in the spreadsheet for the records
// (10 million cells) and in its document properties for what the running tasks keep there (500 KB). A refused launch creates no task, reserves no credit and writes no status.
import { createManualClock, createProject, SpreadsheetModel, type GasRuntime } from '../../../dev/gas-runtime';
import { SETTINGS_KEYS } from '../../../src/shared/connection';
import { runtimeFor as commonRuntime, sandboxSuite, closeAfterTest, TOKEN } from '../harness';
import { advance, BUNDLE, column, launch, REPORT_OUTPUT, SHEET, USER } from './harness';
import {
  PROPERTY_BYTES_PER_LAUNCH,
  PROPERTY_BYTES_PER_TASK,
  PROPERTY_HEADROOM_BYTES,
} from '../../../src/research/launch/preconditions';

const HOUR = 60 * 60 * 1000;
const REQUEST = { template: 'Research {Domain}', depth: 'medium', output: REPORT_OUTPUT } as const;
const suite = sandboxSuite({ clock: 'manual' });

beforeEach(async () => {
  await suite.control.setAccount('sandbox-pro', { credits: 100_000 });
});

const timers = (doc: GasRuntime) => doc.triggers.list().filter((trigger) => trigger.handler === 'sheetScoutTimer');

describe('a launch is refused before anything is paid when it could not finish', () => {
  it("the user's 21st spreadsheet: no timer slot, so nothing is created, reserved or written", async () => {
    const companies = await suite.control.companies(25);
    const project = createProject({
      bundlePath: BUNDLE,
      users: [USER],
      clock: createManualClock(await suite.control.now()),
      addOn: true,
    });
    project.properties.user(USER).set(SETTINGS_KEYS.token, TOKEN);
    project.properties.user(USER).set(SETTINGS_KEYS.baseUrl, suite.url);
    const documentWith = (id: string, domains: string[]) => {
      const spreadsheet = new SpreadsheetModel({ id, rows: 100, columns: 26, sheetNames: [SHEET] });
      spreadsheet.sheet(SHEET).setValues(`A1:A${domains.length + 1}`, [['Domain'], ...domains.map((d) => [d])]);
      return closeAfterTest(project.addDocument({ spreadsheet }));
    };
    // Research runs in 20 spreadsheets: each has its timer, and Google allows the user no more.
    const running = companies.slice(0, 20).map((company, i) => documentWith(`doc-${i + 1}`, [company.domain]));
    for (const doc of running) expect(launch(doc, REQUEST, [2])).toMatchObject({ ok: true, created: 1 });
    expect(project.triggers.list()).toHaveLength(20);
    const credits = await suite.control.credits(TOKEN);

    const last = documentWith(
      'doc-21',
      companies.slice(20).map((company) => company.domain),
    );
    const refused = launch(last, REQUEST, [2, 3, 4, 5, 6]);
    expect(refused.ok).toBe(false);
    expect(refused.message).toMatch(
      /^Nothing was sent: Sheet Scout could not set up this spreadsheet's timer.*Google allows 20 timers per account and all 20 are in use\. They are in "Untitled spreadsheet" \(research running\), .* and 12 more\./,
    );
    expect(await suite.control.tasks(TOKEN)).toHaveLength(20);
    expect(await suite.control.credits(TOKEN)).toBe(credits);
    expect(column(last, 'Status').filter(Boolean)).toEqual([]);
    expect(timers(last)).toHaveLength(0);

    // Once research elsewhere is done its timer goes, and the launch goes ahead with a timer of its own.
    await advance(suite, running[0], HOUR);
    project.triggers.fireDue();
    expect(project.triggers.list()).toHaveLength(0);
    expect(launch(last, REQUEST, [2, 3, 4, 5, 6])).toMatchObject({ ok: true, created: 5 });
    expect(timers(last)).toHaveLength(1);
  });

  it('a spreadsheet near 10 million cells: refused with the rows that fit, and launched once rows are deleted', async () => {
    const companies = await suite.control.companies(5);
    // 384,000 rows x 26 columns: 9,984,000 cells (empty ones count).
    const runtime = closeAfterTest(
      commonRuntime(suite.url, {
        sheets: { [SHEET]: [['Domain'], ...companies.map((company) => [company.domain])] },
        minRows: 384_000,
        clock: createManualClock(await suite.control.now()),
      }),
    );
    const refused = launch(runtime, REQUEST, [2, 3, 4, 5, 6]);
    expect(refused.ok).toBe(false);
    expect(refused.message).toMatch(
      /^Nothing was sent: this spreadsheet holds 9,984,000 of the 10,000,000 cells Google allows, and research of 5 tasks needs about 52,\d{3} more for its records\. Delete unused rows, columns or sheets\.$/,
    );
    expect(await suite.control.tasks(TOKEN)).toHaveLength(0);
    expect(column(runtime, 'Status').filter(Boolean)).toEqual([]);
    runtime.spreadsheet.sheet(SHEET).deleteRows(1000, 300_000);
    expect(launch(runtime, REQUEST, [2, 3, 4, 5, 6])).toMatchObject({ ok: true, created: 5 });
  });

  it('a spreadsheet whose document properties are nearly full: refused with the tasks that fit, which do', async () => {
    const companies = await suite.control.companies(100);
    const runtime = closeAfterTest(
      commonRuntime(suite.url, {
        sheets: { [SHEET]: [['Domain'], ...companies.map((company) => [company.domain])] },
        clock: createManualClock(await suite.control.now()),
      }),
    );
    // Other features' values fill the store (Google allows 500 KB of document properties) but for the headroom
    // the other features keep, what a launch keeps besides its tasks, and 300 bytes: the launch saves the panel's
    // settings first (about 190 bytes), which leaves room for some 50 running tasks of the 100.
    const store = runtime.properties.document;
    const used = 500 * 1024 - (PROPERTY_HEADROOM_BYTES + PROPERTY_BYTES_PER_LAUNCH + 300);
    for (let i = 0; store.size() < used; i++)
      store.set(`filler.${i}`, 'x'.repeat(Math.min(8_000, used - store.size() - `filler.${i}`.length)));
    const credits = await suite.control.credits(TOKEN);
    const rows = companies.map((_, i) => i + 2);
    const refused = launch(runtime, REQUEST, rows);
    expect(refused.ok).toBe(false);
    const message = refused.message ?? '';
    const needed = Math.ceil((PROPERTY_BYTES_PER_LAUNCH + 100 * PROPERTY_BYTES_PER_TASK) / 1024);
    expect(message).toMatch(
      new RegExp(
        `^Nothing was sent: research of 100 tasks keeps about ${needed} KB in Sheet Scout's storage in this spreadsheet ` +
          'while it runs\\. \\d+ KB of the 500 KB Google allows are free, and 48 KB of them stay kept for the other ' +
          'features meanwhile \\(schedules, watches, enrichment, the digest\\): \\d+ KB are left for research\\. ' +
          'Launch up to \\d+ tasks now, and the rest once they have finished\\.$',
      ),
    );
    const free = Number(/(\d+) KB of the 500 KB/.exec(message)?.[1]);
    expect(free).toBe(Math.ceil((500 * 1024 - store.size()) / 1024));
    expect(await suite.control.tasks(TOKEN)).toHaveLength(0);
    expect(await suite.control.credits(TOKEN)).toBe(credits);
    expect(column(runtime, 'Status').filter(Boolean)).toEqual([]);
    // The rows it says fit do; one more would not have.
    const fit = Number(/Launch up to (\d+) tasks/.exec(message)?.[1]);
    expect(fit).toBeGreaterThan(0);
    expect(fit).toBeLessThan(100);
    expect(launch(runtime, REQUEST, rows.slice(0, fit + 1))).toMatchObject({ ok: false });
    const before = store.size();
    expect(launch(runtime, REQUEST, rows.slice(0, fit))).toMatchObject({ ok: true, created: fit });
    // What the running tasks keep is within what the check counted for them.
    expect(store.size() - before).toBeLessThanOrEqual(PROPERTY_BYTES_PER_LAUNCH + fit * PROPERTY_BYTES_PER_TASK);
    expect(await suite.control.tasks(TOKEN)).toHaveLength(fit);
  });
});
