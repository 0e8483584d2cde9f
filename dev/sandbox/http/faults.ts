// Fault injection for the control API: per route (or "*"), deterministic given a seed, limited to `count` requests:
// added latency (waited out on a real clock, only stated on a manual one), error responses (429 with Retry-After, 500,
// 503), dropped connections (before the request is served, or after it took effect: a task created and charged whose
// answer never arrives), slowly written bodies, raw newlines inside JSON strings (the real task GET has been seen
// sending them), and a task list that lags behind (tasks created in the last `listLagMs` are not listed yet). Each
// service response states the latency added in LATENCY_HEADER, for the Apps Script emulator's cost model (which removes
// it before the bundle sees the response).
import { createRng } from '../random';

/** The header in which the sandbox states the latency it added to a response (ms). */
export const LATENCY_HEADER = 'x-sandbox-latency-ms';
import { isPlainObject } from './validation';

export const FAULT_ROUTES = [
  'lookup',
  'search',
  'similar',
  'tasks.create',
  'tasks.get',
  'tasks.list',
  'user',
  'columns',
  'templates',
  'tables.get',
  'templates.get',
  '*',
] as const;
export type FaultRoute = (typeof FAULT_ROUTES)[number];
const ERROR_STATUSES = [429, 500, 503];

export interface FaultConfig {
  route: FaultRoute;
  latencyMs: number;
  errorRate: number;
  errorStatus: number;
  retryAfterSeconds: number;
  dropRate: number;
  /** Serve the request (it takes effect), then destroy the connection without an answer. */
  dropAfterServeRate: number;
  slowBodyMs: number;
  /** tasks.list leaves out tasks created less than this long ago (sandbox clock). */
  listLagMs: number;
  /** Write "\n" escapes inside JSON strings as raw newline characters (invalid JSON a client must tolerate). */
  rawNewlines: boolean;
  /** How many requests the fault affects; null = unlimited. */
  count: number | null;
  seed: number;
}

export type FaultDecision =
  | {
      action: 'pass';
      latencyMs: number;
      slowBodyMs: number;
      rawNewlines: boolean;
      dropAfterServe: boolean;
      listLagMs: number;
    }
  | { action: 'drop'; latencyMs: number }
  | { action: 'error'; latencyMs: number; slowBodyMs: number; status: number; retryAfterSeconds: number };

interface ActiveFault {
  config: FaultConfig;
  random: () => number;
  remaining: number | null;
  affected: number;
}

function rate(value: unknown, name: string, problems: string[]): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || value < 0 || value > 1) problems.push(`${name} must be a number between 0 and 1`);
  return typeof value === 'number' ? value : 0;
}

function nonNegative(value: unknown, name: string, fallback: number, problems: string[]): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    problems.push(`${name} must be a non-negative number`);
  return typeof value === 'number' ? value : fallback;
}

/** Validates a fault body from the control API; returns the config or the problems found. */
export function parseFaultConfig(raw: unknown): FaultConfig | string[] {
  if (!isPlainObject(raw)) return ['body must be a JSON object'];
  const problems: string[] = [];
  const route = raw.route;
  if (typeof route !== 'string' || !(FAULT_ROUTES as readonly string[]).includes(route))
    problems.push(`route must be one of ${FAULT_ROUTES.join(', ')}`);
  const errorStatus = raw.errorStatus ?? 503;
  if (typeof errorStatus !== 'number' || !ERROR_STATUSES.includes(errorStatus))
    problems.push(`errorStatus must be one of ${ERROR_STATUSES.join(', ')}`);
  const count = raw.count === undefined || raw.count === null ? null : raw.count;
  if (count !== null && (typeof count !== 'number' || !Number.isInteger(count) || count < 0))
    problems.push('count must be a non-negative integer or null');
  const config: FaultConfig = {
    route: route as FaultRoute,
    latencyMs: nonNegative(raw.latencyMs, 'latencyMs', 0, problems),
    errorRate: rate(raw.errorRate, 'errorRate', problems),
    errorStatus: errorStatus as number,
    retryAfterSeconds: nonNegative(raw.retryAfterSeconds, 'retryAfterSeconds', 1, problems),
    dropRate: rate(raw.dropRate, 'dropRate', problems),
    dropAfterServeRate: rate(raw.dropAfterServeRate, 'dropAfterServeRate', problems),
    slowBodyMs: nonNegative(raw.slowBodyMs, 'slowBodyMs', 0, problems),
    listLagMs: nonNegative(raw.listLagMs, 'listLagMs', 0, problems),
    rawNewlines: raw.rawNewlines === true,
    count: count as number | null,
    seed: nonNegative(raw.seed, 'seed', 1, problems),
  };
  if (config.errorRate + config.dropRate + config.dropAfterServeRate > 1)
    problems.push('errorRate + dropRate + dropAfterServeRate must not exceed 1');
  if (raw.rawNewlines !== undefined && typeof raw.rawNewlines !== 'boolean')
    problems.push('rawNewlines must be a boolean');
  return problems.length > 0 ? problems : config;
}

export class FaultInjector {
  private readonly active = new Map<FaultRoute, ActiveFault>();

  set(config: FaultConfig): void {
    this.active.set(config.route, { config, random: createRng(config.seed), remaining: config.count, affected: 0 });
  }

  clear(): void {
    this.active.clear();
  }

  list(): (FaultConfig & { remaining: number | null; affected: number })[] {
    return [...this.active.values()].map((fault) => ({
      ...fault.config,
      remaining: fault.remaining,
      affected: fault.affected,
    }));
  }

  /** What happens to the next request of `route` (a route's own fault takes precedence over "*"). */
  decide(route: string): FaultDecision {
    const fault = this.active.get(route as FaultRoute) ?? this.active.get('*');
    if (!fault || fault.remaining === 0)
      return { action: 'pass', latencyMs: 0, slowBodyMs: 0, rawNewlines: false, dropAfterServe: false, listLagMs: 0 };
    if (fault.remaining !== null) fault.remaining -= 1;
    fault.affected += 1;
    const { config } = fault;
    const roll = fault.random();
    if (roll < config.dropRate) return { action: 'drop', latencyMs: config.latencyMs };
    if (roll < config.dropRate + config.errorRate) {
      return {
        action: 'error',
        latencyMs: config.latencyMs,
        slowBodyMs: config.slowBodyMs,
        status: config.errorStatus,
        retryAfterSeconds: config.retryAfterSeconds,
      };
    }
    const dropAfterServe = roll < config.dropRate + config.errorRate + config.dropAfterServeRate;
    return {
      action: 'pass',
      latencyMs: config.latencyMs,
      slowBodyMs: config.slowBodyMs,
      rawNewlines: config.rawNewlines,
      dropAfterServe,
      listLagMs: config.listLagMs,
    };
  }
}
