// The sandbox's whole state in one object: clock, accounts, company index and ranking, research planner and task
// engine, tables and templates, faults and per-route request counts, the webhook receiver, with reset back to the seed
// state.
import { Accounts } from './accounts';
import { SandboxClock, type ClockMode } from './clock';
import { CompanyIndex } from './companies/company-index';
import { CompanyRanking } from './companies/company-search';
import { FaultInjector } from './http/faults';
import { HostileText } from './hostile-text';
import { ResearchPlanner } from './research/research-planner';
import { TableStore } from './tables';
import { TaskEngine } from './research/tasks';
import { RateLimiter } from './http/rate-limit';
import { WebhookReceiver } from './webhooks/receiver';

export const DEFAULT_SEED = 20250602;
/** Enrichment of a pending domain at speed 1. */
export const BASE_ENRICHMENT_DELAY_MS = 5000;

export interface SandboxOptions {
  speed: number;
  clock: ClockMode;
  seed: number;
  /** Requests per second per token past which the API answers 429 (rate-limit.ts); none when absent. */
  rateLimitPerSecond?: number | null;
}

export class Sandbox {
  readonly clock: SandboxClock;
  readonly accounts = new Accounts();
  readonly index: CompanyIndex;
  readonly ranking: CompanyRanking;
  readonly planner: ResearchPlanner;
  readonly tasks: TaskEngine;
  readonly tables: TableStore;
  readonly faults = new FaultInjector();
  readonly hostile = new HostileText();
  readonly rateLimit: RateLimiter;
  readonly stats = new Map<string, number>();
  /** Slack's and Google Chat's incoming webhooks, stood in for (webhooks/receiver.ts). */
  readonly webhooks = new WebhookReceiver();
  /** Rounds of company news so far (companies/company-news.ts; each round's changes follow from the seed and it). */
  newsRounds = 0;

  constructor(readonly options: SandboxOptions) {
    this.clock = new SandboxClock(options.clock);
    this.index = new CompanyIndex(options.seed, this.defaultEnrichmentDelay());
    this.ranking = new CompanyRanking(this.index.companies);
    this.planner = new ResearchPlanner(this.index, this.ranking);
    this.tasks = new TaskEngine({
      accounts: this.accounts,
      index: this.index,
      ranking: this.ranking,
      planner: this.planner,
      seed: options.seed,
      speed: options.speed,
    });
    this.tables = new TableStore(options.seed);
    this.rateLimit = new RateLimiter(this.clock, options.rateLimitPerSecond ?? null);
  }

  defaultEnrichmentDelay(): number {
    return Math.round(BASE_ENRICHMENT_DELAY_MS / this.options.speed);
  }

  /** Sandbox time after running every task event due by then. */
  now(): number {
    const now = this.clock.now();
    this.tasks.processUntil(now);
    return now;
  }

  count(route: string): void {
    this.stats.set(route, (this.stats.get(route) ?? 0) + 1);
  }

  reset(): void {
    this.clock.reset();
    this.accounts.reset();
    this.index.resetEnrichment();
    this.index.enrichmentDelayMs = this.defaultEnrichmentDelay();
    this.tasks.reset();
    this.tables.reset();
    this.faults.clear();
    this.hostile.clear();
    this.rateLimit.configure(this.options.rateLimitPerSecond ?? null);
    this.stats.clear();
    this.webhooks.reset();
    this.newsRounds = 0;
  }
}
