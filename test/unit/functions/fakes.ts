// Fakes for the custom-function logic, over the shared cache and clock of test/fakes/ports.ts: a small routed HTTP
// port that plays the service's company endpoints (lookup, search, similar) with per-domain scripted answers. The
// real service client runs on top of them, so requests, status mapping and retries are the real ones.
import { createServiceClient } from '../../../src/api/client';
import type { HttpOutcome, HttpPort, HttpRequest } from '../../../src/ports';
import { ManualClock, MemoryCache } from '../../fakes/ports';
import { CircuitBreaker } from '../../../src/functions/breaker';
import { CUSTOM_FUNCTION_LIMITS, type FormulaEnv, type FormulaLimits } from '../../../src/functions/ports';
import { documentThroughput } from '../../../src/platform/throughput-store';

export type CompanyAnswer =
  { status: 200; name?: string; context?: Record<string, unknown> } | { status: 202 | 404 | 401 | 429 | 500 | 503 };

export function profileBody(
  domain: string,
  name = domain.split('.')[0],
  context: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    id: `id-${domain}`,
    domain,
    company_name: name,
    context: { hq_country: 'United States', founding_year: 2010, ...context },
  });
}

export function searchResult(index: number): Record<string, unknown> {
  return {
    id: `c-${index}`,
    domain: `company${index}.com`,
    name: `Company ${index}`,
    short_description: `Does thing ${index}`,
    hq_country: 'Germany',
    hq_city: 'Berlin',
    employee_count: '11-50',
    founding_year: 2000 + (index % 20),
    relevance_score: 0.91234,
  };
}

/** Routed fake of the service. Unscripted domains are found (200); `latencyMs` advances the clock per fetchAll. */
export class FakeService implements HttpPort {
  readonly requests: HttpRequest[] = [];
  fetchAllCalls = 0;
  readonly answers = new Map<string, CompanyAnswer>();
  /** Total results a search or lookalike has (pages beyond are empty). */
  searchTotal = 40;
  /** Results beyond this offset are refused with 422 (a plan's search depth). */
  searchDepth = Infinity;
  searchStatus: number | null = null;
  constructor(
    private readonly clock: ManualClock,
    public latencyMs = 0,
  ) {}

  fetchAll(requests: HttpRequest[]): HttpOutcome[] {
    this.fetchAllCalls++;
    this.clock.advance(this.latencyMs);
    return requests.map((request) => {
      this.requests.push(request);
      return this.answer(request);
    });
  }

  private answer(request: HttpRequest): HttpOutcome {
    const path = request.url.replace(/^https:\/\/service\.test/, '');
    const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpOutcome => ({
      ok: true,
      status,
      headers,
      body: JSON.stringify(body),
    });
    if (path === '/v1/companies/search' || /^\/v1\/companies\/[^/]+\/similar$/.test(path)) {
      if (this.searchStatus) return json(this.searchStatus, { detail: 'fault' });
      const body = JSON.parse(request.payload ?? '{}') as { pagination?: { offset?: number; limit?: number } };
      const offset = body.pagination?.offset ?? 0;
      const limit = body.pagination?.limit ?? 10;
      if (offset >= this.searchDepth)
        return json(422, {
          detail: [{ loc: ['body', 'pagination', 'offset'], msg: 'beyond plan depth', type: 'value_error' }],
        });
      const results = [];
      for (let i = offset; i < Math.min(offset + limit, this.searchTotal); i++) results.push(searchResult(i));
      return json(200, { results, request: { offset, limit } });
    }
    const match = /^\/v1\/companies\/([^/]+)$/.exec(path);
    if (!match) return json(404, { detail: 'Not Found' });
    const domain = decodeURIComponent(match[1]);
    const answer = this.answers.get(domain) ?? { status: 200 };
    if (answer.status === 200)
      return { ok: true, status: 200, headers: {}, body: profileBody(domain, answer.name, answer.context) };
    if (answer.status === 202) return json(202, { status: 'enriching', domain, message: 'started' });
    if (answer.status === 429) return json(429, { detail: 'slow down' }, { 'retry-after': '1' });
    return json(answer.status, { detail: 'error' });
  }

  lookups(): string[] {
    return this.requests
      .filter((r) => r.method === 'get' && /\/v1\/companies\/[^/]+$/.test(r.url))
      .map((r) => decodeURIComponent(r.url.split('/').pop()!));
  }
}

export interface Harness {
  cache: MemoryCache;
  clock: ManualClock;
  service: FakeService;
  env(options?: { token?: string | null; limits?: Partial<FormulaLimits> }): FormulaEnv;
}

export function harness(latencyMs = 0): Harness {
  const clock = new ManualClock();
  const cache = new MemoryCache(clock);
  const service = new FakeService(clock, latencyMs);
  return {
    cache,
    clock,
    service,
    env(options = {}) {
      const token = options.token === undefined ? 'secret-token' : options.token;
      // The document's formulas learn their throughput (and slowest round) across executions, in the cache.
      const throughput = documentThroughput(cache, 'formulas', clock);
      return {
        cache,
        clock,
        startedAt: clock.now(),
        limits: { ...CUSTOM_FUNCTION_LIMITS, ...options.limits },
        slowestRoundMs: throughput.slowestRoundMs(),
        breaker: token ? new CircuitBreaker(cache, 'scope') : null,
        connect: token
          ? ({ budgetMs, maxParallel }) =>
              createServiceClient({
                http: service,
                clock,
                settings: { baseUrl: 'https://service.test', token },
                random: () => 0.5,
                retry: { budgetMs },
                maxParallel,
                throughput,
              })
          : null,
      };
    },
  };
}
