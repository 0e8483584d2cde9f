// State shared by all executions of one emulated runtime (what outlives a single execution): limits,
// counters, logs, and the stores and registries of the individual services (this folder). Service modules receive it
// through `ServiceEnv`; the host reads it through the GasRuntime API. Nothing here imports a service, the
// spreadsheet's facades, the runtime or the project: they all import this.
import type { Clock } from '../clock';
import type { Execution } from '../execution';
import type { SyncHttpClient } from '../http/sync-http';
import { DAILY_QUOTAS, type DailyQuotaMeter } from '../quotas';
import type { SpreadsheetModel } from '../spreadsheet/model';
import type { Behaviours } from './behaviours';
import type { CacheStore } from './cache-store';
import type { LockRegistry } from './lock-registry';
import type { PropertyStore } from './property-store';
import type { TriggerRegistry } from './trigger-registry';
import type { UiRecords } from './ui-records';

export interface Limits {
  /** Custom-function execution time (Google: 30 s). */
  customFunctionMs: number;
  /** Menu, sidebar and installable-trigger execution time (Google: 6 min). */
  executionMs: number;
  /** Simple triggers (onOpen, onEdit) execution time (Google: 30 s). */
  simpleTriggerMs: number;
  /** UrlFetch calls per user per day (consumer 20,000, Workspace 100,000: follows the `quotas` option). */
  urlFetchPerDay: number;
  /** Total runtime of trigger executions per user per day (consumer 90 min, Workspace 6 h). */
  triggerRuntimePerDayMs: number;
  /** Properties reads and writes per user per day (consumer 50,000, Workspace 500,000). */
  propertyOpsPerDay: number;
  /** Executions of one user running at the same time (Google: 30). */
  simultaneousExecutionsPerUser: number;
  /** Installable triggers per user per script (Google: 20). */
  triggersPerUser: number;
  /** Default per-request UrlFetch deadline when `timeoutSeconds` is not given. */
  urlFetchTimeoutMs: number;
}

export const DEFAULT_LIMITS: Limits = {
  customFunctionMs: 30_000,
  executionMs: 360_000,
  simpleTriggerMs: 30_000,
  ...DAILY_QUOTAS.consumer,
  simultaneousExecutionsPerUser: 30,
  triggersPerUser: 20,
  urlFetchTimeoutMs: 60_000,
};

export interface Counters {
  urlFetch: {
    /** Requests sent since the runtime started (or the last reset). */
    total: number;
    /** Requests counted against the daily quota in the current 24-hour windows, all users. */
    today: number;
    /** Requests sent by the most recently finished execution. */
    lastExecution: number;
    /** fetchAll calls (each counts its requests in `total`). */
    fetchAllCalls: number;
  };
  /**
   * Sheet I/O: each Range/Sheet/Spreadsheet method reading cell data is one read; each writing one write; `cells`
   * counts the cells the grid reads returned (getValues, getDisplayValues, getFormulas, getNotes, ...), in all and
   * by sheet name; `cellsWrittenBySheet` the cells writes set (values, notes, formats...), by sheet name.
   */
  sheet: {
    reads: number;
    writes: number;
    cells: number;
    cellsBySheet: Record<string, number>;
    cellsWrittenBySheet: Record<string, number>;
  };
  executions: number;
  /**
   * Modelled time (costs.ts): of every execution together, of the longest one, and of the last one, in ms; and what
   * it went to (by 'Class.method', 'sheet.read', 'sheet.cells', 'sheet.commit', 'urlfetch', 'start', 'wait').
   */
  modelled: {
    totalMs: number;
    maxExecutionMs: number;
    lastExecutionMs: number;
    byLabel: Record<string, { count: number; ms: number }>;
    /** The latest executions (at most 1,000), oldest first: function, kind and modelled time. */
    executions: Array<{ name: string; kind: string; ms: number }>;
  };
  /** Zeroes the counters above (quota windows are kept: they model Google's, not the benchmark's). */
  reset(): void;
}

export function createCounters(quotaToday: () => number): Counters {
  const counters: Counters = {
    urlFetch: {
      total: 0,
      get today() {
        return quotaToday();
      },
      lastExecution: 0,
      fetchAllCalls: 0,
    },
    sheet: { reads: 0, writes: 0, cells: 0, cellsBySheet: {}, cellsWrittenBySheet: {} },
    executions: 0,
    modelled: { totalMs: 0, maxExecutionMs: 0, lastExecutionMs: 0, byLabel: {}, executions: [] },
    reset() {
      counters.urlFetch.total = 0;
      counters.urlFetch.lastExecution = 0;
      counters.urlFetch.fetchAllCalls = 0;
      counters.sheet.reads = 0;
      counters.sheet.writes = 0;
      counters.sheet.cells = 0;
      counters.sheet.cellsBySheet = {};
      counters.sheet.cellsWrittenBySheet = {};
      counters.executions = 0;
      counters.modelled = { totalMs: 0, maxExecutionMs: 0, lastExecutionMs: 0, byLabel: {}, executions: [] };
    },
  };
  return counters;
}

export interface HttpLogEntry {
  executionId: number;
  /** Upper-case HTTP method as sent. */
  method: string;
  url: string;
  /** Request headers as sent, names lower-cased. */
  headers: Record<string, string>;
  body?: string;
  status?: number;
  error?: string;
  /** Real milliseconds the request's batch took. */
  durationMs: number;
  /** The fetch or fetchAll call that sent it (numbered from 1 in the log). */
  batchId: number;
}

export interface LogEntry {
  executionId: number;
  source: 'Logger' | 'console';
  level: 'log' | 'info' | 'warn' | 'error' | 'debug';
  message: string;
}

export interface ServiceEnv {
  clock: Clock;
  limits: Limits;
  /** Published editor add-on rules: one time-driven trigger per user per document, at most hourly. */
  addOn: boolean;
  behaviours: Behaviours;
  /** UrlFetch host routes (ProjectOptions.hostRoutes): origin -> the base URL its requests go to. */
  hostRoutes: Record<string, string>;
  spreadsheet: SpreadsheetModel;
  /** Owner of the spreadsheet and the script (the first known user). */
  owner: string;
  scriptId: string;
  timeZone: string;
  htmlDir: string;
  properties: { script: PropertyStore; document: PropertyStore; user(email: string): PropertyStore };
  caches: { script: CacheStore; document: CacheStore; user(email: string): CacheStore };
  locks: LockRegistry;
  triggers: TriggerRegistry;
  http(): SyncHttpClient;
  /** Per-user daily quotas (UrlFetch calls, trigger runtime, Properties reads and writes), shared by the project. */
  quotas: DailyQuotaMeter;
  counters: Counters;
  httpLog: HttpLogEntry[];
  logs: LogEntry[];
  echoLogs: boolean;
  ui: UiRecords;
}

/** What every service constructor receives. */
export interface ServiceContext {
  env: ServiceEnv;
  exec: Execution;
}
