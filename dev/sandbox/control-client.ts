// Typed client of the sandbox's control API (/_sandbox/...) and of its /v1 API as a plain caller, for tests,
// benchmarks and the playground: reset, clock, faults, stats and lookups served, seeded companies, accounts, credits,
// an account's research tasks, and the money oracle (what a token's research reserved, charged and refunded per day).
import * as http from 'node:http';
import type { CreditMovements, LedgerDay } from './research/tasks';
import type { ReceivedPost } from './webhooks/receiver';
import type { CompanyNewsItem } from './companies/company-news';

export interface FaultSpec {
  route:
    | 'lookup'
    | 'search'
    | 'similar'
    | 'tasks.create'
    | 'tasks.get'
    | 'tasks.list'
    | 'user'
    | 'columns'
    | 'templates'
    | 'tables.get'
    | 'templates.get'
    | '*';
  latencyMs?: number;
  errorRate?: number;
  errorStatus?: 429 | 500 | 503;
  retryAfterSeconds?: number;
  dropRate?: number;
  dropAfterServeRate?: number;
  slowBodyMs?: number;
  listLagMs?: number;
  rawNewlines?: boolean;
  count?: number | null;
  seed?: number;
}

export interface Reply<T> {
  status: number;
  body: T;
  headers: { get(name: string): string | null };
  text: string;
}

export interface RequestOptions {
  /** Sent as a bearer token. */
  token?: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is (for malformed bodies). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface SeededCompany {
  id: string | null;
  domain: string;
  name: string;
  enriched: boolean;
  hq_country: string;
  hq_city: string;
  employee_count: string;
  founding_year: number;
  industry: string;
}

/** The sandbox's record of a token's research credits, as its tasks keep it (tasks.ts). */
export type { CreditMovements, LedgerDay, ReceivedPost, CompanyNewsItem };

/** The money oracle's record of one token: its account's name and its days with any movement, oldest first. */
export interface TokenLedger {
  token: string;
  account: string;
  days: LedgerDay[];
}

export class SandboxControl {
  constructor(readonly url: string) {}

  /**
   * One request on a connection of its own, whatever its answer: status, parsed body (null when empty or not JSON),
   * headers and text. No connection is kept alive: tests and benchmarks block this process in long synchronous
   * executions, during which the sandbox closes idle connections, and a reused dead one fails a call (such as a clock
   * advance) that cannot simply be sent again.
   */
  request<T = unknown>(method: string, route: string, options: RequestOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...options.headers };
    let payload = options.rawBody;
    if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    return new Promise<Reply<T>>((resolve, reject) => {
      const request = http.request(`${this.url}${route}`, { method, headers, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : null;
          } catch {
            body = null;
          }
          const received = response.headers;
          const get = (name: string): string | null => {
            const value = received[name.toLowerCase()];
            return value === undefined ? null : Array.isArray(value) ? value.join(', ') : String(value);
          };
          resolve({ status: response.statusCode ?? 0, body: body as T, headers: { get }, text });
        });
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end(payload);
    });
  }

  /** One call whose answer must be a success: its parsed body; throws with the status and text otherwise. */
  async call<T = unknown>(method: string, route: string, body?: unknown, token?: string): Promise<T> {
    const reply = await this.request<T>(method, route, { body, token });
    if (reply.status < 200 || reply.status >= 300) throw new Error(`${method} ${route}: ${reply.status} ${reply.text}`);
    return reply.body;
  }

  reset(): Promise<unknown> {
    return this.call('POST', '/_sandbox/reset');
  }

  async now(): Promise<number> {
    return (await this.call<{ epoch_ms: number }>('GET', '/_sandbox/clock')).epoch_ms;
  }

  advanceClock(ms: number): Promise<unknown> {
    return this.call('POST', '/_sandbox/clock/advance', { ms });
  }

  setFault(fault: FaultSpec): Promise<unknown> {
    return this.call('POST', '/_sandbox/faults', fault);
  }

  clearFaults(): Promise<unknown> {
    return this.call('DELETE', '/_sandbox/faults');
  }

  /** Requests served per route since the last reset (faulted ones included). */
  stats(): Promise<Record<string, number>> {
    return this.call('GET', '/_sandbox/stats');
  }

  /** Lookups served (GET /v1/companies/lookup, refused ones included) since the last reset. */
  async lookupsServed(): Promise<number> {
    return (await this.stats()).lookup ?? 0;
  }

  resetStats(): Promise<unknown> {
    return this.call('POST', '/_sandbox/stats/reset');
  }

  /** Seeded companies in index order; `enriched` false lists the domains still waiting for enrichment. */
  companies(limit: number, enriched?: boolean): Promise<SeededCompany[]> {
    return this.call(
      'GET',
      `/_sandbox/companies?limit=${limit}${enriched === undefined ? '' : `&enriched=${enriched}`}`,
    );
  }

  setAccount(name: string, change: { credits?: number; plan?: 'pro' | 'free' }): Promise<unknown> {
    return this.call('POST', `/_sandbox/accounts/${encodeURIComponent(name)}`, change);
  }

  setEnrichmentDelay(enrichmentDelayMs: number): Promise<unknown> {
    return this.call('POST', '/_sandbox/config', { enrichmentDelayMs });
  }

  /** The research pace of the tasks created from now on (1: a medium task in about 18 s); reset restores --speed. */
  setResearchSpeed(researchSpeed: number): Promise<unknown> {
    return this.call('POST', '/_sandbox/config', { researchSpeed });
  }

  /** Changes facts of a seeded company (employee_count, hq_country, ...); reset restores them. */
  changeCompany(domain: string, change: Record<string, unknown>): Promise<unknown> {
    return this.call('POST', `/_sandbox/companies/${encodeURIComponent(domain)}`, change);
  }

  /**
   * A round of company news: up to `count` of `domains` (any enriched company when none is given) grow one size
   * bucket or move to another city; what changed. Reset undoes them.
   */
  async companyNews(domains: string[] = [], count = 3): Promise<CompanyNewsItem[]> {
    return (await this.call<{ changes: CompanyNewsItem[] }>('POST', '/_sandbox/companies/news', { domains, count }))
      .changes;
  }

  /** Requests per second per token past which the API answers 429 (null: no limit; reset restores the start-up one). */
  setRateLimit(rateLimitPerSecond: number | null): Promise<unknown> {
    return this.call('POST', '/_sandbox/config', { rateLimitPerSecond });
  }

  failTask(taskId: string, reason: 'credits' | 'internal'): Promise<unknown> {
    return this.call('POST', `/_sandbox/tasks/${encodeURIComponent(taskId)}/fail`, { reason });
  }

  /**
   * Adds `count` finished tasks of an account made elsewhere, `spacingMs` apart (default a minute), the newest
   * `ageMs` before now (default 0): an account's history that the add-in did not create. Returns their ids.
   */
  async seedTasks(
    count: number,
    options: { account?: string; spacingMs?: number; ageMs?: number } = {},
  ): Promise<string[]> {
    return (await this.call<{ ids: string[] }>('POST', '/_sandbox/tasks/seed', { count, ...options })).ids;
  }

  /** What the token's research reserved, charged and refunded, per UTC day of the sandbox clock (GET /_sandbox/ledger). */
  ledger(token: string): Promise<TokenLedger> {
    return this.call('GET', `/_sandbox/ledger/${encodeURIComponent(token)}`);
  }

  /** The token's movements on one UTC day (YYYY-MM-DD; default: the sandbox's today), zeros when there were none. */
  async ledgerDay(token: string, day?: string): Promise<LedgerDay> {
    const wanted = day ?? new Date(await this.now()).toISOString().slice(0, 10);
    const found = (await this.ledger(token)).days.find((entry) => entry.day === wanted);
    return found ?? { day: wanted, reserved: 0, charged: 0, refunded: 0, tasks: [] };
  }

  /** The token's account's research tasks (the first 100), as GET /v1/deep_research_tasks lists them. */
  tasks(token: string): Promise<Array<{ id: string; brief: string; status: string; agents: number }>> {
    return this.call('GET', '/v1/deep_research_tasks?limit=100', undefined, token);
  }

  /** Every post the webhook receiver got (Slack's and Google Chat's stand-ins), oldest first, refused ones too. */
  async webhookPosts(): Promise<ReceivedPost[]> {
    return (await this.call<{ posts: ReceivedPost[] }>('GET', '/_sandbox/webhooks')).posts;
  }

  /** The next `count` webhook posts are answered `status` (e.g. 503, 429, Slack's 404 no_service) instead. */
  scriptWebhookAnswers(status: number | 'lost', count = 1, retryAfterSeconds?: number): Promise<unknown> {
    return this.call('POST', '/_sandbox/webhooks/answers', { status, count, retryAfterSeconds });
  }

  /** Available credits of the token's account, as GET /v1/user reports them. */
  async credits(token: string): Promise<number> {
    return (await this.call<{ available_credits: number }>('GET', '/v1/user', undefined, token)).available_credits;
  }
}
