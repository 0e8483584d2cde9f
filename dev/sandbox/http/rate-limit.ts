// Per-token rate limit of the /v1 API, off by default: a token bucket per bearer token holding `perSecond` requests
// and refilled at `perSecond` a second of the sandbox clock (clock.ts): on a manual clock only when the clock is
// advanced, so a test's 200s and 429s do not depend on how fast the machine sends them; on the real clock in real
// time (and by what an advance adds). A request that finds the bucket empty is answered 429 with `Retry-After` in
// whole seconds, as real APIs do; it is not served and costs nothing. Set by `--rate-limit N` or
// `POST /_sandbox/config`.
import type { SandboxClock } from '../clock';

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until a request would pass (at least 1), when refused. */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  atMs: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private limited = 0;

  constructor(
    private readonly clock: SandboxClock,
    private perSecondValue: number | null = null,
  ) {}

  get perSecond(): number | null {
    return this.perSecondValue;
  }

  /** Requests answered 429 by the limit since the last reset. */
  get limitedCount(): number {
    return this.limited;
  }

  /** Sets the limit (null: none) and empties the history. */
  configure(perSecond: number | null): void {
    this.perSecondValue = perSecond;
    this.buckets.clear();
    this.limited = 0;
  }

  /** Takes one request of `token` (the Authorization header) from its bucket, or refuses it. */
  take(token: string): RateDecision {
    const rate = this.perSecondValue;
    if (rate === null) return { allowed: true, retryAfterSeconds: 0 };
    const now = this.clock.now();
    const bucket = this.buckets.get(token) ?? { tokens: rate, atMs: now };
    bucket.tokens = Math.min(rate, bucket.tokens + ((now - bucket.atMs) / 1000) * rate);
    bucket.atMs = now;
    this.buckets.set(token, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, retryAfterSeconds: 0 };
    }
    this.limited += 1;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / rate)) };
  }
}

/** Checks a configured limit: a positive number of requests per second, or null for none. */
export function checkRateLimit(value: unknown): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new Error('rateLimitPerSecond must be a positive number of requests per second, or null for no limit');
  }
  return value;
}
