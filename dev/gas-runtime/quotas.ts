// Apps Script's per-user daily quotas, with the consumer and Google Workspace figures of Google's quota page (UrlFetch
// calls, total trigger runtime, Properties reads and writes), and the meter that counts them: each user's window for
// each quota starts at the first use and lasts 24 hours ("Quotas are per user and reset 24 hours after the first
// request"). Simultaneous executions per user are counted by the project (project.ts) against the same limits.
import { GasError } from './errors';

export type QuotaLevel = 'consumer' | 'workspace';
export type QuotaMeter = 'urlfetch' | 'triggerRuntimeMs' | 'properties';

const MINUTE = 60_000;
const DAY_MS = 24 * 60 * MINUTE;

/** Daily figures per user: consumer (gmail.com) and Google Workspace accounts. */
export const DAILY_QUOTAS: Record<
  QuotaLevel,
  { urlFetchPerDay: number; triggerRuntimePerDayMs: number; propertyOpsPerDay: number }
> = {
  consumer: { urlFetchPerDay: 20_000, triggerRuntimePerDayMs: 90 * MINUTE, propertyOpsPerDay: 50_000 },
  workspace: { urlFetchPerDay: 100_000, triggerRuntimePerDayMs: 6 * 60 * MINUTE, propertyOpsPerDay: 500_000 },
};

/** What one user has used of the daily quotas in the current windows (host-side reading). */
export interface QuotaUsage {
  /** UrlFetch calls (each request of a fetchAll counts). */
  urlFetch: number;
  triggerRuntimeMs: number;
  propertyOps: number;
}

/** Per-user, per-quota 24-hour windows. */
export class DailyQuotaMeter {
  private readonly windows = new Map<string, { start: number; used: number }>();

  constructor(private readonly now: () => number) {}

  /** Counts `n` for `user`, or throws `message` without counting when that would pass `limit`. */
  take(user: string, meter: QuotaMeter, n: number, limit: number, message: string): void {
    const window = this.window(user, meter);
    if (window.used + n > limit) throw new GasError(message);
    window.used += n;
  }

  /** What `user` has used in the current window; opens the window when there is none (a use begins now). */
  begin(user: string, meter: QuotaMeter): number {
    return this.window(user, meter).used;
  }

  /** Counts `n` for `user` whatever the limit (time already spent). */
  add(user: string, meter: QuotaMeter, n: number): void {
    this.window(user, meter).used += n;
  }

  /** Used in the current window by `user`, or by all users. */
  used(meter: QuotaMeter, user?: string): number {
    const now = this.now();
    let total = 0;
    for (const [key, w] of this.windows) {
      const [windowMeter, email] = splitKey(key);
      if (windowMeter === meter && (user === undefined || email === user) && now < w.start + DAY_MS) total += w.used;
    }
    return total;
  }

  usage(user: string): QuotaUsage {
    return {
      urlFetch: this.used('urlfetch', user),
      triggerRuntimeMs: this.used('triggerRuntimeMs', user),
      propertyOps: this.used('properties', user),
    };
  }

  private window(user: string, meter: QuotaMeter): { start: number; used: number } {
    const now = this.now();
    const key = `${meter}\0${user}`;
    let window = this.windows.get(key);
    if (!window || now >= window.start + DAY_MS) {
      window = { start: now, used: 0 };
      this.windows.set(key, window);
    }
    return window;
  }
}

function splitKey(key: string): [string, string] {
  const at = key.indexOf('\0');
  return [key.slice(0, at), key.slice(at + 1)];
}
