// The emulator's modelled time (dev/gas-runtime/costs.ts: what Apps Script charges for each execution start, service
// call, cell, commit and UrlFetch round) as benchmark figures, and the goals they are held to. Modelled time is
// deterministic: the same run gives the same figures on any machine, unlike the wall times printed beside them.
import type { Counters } from '../dev/gas-runtime';

export const seconds = (ms: number): string => (ms / 1000).toFixed(2);

/** A snapshot of the counters' modelled part, to measure what happened after it. */
export interface ModelledMark {
  totalMs: number;
  executions: number;
  logged: number;
}

export function markModelled(counters: Counters): ModelledMark {
  return {
    totalMs: counters.modelled.totalMs,
    executions: counters.executions,
    logged: counters.modelled.executions.length,
  };
}

/**
 * What ran since `mark`: modelled time of all executions, their number, and the longest; with `kind`, of that kind of
 * execution only (from the counters' log of the latest 1,000).
 */
export function modelledSince(
  counters: Counters,
  mark: ModelledMark,
  kind?: string,
): { ms: number; executions: number; maxExecutionMs: number } {
  const executions = counters.executions - mark.executions;
  const all = counters.modelled.executions.slice(-Math.min(executions, counters.modelled.executions.length));
  const log = kind ? all.filter((entry) => entry.kind === kind) : all;
  return {
    ms: kind ? log.reduce((sum, entry) => sum + entry.ms, 0) : counters.modelled.totalMs - mark.totalMs,
    executions: kind ? log.length : executions,
    maxExecutionMs: log.reduce((max, entry) => Math.max(max, entry.ms), 0),
  };
}

/** `modelled_s=.. executions=.. modelled_s_max_execution=..` for a summary line. */
export function modelledFields(figures: { ms: number; executions: number; maxExecutionMs: number }): string {
  return `modelled_s=${seconds(figures.ms)} executions=${figures.executions} modelled_s_max_execution=${seconds(figures.maxExecutionMs)}`;
}

/** One goal line: the figure, the goal and whether it is met (`goal: <name> 1.23 s <= 1.50 s ok`). */
export function goal(
  name: string,
  value: number,
  limit: number,
  unit:
    | 's'
    | 'x'
    | 'min'
    | 'KB'
    | '%'
    | 'runs'
    | 'cells'
    | 'credits'
    | 'h'
    | 'rows'
    | 'posts'
    | 'signals'
    | 'sequences'
    | 'tasks',
  atLeast = false,
): string {
  const met = atLeast ? value >= limit : value <= limit;
  const show = (n: number) => (unit === 'x' ? n.toFixed(2) : n.toFixed(unit === 'KB' ? 1 : 2));
  return `goal: ${name} ${show(value)} ${unit} ${atLeast ? '>=' : '<='} ${show(limit)} ${unit} ${met ? 'met' : 'MISSED'}`;
}

/** What the modelled time went to, the largest first (`urlfetch 7.28 s x26, Cache.putAll 2.42 s x26, ...`). */
export function modelledBreakdown(counters: Counters, top = 8): string {
  return Object.entries(counters.modelled.byLabel)
    .sort((a, b) => b[1].ms - a[1].ms)
    .slice(0, top)
    .map(([label, entry]) => `${label} ${seconds(entry.ms)} s x${entry.count}`)
    .join(', ');
}
