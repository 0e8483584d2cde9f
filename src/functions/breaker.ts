// The circuit breaker of the custom functions. Every formula cell is its own execution, so a broken token or a
// rate-limited service would otherwise be hit once per cell per recalculation. Executions that end with a "the
// service refuses us" error (401, 429, 5xx, network, timeout) are counted in the document cache, shared by all
// cells; after a few of them in a short window the breaker opens and cells answer the same cause's text without
// calling the service until it closes. The state is keyed by the connection, so saving a new token starts fresh.
import type { ApiError } from '../api/errors';
import type { CachePort } from '../ports';
import { errorCellText } from './cell-text';
import { hashText } from './hash';

export interface BreakerPolicy {
  /** Failing executions within `windowMs` that open the breaker. */
  threshold: number;
  windowMs: number;
  /** How long the breaker stays open; a rejected token (401) is not going to fix itself, so it waits longer. */
  openMs: number;
  unauthorizedOpenMs: number;
}

export const DEFAULT_BREAKER_POLICY: BreakerPolicy = {
  threshold: 3,
  windowMs: 2 * 60_000,
  openMs: 60_000,
  unauthorizedOpenMs: 5 * 60_000,
};

interface BreakerState {
  failures: number;
  windowStart: number;
  openUntil: number;
  message: string;
}

const KEY_PREFIX = 'functions:breaker:v1:';
const STATE_TTL_SECONDS = 15 * 60;

/** Errors that say the service (or our access to it) is refusing work right now, for every cell alike. */
export function tripsBreaker(error: ApiError): boolean {
  return ['unauthorized', 'rate_limited', 'unavailable', 'network', 'timeout', 'quota'].includes(error.kind);
}

/** A short tag of the connection for the cache key (the token itself never goes into a key or a value). */
export function connectionScope(baseUrl: string, token: string): string {
  return hashText(`${baseUrl}\n${token}`);
}

export class CircuitBreaker {
  private readonly key: string;

  constructor(
    private readonly cache: CachePort,
    scope: string,
    private readonly policy: BreakerPolicy = DEFAULT_BREAKER_POLICY,
  ) {
    this.key = KEY_PREFIX + scope;
  }

  private read(): BreakerState | null {
    const text = this.cache.getAll([this.key])[this.key];
    if (!text) return null;
    try {
      return JSON.parse(text) as BreakerState;
    } catch {
      return null;
    }
  }

  private write(state: BreakerState): void {
    this.cache.putAll({ [this.key]: JSON.stringify(state) }, STATE_TTL_SECONDS);
  }

  /** The cell text to answer instead of calling the service, or null when calls may go out. */
  openMessage(now: number): string | null {
    const state = this.read();
    return state && state.openUntil > now ? state.message : null;
  }

  /** Records an execution that ended with a breaker-tripping error; opens the breaker at the threshold. */
  recordFailure(error: ApiError, now: number): void {
    const previous = this.read();
    const fresh = !previous || now - previous.windowStart > this.policy.windowMs;
    const failures = fresh ? 1 : previous.failures + 1;
    const message = errorCellText(error);
    const openFor = error.kind === 'unauthorized' ? this.policy.unauthorizedOpenMs : this.policy.openMs;
    const openUntil = failures >= this.policy.threshold ? now + openFor : (previous?.openUntil ?? 0);
    this.write({ failures, windowStart: fresh ? now : previous.windowStart, openUntil, message });
  }

  /** Records an execution whose calls were answered normally: the count starts again. */
  recordSuccess(): void {
    const previous = this.read();
    if (previous && previous.failures > 0) this.cache.removeAll([this.key]);
  }
}
