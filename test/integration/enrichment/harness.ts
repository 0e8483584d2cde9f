// Shared by the enrichment integration tests and benchmark, on top of the common harness (test/integration/harness.ts):
// the sheet that holds the domains, and a driver that runs the job like the sidebar (its start, then its calls).
import type { GasRuntime, ManualClock } from '../../../dev/gas-runtime';
import type { EnrichOptions, EnrichProgress, StartResult } from '../../../src/enrichment/contract';

/** The sheet the enrichment tests fill with domains (the active one). */
export const LEADS = 'Leads';

export function start(runtime: GasRuntime, options: EnrichOptions): EnrichProgress {
  const started = runtime.run<StartResult>('startEnrichment', [options], { kind: 'sidebar' });
  if (!started.ok) throw new Error(started.message);
  return started.progress;
}

export interface DriveOptions {
  /** Starts the job as the first step (its execution goes on with the job), with `before` and kills like any step. */
  start?: EnrichOptions;
  /** Called before each chunk; may change the sheet or return a kill point for that execution. */
  before?: (step: number) => number | void | Promise<number | void>;
  /** Called after each chunk with the HTTP log entries it added and whether it was killed. */
  after?: (step: number, killed: boolean, logFrom: number) => void;
  maxSteps?: number;
  /** Real waits (benchmark) instead of advancing a manual clock. */
  realTime?: boolean;
}

/** One step like the sidebar's: the start while the job is not started yet, else the next call. */
function step(runtime: GasRuntime, starting: EnrichOptions | null, killAt: number | void): EnrichProgress | null {
  const kill = killAt ? { killAtServiceCall: killAt } : {};
  if (!starting) return runtime.run<EnrichProgress | null>('runEnrichmentChunk', [], { kind: 'sidebar', ...kill });
  const started = runtime.run<StartResult>('startEnrichment', [starting], { kind: 'sidebar', ...kill });
  if (!started.ok) throw new Error(started.message);
  return started.progress;
}

/**
 * Runs the job like the sidebar until it stops (the start first, with `start`; then a call whenever the last one
 * says); returns the last progress and how many executions were killed.
 */
export async function drive(
  runtime: GasRuntime,
  options: DriveOptions = {},
): Promise<{ progress: EnrichProgress; kills: number; steps: number; waitedMs: number }> {
  let kills = 0;
  let waitedMs = 0;
  let starting = options.start ?? null;
  for (let index = 0; index < (options.maxSteps ?? 500); index++) {
    const killAt = await options.before?.(index);
    const logFrom = runtime.httpLog.length;
    let progress: EnrichProgress | null;
    try {
      progress = step(runtime, starting, killAt);
      starting = null;
    } catch (error) {
      if (!/Exceeded maximum execution time/.test(String(error))) throw error;
      kills++;
      options.after?.(index, true, logFrom);
      // A start killed before it recorded the job starts again.
      if (starting && runtime.run('getEnrichmentProgress', [], { kind: 'sidebar' }) !== null) starting = null;
      continue;
    }
    options.after?.(index, false, logFrom);
    if (!progress) throw new Error('no job');
    if (progress.nextStepInMs < 0) return { progress, kills, steps: index + 1, waitedMs };
    const wait = progress.nextStepInMs;
    if (wait > 0) {
      waitedMs += wait;
      if (options.realTime) await new Promise((done) => setTimeout(done, wait));
      else (runtime.clock as ManualClock).advance(wait);
    }
  }
  throw new Error('job did not finish');
}

/** The sheet's rows as values (row 1 first). */
export function sheetValues(runtime: GasRuntime): unknown[][] {
  return runtime.spreadsheet.sheet(LEADS).getValues();
}

export function formulaCount(runtime: GasRuntime): number {
  return runtime.spreadsheet
    .sheet(LEADS)
    .getFormulas()
    .flat()
    .filter((formula) => formula !== '').length;
}
