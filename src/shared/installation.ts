// What Settings > Check this installation settled on this user's real account (src/check/), kept in their user
// properties, and the switches the add-in reads from it: fetchAll's width (the requests Google runs at once: a round
// of the client is then a multiple of it, src/api/throughput.ts) and the start a timer run is booked with
// (src/scheduler/runtime-budget.ts). Nothing settled: the add-in's defaults. Pure.
import type { KeyValueStore } from '../ports';

/** UserProperties: the last check's results (JSON InstallationResult). */
export const CHECK_KEY = 'sheetscout.check';
/** UserProperties: the timer probe a check asked for, and what its run found (JSON TimerProbe). */
export const TIMER_PROBE_KEY = 'sheetscout.check.timer';

/** What one run of the timer probe found. */
export interface TimerProbe {
  askedAt: number;
  ranAt?: number;
  /** The run had its spreadsheet (an add-on's timer may not: not documented). */
  withDocument?: boolean;
  /** What the run measured of itself, and what it booked against the daily trigger time (its start added). */
  measuredMs?: number;
  bookedMs?: number;
}

export interface InstallationResult {
  at: number;
  /** A panel call's round trip as the panel timed it: the execution's start and google.script.run's round trip. */
  roundTripMs: number | null;
  /** The first domain's unpacking, timed in the check's execution, and the CPU factor it gives against Node's. */
  unpackMs: number;
  cpuFactor: number;
  /** fetchAll against the service's own endpoint: a single request, rounds of n, and the width they show. */
  fetchAll: { singleMs: number; rounds: Array<{ size: number; ms: number }>; width: number | null } | null;
  /** Why the fetchAll probe or the timer probe could not run, if one could not. */
  problems: string[];
}

function parsed<T>(user: KeyValueStore, key: string): T | null {
  try {
    return JSON.parse(user.get(key) ?? 'null') as T | null;
  } catch {
    return null;
  }
}

export const readCheck = (user: KeyValueStore) => parsed<InstallationResult>(user, CHECK_KEY);
export const readTimerProbe = (user: KeyValueStore) => parsed<TimerProbe>(user, TIMER_PROBE_KEY);

/** fetchAll's width as the check measured it (at least 4), or null: none seen, or no check. */
export function settledFetchAllWidth(user: KeyValueStore): number | null {
  const width = readCheck(user)?.fetchAll?.width;
  return typeof width === 'number' && width >= 4 ? width : null;
}

/** A timer run's start as the check timed it (a panel call's round trip: the start and more), or null. */
export function settledStartMs(user: KeyValueStore): number | null {
  const ms = readCheck(user)?.roundTripMs;
  return typeof ms === 'number' && ms > 0 ? ms : null;
}

/**
 * Notes a timer run's findings for the probe a check asked for (once: the first run after the ask). One read of the
 * user's properties, which the run has read already.
 */
export function noteTimerProbe(user: KeyValueStore, run: Required<Omit<TimerProbe, 'askedAt'>>): void {
  const probe = readTimerProbe(user);
  if (probe && probe.ranAt === undefined) user.set(TIMER_PROBE_KEY, JSON.stringify({ ...probe, ...run }));
}
