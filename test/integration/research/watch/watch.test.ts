// Account watch through the built bundle, the emulator and the sandbox over HTTP (issue 27, part 2): the cost is
// confirmed before saving; the document's timer runs each due run with every panel closed; a company the sandbox
// changes between runs gets its Signals cell and "Was X until" notes; the spending cap stops a run before anything is
// paid; pause, resume and stop; a run cut short by the execution limit resumes without paying twice for a row. What
// each run reserved and charged, and the credits badge, are checked against the sandbox's money oracle.
import type { GasRuntime } from '../../../../dev/gas-runtime';
import type { OutputRequest, ResearchStatusDto, WatchAnswer, WatchRequest } from '../../../../src/research/contract';
import { FIRST_LOOK } from '../../../../src/research/watch/watch';
import { sandboxSuite } from '../../harness';
import {
  advance,
  column,
  doneFiguresAndCharges,
  noteAt,
  oracleTotals,
  poll,
  runtimeFor,
  SHEET,
  tick,
  weeklyWatch,
} from '../harness';

const suite = sandboxSuite({ clock: 'manual' });
const OUTPUT: OutputRequest = {
  kind: 'fields',
  statusHeader: 'Status',
  fields: [
    { name: 'employee_count', type: 'string', required: true, evidence: false },
    { name: 'headquarters', type: 'string', required: true, evidence: false },
  ],
  schemaText: '',
  columns: {},
};
const HOUR = 3_600_000;
const OTHER_EDITOR = 'ben@example.com';
const DAY = 24 * HOUR;
const CREDITS = 100_000;

let runtime: GasRuntime;
let domains: string[];

/** A sheet of `rows` companies (each twice with `repeat`) for the runtime; `users`: other editors. */
async function world(rows = 3, options: { users?: string[]; repeat?: boolean } = {}): Promise<void> {
  await suite.control.reset();
  await suite.control.setAccount('sandbox-pro', { credits: CREDITS });
  const companies = await suite.control.companies(rows);
  domains = companies.map((company) => company.domain);
  const data = companies.map((c) => [c.name, c.domain]);
  runtime = await runtimeFor(suite, [['Company', 'Domain'], ...data, ...(options.repeat ? data : [])], undefined, {
    users: options.users ?? [],
  });
}

function request(confirmed: number | null): WatchRequest {
  return weeklyWatch(runtime, domains.length, OUTPUT, confirmed);
}

const call = (name: string, args: unknown[] = []) => runtime.run<WatchAnswer>(name, args, { kind: 'sidebar' });
const timers = () => runtime.triggers.list().filter((trigger) => trigger.handler === 'sheetScoutTimer');

/** Saves a confirmed watch of every row: the answer. */
function watchAll(): WatchAnswer {
  const asked = call('saveResearchWatch', [request(null)]);
  expect(asked.confirm).toEqual({
    rows: domains.length,
    creditsPerRun: domains.length * 10,
    creditsPerMonth: domains.length * 50,
  });
  expect(asked.watch).toBeNull();
  return call('saveResearchWatch', [request(asked.confirm?.creditsPerRun ?? null)]);
}

/**
 * Checks a settled run by the money oracle: the run reserved `creditsPerRun` on its day, each row's "Done (N credits)"
 * is what the oracle charged its task, and the badge shows the balance the oracle's moves leave.
 */
async function expectRunFiguresTrue(creditsPerRun: number): Promise<void> {
  const runDay = await suite.control.ledgerDay('sbx_pro_token');
  expect(runDay.reserved).toBe(creditsPerRun);
  const figures = await doneFiguresAndCharges(suite, runtime);
  expect(figures.filter((figure) => figure.shown !== null)).toHaveLength(domains.length);
  for (const figure of figures) if (figure.shown !== null) expect(figure).toEqual({ ...figure, charged: figure.shown });
  const totals = await oracleTotals(suite);
  expect(runtime.run<{ availableCredits: number }>('getCredits', [], { kind: 'sidebar' })).toEqual({
    availableCredits: CREDITS - totals.reserved + totals.refunded,
    email: 'pro@sandbox.example.com',
  });
}

/** Moves both clocks to `at` hour by hour, firing the document's timer (if it has one) as Google would. */
async function hoursUntil(at: number): Promise<void> {
  while (runtime.clock.now() < at) {
    await advance(suite, runtime, HOUR);
    runtime.triggers.fireDue();
  }
}

/** Lets the run's tasks finish (the timer ticks every hour; a panel poll every 20 s would only be faster). */
async function settle(): Promise<void> {
  for (let step = 0; step < 60 && poll(runtime).pending > 0; step++) {
    await advance(suite, runtime, 20_000);
    tick(runtime);
  }
  expect(poll(runtime).pending).toBe(0);
}

describe('account watch', () => {
  it('confirms the cost, runs weekly with panels closed, and signals what changed with notes', async () => {
    await world();
    const saved = watchAll();
    expect(saved.ok).toBe(true);
    const first = saved.watch?.nextRunAt as number;
    expect(first).toBeGreaterThan(runtime.clock.now());
    expect(column(runtime, 'Signals')).toEqual(['', '', '']);

    await hoursUntil(first);
    await settle();
    expect(column(runtime, 'Status').every((status) => /^Done/.test(status))).toBe(true);
    expect(column(runtime, 'Signals')).toEqual([FIRST_LOOK, FIRST_LOOK, FIRST_LOOK]);
    expect(noteAt(runtime, 'Signals', 1)).toBe('');
    await expectRunFiguresTrue(saved.watch?.creditsPerRun as number);
    const before = column(runtime, 'employee_count');
    expect(before.every((value) => value !== '')).toBe(true);
    const watch = call('getResearchWatch').watch;
    // Once its rows are written the run says what it did, its credits as the service charged them.
    const firstCharged = (await oracleTotals(suite)).charged;
    expect(watch?.lastRun?.text).toBe(`Researched 3 rows: 0 changed, 0 failed, ${firstCharged} credits charged`);
    expect(watch?.nextRunAt).toBe(first + 7 * DAY);

    await suite.control.changeCompany(domains[1], { employee_count: '10001+' });
    // The user deletes the Signals column meanwhile: the next run makes it again.
    const sheet = runtime.spreadsheet.sheet(SHEET);
    sheet.deleteColumns(sheet.getValues()[0].indexOf('Signals') + 1, 1);
    expect(column(runtime, 'Signals')).toEqual([]);
    await hoursUntil(first + 7 * DAY);
    await settle();
    const signals = column(runtime, 'Signals');
    expect(signals[1]).toBe(`employee_count ${before[1]} → 10001+`);
    expect(signals[0]).toBe('No change');
    expect(signals[2]).toBe('No change');
    expect(column(runtime, 'employee_count')[1]).toBe('10001+');
    expect(noteAt(runtime, 'employee_count', 3)).toMatch(new RegExp(`^Was ${before[1]} until \\d{4}-\\d{2}-\\d{2}`));
    expect(noteAt(runtime, 'employee_count', 2)).toBe('');
    expect(await suite.control.tasks('sbx_pro_token')).toHaveLength(6);
    await expectRunFiguresTrue(saved.watch?.creditsPerRun as number);
    const secondCharged = (await oracleTotals(suite)).charged - firstCharged;
    expect(call('getResearchWatch').watch?.lastRun?.text).toBe(
      `Researched 3 rows: 1 changed, 0 failed, ${secondCharged} credits charged`,
    );
  });

  it("an open panel's poll says when the watches changed, so the menu's Pause all and Resume all show in it", async () => {
    await world();
    const poll0 = runtime.run<ResearchStatusDto>('pollResearch', [], { kind: 'sidebar' }).watchesChangedAt;
    expect(watchAll().ok).toBe(true);
    const saved = runtime.run<ResearchStatusDto>('pollResearch', [], { kind: 'sidebar' }).watchesChangedAt;
    expect(saved).not.toBe(poll0);
    await advance(suite, runtime, 60_000);
    runtime.run('pauseAccountWatches', [], { kind: 'menu' });
    const paused = runtime.run<ResearchStatusDto>('pollResearch', [], { kind: 'sidebar' }).watchesChangedAt;
    expect(paused).toBeGreaterThan(saved as number);
    expect(call('getResearchWatch').watch?.status).toBe('paused');
    await advance(suite, runtime, 60_000);
    runtime.run('resumeAccountWatches', [], { kind: 'menu' });
    expect(runtime.run<ResearchStatusDto>('pollResearch', [], { kind: 'sidebar' }).watchesChangedAt).toBeGreaterThan(
      paused as number,
    );
    expect(call('getResearchWatch').watch?.status).toBe('active');
  });

  it('a watch whose run the cap could never afford is refused when saved, with the figures', async () => {
    await world();
    runtime.run('setSpendingGuard', [{ daily: 20, monthly: null }], { kind: 'sidebar' });
    const asked = call('saveResearchWatch', [request(null)]);
    expect(asked).toMatchObject({
      ok: false,
      message:
        "A run of this watch reserves up to 30 credits and this spreadsheet's daily research spending cap is 20: it " +
        'could never start. Watch fewer rows, choose a lower depth, or raise the cap in Settings. Nothing was saved.',
      watch: null,
    });
    expect(call('saveResearchWatch', [request(30)]).ok).toBe(false);
    expect(call('getResearchWatch').watch).toBeNull();
  });

  it('does not start a run the spending cap has no room for, and says so in the watch', async () => {
    await world();
    expect(watchAll().ok).toBe(true);
    runtime.run('setSpendingGuard', [{ daily: null, monthly: 20 }], { kind: 'sidebar' });
    const next = call('getResearchWatch').watch?.nextRunAt as number;
    await hoursUntil(next + HOUR);
    const watch = call('getResearchWatch').watch;
    // The cap's figures are what the oracle says was spent this month: nothing.
    const month = await oracleTotals(suite);
    expect(watch?.lastRun?.text).toBe(
      `Not started: Over this spreadsheet's research spending cap: 3 rows reserve 30 credits, ${20 - month.charged} left (${month.charged} of 20 this month spent). 2 rows fit.`,
    );
    // With the panels closed, the sheet says it too: on the Signals header's note.
    expect(noteAt(runtime, 'Signals', 1)).toMatch(/^Account watch, run of \d{4}-\d{2}-\d{2}: Not started: .*cap/i);
    expect(await suite.control.tasks('sbx_pro_token')).toHaveLength(0);
    expect((await suite.control.ledger('sbx_pro_token')).days).toEqual([]);
    expect(watch?.nextRunAt).toBe(next + 7 * DAY);
  });

  it('pauses, resumes and stops from the panel, and every watch from the menu (stopping asks first)', async () => {
    await world();
    const next = watchAll().watch?.nextRunAt as number;
    const paused = call('changeResearchWatch', ['pause']);
    expect(paused.watch).toMatchObject({ status: 'paused', nextRunAt: null });
    await hoursUntil(next + HOUR);
    expect(await suite.control.tasks('sbx_pro_token')).toHaveLength(0);
    const resumed = call('changeResearchWatch', ['resume']);
    expect(resumed.watch?.status).toBe('active');
    expect(resumed.watch?.nextRunAt).toBeGreaterThan(runtime.clock.now());
    runtime.run('pauseAccountWatches', [], { kind: 'menu' });
    expect(call('getResearchWatch').watch?.status).toBe('paused');
    // With every watch paused and nothing else to do, the document's timer goes; resuming makes it again.
    expect(timers()).toHaveLength(0);
    runtime.run('resumeAccountWatches', [], { kind: 'menu' });
    expect(timers()).toHaveLength(1);
    // Stopping every watch from the menu asks first: No keeps them.
    runtime.ui.respond({ button: 'NO' });
    runtime.run('stopAccountWatches', [], { kind: 'menu' });
    expect(runtime.ui.alerts.at(-1)?.title).toBe('Stop all watches');
    expect(call('getResearchWatch').watch?.status).toBe('active');
    expect(call('changeResearchWatch', ['stop']).watch).toBeNull();
    expect(call('getResearchWatch').watch).toBeNull();
    expect(timers()).toHaveLength(0);
    expect(watchAll().ok).toBe(true);
    runtime.ui.respond({ button: 'YES' });
    runtime.run('stopAccountWatches', [], { kind: 'menu' });
    expect(call('getResearchWatch').watch).toBeNull();
    expect(runtime.ui.toasts.at(-1)?.message).toBe('Stopped the watch of "Accounts".');
  });

  it('saves a watch over repeated rows with no row tag: each company one task a run (issue 46)', async () => {
    // Every company twice: rows asking the same question share its task, so no row needs a tag, however many.
    await world(1700, { repeat: true });
    const asked = call('saveResearchWatch', [request(null)]);
    expect(asked).toMatchObject({ ok: true, confirm: { rows: 1700, creditsPerRun: 17000 }, watch: null });
    const saved = call('saveResearchWatch', [request(17000)]);
    expect(saved).toMatchObject({ ok: true, watch: { rows: 1700, creditsPerRun: 17000 } });
    expect(runtime.spreadsheet.metadataChars()).toBe(0);
  });

  it("runs only from its saver's timer: deleted, the saver's next panel opening makes it again", async () => {
    await world(3, { users: [OTHER_EDITOR] });
    const next = watchAll().watch?.nextRunAt as number;
    for (const trigger of timers()) runtime.triggers.remove(trigger.id);
    await hoursUntil(next + 4 * HOUR);
    expect(await suite.control.tasks('sbx_pro_token')).toHaveLength(0);
    // Another editor (no token of theirs pays for it) sees the watch and why it has not run; no timer of theirs.
    const seen = runtime.run<WatchAnswer>('getResearchWatch', [], { kind: 'sidebar', user: OTHER_EDITOR });
    expect(seen.watch).toMatchObject({ status: 'active', rows: 3 });
    expect(seen.message).toMatch(/has not started: runs start from the timer of pro@sandbox\.example\.com, who saved/);
    expect(timers()).toHaveLength(0);
    // The editor who saved it opens the panel: their timer is back, and the run comes.
    expect(call('getResearchWatch').message).toMatch(/starts at the timer's next run \(within the hour\)\.$/);
    expect(timers()).toHaveLength(1);
    await hoursUntil(runtime.clock.now() + HOUR);
    expect(await suite.control.tasks('sbx_pro_token')).toHaveLength(3);
  });

  it('resumes a run the execution limit cut short without paying twice for a row', async () => {
    await world(5);
    const next = watchAll().watch?.nextRunAt as number;
    await hoursUntil(next - HOUR);
    await advance(suite, runtime, HOUR);
    // Killed at successive points of the run's execution until one gets through; each later tick resumes.
    for (let killAt = 40; killAt < 400; killAt += 20) {
      try {
        runtime.run('sheetScoutTimer', [], { kind: 'trigger', killAtServiceCall: killAt });
      } catch (error) {
        if (!/Exceeded maximum execution time/.test(String(error))) throw error;
      }
    }
    await settle();
    // Resumed after the interruption, and its rows written: what the run did, as the service charged it.
    expect(call('getResearchWatch').watch?.lastRun?.text).toBe(
      `Researched 5 rows: 0 changed, 0 failed, ${(await oracleTotals(suite)).charged} credits charged`,
    );
    expect(await suite.control.tasks('sbx_pro_token')).toHaveLength(5);
    expect(column(runtime, 'Signals')).toEqual(Array(5).fill(FIRST_LOOK));
    await expectRunFiguresTrue(5 * 10);
  });
});
