// Account watch records are not trusted at run time (issues 37 and 45), through the built bundle in the emulator's
// published add-on mode against the sandbox, with two editors of one spreadsheet, each with their own account: editor
// A saves a watch and confirms its cost; editor B edits what any editor can edit (the watches' record in the hidden
// "Sheet Scout records" sheet: a field changed, or an older copy of the row put back). The record's row is sealed and
// the document's properties keep the fingerprint of its current value, so an edited or older record is not read: no
// watch starts from it, and the panel and the Signals header's note say why with what the saver confirmed (kept in the
// document's properties): no account pays for a depth, rows or a payer it did not confirm, or a run more often than
// its cadence. The saver's saving it again restores it.
import type { GasRuntime } from '../../../../dev/gas-runtime';
import { SETTINGS_KEYS } from '../../../../src/shared/connection';
import type { WatchAnswer } from '../../../../src/research/contract';
import { watch } from '../../scheduler/fleet';
import { sandboxSuite } from '../../harness';
import { advance, noteAt, runtimeFor, SHEET, USER } from '../harness';

const suite = sandboxSuite({ clock: 'manual' });
const EDITOR = 'ben@example.com';
const A_TOKEN = 'sbx_pro_token';
const B_TOKEN = 'sbx_pro2_token';
const HOUR = 3_600_000;
const RECORDS = 'Sheet Scout records';
const WATCHES_KEY = 'sheetscout.research.watches';

let runtime: GasRuntime;

async function twoEditors(rows: number): Promise<string[]> {
  await suite.control.setAccount('sandbox-pro', { credits: 10_000 });
  await suite.control.setAccount('sandbox-pro-2', { credits: 10_000 });
  const companies = await suite.control.companies(rows);
  runtime = await runtimeFor(suite, [['Company', 'Domain'], ...companies.map((c) => [c.name, c.domain])], A_TOKEN, {
    addOn: true,
    users: [EDITOR],
  });
  runtime.spreadsheet.insertSheet('Other');
  runtime.spreadsheet
    .sheet('Other')
    .setValues(`A1:B${rows + 1}`, [['Company', 'Domain'], ...companies.map((c) => [c.name, c.domain])]);
  runtime.properties.user(EDITOR).set(SETTINGS_KEYS.token, B_TOKEN);
  runtime.properties.user(EDITOR).set(SETTINGS_KEYS.baseUrl, suite.control.url);
  return companies.map((company) => company.domain);
}

/** Saves a confirmed watch of the first `rows` rows of `sheet` as `user`: the answer. */
const saveWatch = (user: string, sheet: string, rows: number) => watch(runtime, rows, 3, { sheet, user });

const panel = (user = USER) => runtime.run<WatchAnswer>('getResearchWatch', [], { kind: 'sidebar', user });

/** The watches' row in the hidden records sheet (columns: A the row's seal, B key, C parts, D value). */
function watchesRow(): number {
  const row =
    runtime.spreadsheet
      .sheet(RECORDS)
      .getValues()
      .findIndex((cells) => cells[1] === WATCHES_KEY) + 1;
  expect(row).toBeGreaterThan(1);
  return row;
}

/** Editor B's edit of the watches' record in the hidden records sheet, as a grid edit (one cell, the seal kept). */
function editWatchRecords(change: (watches: Array<Record<string, unknown>>) => void): void {
  const records = runtime.spreadsheet.sheet(RECORDS);
  const row = watchesRow();
  const values = records.getValues()[row - 1];
  expect(values[2]).toBe(1);
  // A record's text is kept behind a "~" (src/shared/storage/text-parts.ts).
  const watches = JSON.parse(String(values[3]).slice(1)) as Array<Record<string, unknown>>;
  change(watches);
  records.setValues(`D${row}`, [[`~${JSON.stringify(watches)}`]]);
}

const CHANGED = /its record in the hidden "Sheet Scout records" sheet was changed outside Sheet Scout since/;

async function hoursUntil(at: number): Promise<void> {
  while (runtime.clock.now() < at) {
    await advance(suite, runtime, HOUR);
    for (const result of runtime.triggers.fireDue()) if (!result.ok) throw new Error(String(result.error));
  }
}

const tasksOf = async (token: string) => (await suite.control.tasks(token)).length;

describe('account watch records edited in the hidden sheet (integration, two editors)', () => {
  it("a raised depth and more rows in A's record start nothing; A is told; A's panel keeps the confirmed figures", async () => {
    await twoEditors(3);
    const saved = saveWatch(USER, SHEET, 3);
    expect(saved).toMatchObject({ ok: true, watch: { rows: 3, creditsPerRun: 30 } });
    editWatchRecords((watches) => {
      watches[0].depth = 'xhigh';
      watches[0].creditsPerRun = 600;
      (watches[0].rowKeys as string[][]).push(['extra-row.com']);
    });
    const shown = panel();
    expect(shown.watch).toMatchObject({ rows: 3, creditsPerRun: 30, creditsPerMonth: 150 });
    expect(shown.message).toMatch(
      /^This watch does not run: its record in the hidden "Sheet Scout records" sheet was changed outside Sheet Scout since pro@sandbox\.example\.com confirmed it \(3 rows, up to 30 credits a run\)/,
    );
    const credits = await suite.control.credits(A_TOKEN);
    await hoursUntil((saved.watch?.nextRunAt as number) + HOUR);
    expect(await tasksOf(A_TOKEN)).toBe(0);
    expect(await suite.control.credits(A_TOKEN)).toBe(credits);
    expect(panel().watch?.lastRun?.text).toMatch(/^Not started: its record .* was changed outside Sheet Scout/);
    expect(noteAt(runtime, 'Signals', 1)).toMatch(/^Account watch, .*: Not started: its record .* was changed outside/);
  });

  it("B's own watch rewritten to A as saver and timer: A's timer starts nothing, and nobody pays", async () => {
    await twoEditors(3);
    // A has a watch of their own (so A's timer exists); B saves a 3-row watch on another sheet, paid by B.
    expect(saveWatch(USER, SHEET, 3)).toMatchObject({ ok: true });
    runtime.spreadsheet.activeSheet = runtime.spreadsheet.sheet('Other');
    expect(saveWatch(EDITOR, 'Other', 3)).toMatchObject({ ok: true, watch: { creditsPerRun: 30 } });
    const aTimer = runtime.triggers.list().find((trigger) => trigger.owner === USER)?.id;
    expect(aTimer).toBeDefined();
    editWatchRecords((watches) => {
      const bs = watches.find((watch) => watch.savedBy === 'pro2@sandbox.example.com') as Record<string, unknown>;
      bs.savedBy = 'pro@sandbox.example.com';
      bs.timer = aTimer;
    });
    const [aCredits, bCredits] = [await suite.control.credits(A_TOKEN), await suite.control.credits(B_TOKEN)];
    const due = panel().watch?.nextRunAt as number;
    await hoursUntil(due + 2 * HOUR);
    // The watches' record is one row: neither watch starts from it, on either account, and each saver is told.
    expect(await tasksOf(A_TOKEN)).toBe(0);
    expect(await suite.control.credits(A_TOKEN)).toBe(aCredits);
    expect(await suite.control.credits(B_TOKEN)).toBe(bCredits);
    expect(panel().message).toMatch(CHANGED);
    runtime.spreadsheet.activeSheet = runtime.spreadsheet.sheet('Other');
    expect(panel(EDITOR).watch?.lastRun?.text).toMatch(/^Not started: its record .* since pro2@sandbox/);
  });

  it("an older copy of A's record put back after a run: nothing runs from it, and A's saving again restores the watch", async () => {
    const domains = await twoEditors(3);
    const saved = saveWatch(USER, SHEET, 3);
    const due = saved.watch?.nextRunAt as number;
    // B copies the record's row (its seal included) before the first run.
    const records = runtime.spreadsheet.sheet(RECORDS);
    const copy = records.getValues()[watchesRow() - 1].slice();
    await hoursUntil(due + HOUR);
    expect(await tasksOf(A_TOKEN)).toBe(3);
    // For a day, every hour: B puts the older copy back (its next run is the one that ran) and resumes the watch.
    for (let hour = 0; hour < 24; hour++) {
      records.setValues(`A${watchesRow()}:${String.fromCharCode(64 + copy.length)}${watchesRow()}`, [copy]);
      runtime.run('changeResearchWatch', ['resume'], { kind: 'sidebar', user: EDITOR });
      await advance(suite, runtime, HOUR);
      runtime.triggers.fireDue();
    }
    expect(await tasksOf(A_TOKEN)).toBe(3);
    expect(panel().message).toMatch(CHANGED);
    // A saves the watch again (confirming its cost): the next week's run goes ahead as confirmed.
    const again = saveWatch(USER, SHEET, 3);
    expect(again).toMatchObject({ ok: true, watch: { rows: 3, creditsPerRun: 30 } });
    await hoursUntil((again.watch?.nextRunAt as number) + HOUR);
    expect(await tasksOf(A_TOKEN)).toBe(3 + domains.length);
  });
});
