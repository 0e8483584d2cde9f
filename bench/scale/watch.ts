// The scale benchmark's account watch (issue 27, part 2), run in the scheduled weeks beside the weekly refresh: the
// first 1,000 rows of the refreshed sheet watched weekly with an employee_count field under a monthly spending cap
// that holds one run and not two, left to the hourly timer with every panel closed. Each hour it notes the credits the account
// spent (by calendar month) and the watch's state; the weekly sample of the Signals column counts the rows whose
// change the last run reported.
import type { GasRuntime } from '../../dev/gas-runtime';
import type { OutputRequest, WatchAnswer } from '../../src/research/contract';
import { FIRST_LOOK } from '../../src/research/watch/watch';
import { HOUR, TOKEN, type World } from './world';

export const WATCHED_ROWS = 1_000;
/**
 * The monthly cap, in runs at the depth's full reservation: room for one run and a fifth, so a month's second run
 * (the first one's cost plus the second's reservation) would pass it and must not start.
 */
const CAP_RUNS = 1.2;
/** A run that starts more than this after it was due counts as missed (the timer is hourly). */
const LATE_AFTER_MS = 2 * HOUR;
/** The watch's one field, employee_count, and its status column. */
export const WATCH_OUTPUT: OutputRequest = {
  kind: 'fields',
  statusHeader: 'Watch status',
  fields: [{ name: 'employee_count', type: 'string', required: true, evidence: false }],
  schemaText: '',
  columns: {},
};

export interface WatchFigures {
  runs: number;
  missedRuns: number;
  notStarted: number;
  creditsOverCap: number;
  signalsWritten: number;
}

export interface WatchBench {
  /** Once an hour, after the timer fired. */
  hour(): Promise<void>;
  /** Before the service changes companies: the Signals column of the last run that started, counted once. */
  sampleSignals(): void;
  finish(): WatchFigures;
}

export async function watchRows(world: World, doc: GasRuntime, sheetName: string): Promise<WatchBench> {
  const sheetId = doc.spreadsheet.sheet(sheetName).sheetId;
  const request = {
    sheetId,
    rows: Array.from({ length: WATCHED_ROWS }, (_, i) => i + 2),
    template: 'Research {Website}',
    depth: 'medium',
    output: WATCH_OUTPUT,
    cadence: 'weekly',
    weekday: 3,
  };
  const call = (name: string, args: unknown[] = []) => doc.run<WatchAnswer>(name, args, { kind: 'sidebar' });
  const asked = call('saveResearchWatch', [{ ...request, confirmedCreditsPerRun: null }]);
  const perRun = asked.confirm?.creditsPerRun ?? 0;
  const saved = call('saveResearchWatch', [{ ...request, confirmedCreditsPerRun: perRun }]);
  if (!saved.ok || !saved.watch) throw new Error(`no watch: ${saved.message}`);
  const cap = CAP_RUNS * perRun;
  doc.run('setSpendingGuard', [{ daily: null, monthly: cap }], { kind: 'sidebar' });

  const spentByMonth = new Map<string, number>();
  let credits = await world.control.credits(TOKEN);
  let due = saved.watch.nextRunAt as number;
  let lastRunAt = 0;
  let runs = 0;
  let missedRuns = 0;
  let notStarted = 0;
  let signalsWritten = 0;
  const reasons = new Set<string>();
  const startedTexts = new Set<string>();
  /** Runs that started, and how many of them the Signals column was counted for. */
  let started = 0;
  let counted = 0;
  return {
    async hour() {
      const now = await world.control.credits(TOKEN);
      const month = new Date(world.clock.now() - HOUR).toISOString().slice(0, 7);
      spentByMonth.set(month, (spentByMonth.get(month) ?? 0) + (credits - now));
      credits = now;
      const watch = call('getResearchWatch').watch;
      if (!watch?.lastRun || watch.lastRun.at === lastRunAt) return;
      lastRunAt = watch.lastRun.at;
      runs++;
      if (watch.lastRun.at - due > LATE_AFTER_MS) missedRuns++;
      if (watch.lastRun.text.startsWith('Not started')) {
        notStarted++;
        reasons.add(watch.lastRun.text);
      } else {
        started++;
        startedTexts.add(watch.lastRun.text);
      }
      due = watch.nextRunAt as number;
    },
    sampleSignals() {
      if (counted === started) return;
      counted = started;
      const values = doc.spreadsheet.sheet(sheetName).getDisplayValues();
      const at = values[0].indexOf('Signals');
      if (at < 0) return;
      signalsWritten += values
        .slice(1)
        .filter((row) => row[at] !== '' && row[at] !== 'No change' && row[at] !== FIRST_LOOK).length;
    },
    finish() {
      const overdue = world.clock.now() - due > LATE_AFTER_MS ? 1 : 0;
      const creditsOverCap = [...spentByMonth.values()].reduce((sum, spent) => sum + Math.max(0, spent - cap), 0);
      const figures = { runs, missedRuns: missedRuns + overdue, notStarted, creditsOverCap, signalsWritten };
      console.log(
        `W account watch of ${WATCHED_ROWS} rows, weekly, monthly cap ${cap} credits (${CAP_RUNS} runs' most), panels closed: ` +
          `${runs} runs (${notStarted} not started: the cap), ${figures.missedRuns} started late or not at all, ` +
          `${signalsWritten} rows signalled a change, ${creditsOverCap} credits over the cap ` +
          `(spent by month: ${[...spentByMonth].map(([month, spent]) => `${month} ${spent}`).join(', ')})` +
          `; started: ${[...startedTexts].join(' | ')}` +
          (reasons.size > 0 ? `; not started: ${[...reasons].join(' | ')}` : ''),
      );
      return figures;
    },
  };
}
