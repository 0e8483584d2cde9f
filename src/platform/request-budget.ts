// The add-in's own daily request budget. UrlFetch allows 20,000 calls per user per day (100,000 on Google Workspace),
// shared by every script the user runs; Sheet Scout keeps to a budget below that (18,000, or 95,000 when the user
// says their account is Workspace) so it never drives a user into the platform's quota on its own. Requests are
// counted per hour over a rolling window of 25 hourly buckets (any 24 hours, whenever Google's day starts, fall
// inside it), stored as one small JSON value: one read and one write per fetchAll batch, never per request. A batch
// that does not fit is cut to what fits; the rest is refused before it is sent, with a message saying why.
import type { ClockPort, HttpFailure, HttpOutcome, HttpPort, HttpRequest, KeyValueStore } from '../ports';

export type AccountKind = 'consumer' | 'workspace';

export const ACCOUNT_KINDS: Record<AccountKind, { budget: number; googleLimit: number }> = {
  consumer: { budget: 18_000, googleLimit: 20_000 },
  workspace: { budget: 95_000, googleLimit: 100_000 },
};

/**
 * What one spreadsheet's formulas may send a day. Google charges a formula's requests to the user whose
 * recalculation runs it, together with their own work, but a formula cannot count in that user's properties: so the
 * formulas get the reserve between Sheet Scout's budget and Google's limit (a user's work and one spreadsheet's
 * formulas stay inside Google's limit together). Past it, formula cells say so (src/functions/cell-text.ts) and
 * "Refresh pending lookups" or Enrich, which run as the user and count as their work, fetch the rest.
 */
export const FORMULA_BUDGETS: Record<AccountKind, number> = { consumer: 2_000, workspace: 5_000 };

export type CounterScope = 'user' | 'formulas';

export const REQUEST_BUDGET_KEYS = {
  /** UserProperties: the user's account kind (absent: consumer). */
  account: 'sheetscout.requests.account',
  /** UserProperties: the user's requests per hour. */
  usage: 'sheetscout.requests.usage',
  /** DocumentProperties: the requests of this spreadsheet's formulas per hour (see docs/design/request-budget.md). */
  formulaUsage: 'sheetscout.requests.formulas',
} as const;

const HOUR_MS = 60 * 60 * 1000;
/** A reservation ahead is topped up once less than this (a full round of the client) is left of it. */
const TOP_UP_BELOW = 100;
/** Buckets counted: the current hour and the 24 before it, so every 24-hour span is inside the window. */
const WINDOW_HOURS = 25;
/** From this share of the budget on, the panel warns. */
const WARN_SHARE = 0.9;

/** Requests per hour: hour index (ms since epoch / 1 h) -> requests. */
export type HourlyUsage = Record<string, number>;

export function parseUsage(text: string | null): HourlyUsage {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const usage: HourlyUsage = {};
    for (const [hour, count] of Object.entries(parsed))
      if (/^\d+$/.test(hour) && typeof count === 'number' && count > 0) usage[hour] = count;
    return usage;
  } catch {
    return {};
  }
}

const hourOf = (now: number) => Math.floor(now / HOUR_MS);

/** Requests counted in the window that ends now. */
export function usedInWindow(usage: HourlyUsage, now: number): number {
  const first = hourOf(now) - (WINDOW_HOURS - 1);
  return Object.entries(usage).reduce((sum, [hour, count]) => (Number(hour) >= first ? sum + count : sum), 0);
}

/** The usage with `count` more requests in the current hour and the hours that left the window dropped. */
export function addUsage(usage: HourlyUsage, now: number, count: number): HourlyUsage {
  const current = hourOf(now);
  const kept: HourlyUsage = {};
  for (const [hour, value] of Object.entries(usage)) if (Number(hour) > current - WINDOW_HOURS) kept[hour] = value;
  kept[String(current)] = (kept[String(current)] ?? 0) + count;
  return kept;
}

/** When the oldest request still counted leaves the window (ms since epoch), or null when nothing is counted. */
export function nextRelease(usage: HourlyUsage, now: number): number | null {
  const first = hourOf(now) - (WINDOW_HOURS - 1);
  const hours = Object.keys(usage)
    .map(Number)
    .filter((hour) => hour >= first);
  return hours.length === 0 ? null : (Math.min(...hours) + WINDOW_HOURS) * HOUR_MS;
}

const figure = (n: number) => n.toLocaleString('en-US');

export function spentMessage(account: AccountKind): string {
  const { budget, googleLimit } = ACCOUNT_KINDS[account];
  return account === 'consumer'
    ? `Sheet Scout has used its ${figure(budget)} requests for today (Google's daily limit is ${figure(googleLimit)} per user): ` +
        'it continues tomorrow, or raise the limit in Settings if you use Google Workspace'
    : `Sheet Scout has used its ${figure(budget)} requests for today (Google's daily limit for Workspace is ${figure(googleLimit)} per user): ` +
        'it continues tomorrow';
}

export function nearMessage(account: AccountKind, used: number): string {
  const { budget } = ACCOUNT_KINDS[account];
  return (
    `Sheet Scout has used ${figure(used)} of its ${figure(budget)} requests for today: when they are spent, research and ` +
    'enrichment wait until tomorrow' +
    (account === 'consumer' ? ' (or raise the limit in Settings if you use Google Workspace)' : '')
  );
}

export interface BudgetStatus {
  account: AccountKind;
  used: number;
  limit: number;
  googleLimit: number;
  spent: boolean;
  /** Shown from 90 % of the budget on: the warning, then the refusal. */
  message: string | null;
}

export function budgetStatus(account: AccountKind, used: number): BudgetStatus {
  const { budget, googleLimit } = ACCOUNT_KINDS[account];
  const spent = used >= budget;
  return {
    account,
    used,
    limit: budget,
    googleLimit,
    spent,
    message: spent ? spentMessage(account) : used >= budget * WARN_SHARE ? nearMessage(account, used) : null,
  };
}

export function readAccountKind(settings: KeyValueStore): AccountKind {
  return settings.get(REQUEST_BUDGET_KEYS.account) === 'workspace' ? 'workspace' : 'consumer';
}

/** One counter: its usage value in a store, the budget from the user's account kind and what it counts. */
export class RequestCounter {
  private kind: AccountKind | null = null;
  /** This execution has counted a batch: the next reads the stored value fresh (other executions count too). */
  private counted = false;
  /** The usage as the last batch left it. */
  private usage: HourlyUsage = {};
  /** Requests this execution was allowed to send. */
  private allowedHere = 0;
  /** Requests counted ahead in the store (reserveAhead) and not sent yet, and the hour they were counted in. */
  private ahead = 0;
  private aheadHour = '';

  constructor(
    private readonly usageStore: KeyValueStore,
    private readonly usageKey: string,
    private readonly settings: KeyValueStore,
    private readonly clock: ClockPort,
    private readonly scope: CounterScope = 'user',
  ) {}

  account(): AccountKind {
    this.kind ??= readAccountKind(this.settings);
    return this.kind;
  }

  /** Requests a day this counter allows. */
  limit(): number {
    return this.scope === 'formulas' ? FORMULA_BUDGETS[this.account()] : ACCOUNT_KINDS[this.account()].budget;
  }

  status(): BudgetStatus {
    return budgetStatus(this.account(), usedInWindow(parseUsage(this.usageStore.get(this.usageKey)), this.clock.now()));
  }

  /** Requests this execution has sent through this counter so far. */
  sentHere(): number {
    return this.allowedHere;
  }

  /** When requests counted so far start to leave the window (epoch ms): the earliest a refused batch may go. */
  freedAt(): number {
    const now = this.clock.now();
    return nextRelease(this.usage, now) ?? now + HOUR_MS;
  }

  /**
   * Counts up to `wanted` requests against the budget and returns how many may be sent: first from what was counted
   * ahead, then in the store. The stored value is read as the execution first read the store, then fresh for each
   * later batch (other executions count too), and written once a batch. A store that cannot be written does not stop
   * the requests.
   */
  reserve(wanted: number): number {
    const fromAhead = Math.min(this.ahead, wanted);
    this.ahead -= fromAhead;
    this.allowedHere += fromAhead;
    return fromAhead === wanted ? wanted : fromAhead + this.count(wanted - fromAhead);
  }

  /**
   * Counts up to `count` requests at once for the rounds to come, so that they cost no property read and write each
   * (a long job's rounds); `releaseAhead` gives back what was not sent. An execution cut short before it releases
   * leaves them counted: the budget errs on the safe side.
   */
  reserveAhead(count: number): void {
    // One reservation at a time (it belongs to one hour's bucket): topped up to `count` in the same hour once less
    // than a round is left of it, else the next once this one is used up or released.
    const hour = String(Math.floor(this.clock.now() / HOUR_MS));
    const topUp = this.ahead > 0 && hour === this.aheadHour && this.ahead < Math.min(count, TOP_UP_BELOW);
    if ((this.ahead > 0 && !topUp) || count <= this.ahead) return;
    const before = this.allowedHere;
    this.ahead += this.count(count - this.ahead);
    this.allowedHere = before;
    this.aheadHour = hour;
  }

  /** Gives back the requests counted ahead and not sent (one fresh read and one write). */
  releaseAhead(): void {
    if (this.ahead === 0) return;
    const usage = parseUsage(this.usageStore.fresh(this.usageKey));
    const left = (usage[this.aheadHour] ?? 0) - this.ahead;
    if (left > 0) usage[this.aheadHour] = left;
    else delete usage[this.aheadHour];
    this.ahead = 0;
    this.usage = usage;
    try {
      this.usageStore.set(this.usageKey, JSON.stringify(usage));
    } catch {
      // As in count(): the reserve under Google's limit absorbs it.
    }
  }

  /** Counts `wanted` requests in the store (see reserve). */
  private count(wanted: number): number {
    const now = this.clock.now();
    const stored = this.counted ? this.usageStore.fresh(this.usageKey) : this.usageStore.get(this.usageKey);
    this.counted = true;
    const usage = parseUsage(stored);
    this.usage = usage;
    const allowed = Math.max(0, Math.min(wanted, this.limit() - usedInWindow(usage, now)));
    if (allowed === 0) return 0;
    this.allowedHere += allowed;
    try {
      this.usageStore.set(this.usageKey, JSON.stringify(addUsage(usage, now, allowed)));
    } catch {
      // Bookkeeping must not break the add-in; the reserve under Google's limit absorbs an uncounted batch.
    }
    return allowed;
  }
}

/** An HttpPort that sends only what the counter allows; the rest fail before sending with the budget message. */
export function withRequestBudget(http: HttpPort, counter: RequestCounter): HttpPort {
  return {
    fetchAll(requests: HttpRequest[]): HttpOutcome[] {
      if (requests.length === 0) return [];
      const allowed = counter.reserve(requests.length);
      const refused: HttpFailure = {
        ok: false,
        error: spentMessage(counter.account()),
        maybeSent: false,
        fatal: true,
        budgetSpent: true,
        retryAt: counter.freedAt(),
      };
      const sent = allowed > 0 ? http.fetchAll(requests.slice(0, allowed)) : [];
      return [...sent, ...requests.slice(allowed).map(() => refused)];
    },
  };
}
