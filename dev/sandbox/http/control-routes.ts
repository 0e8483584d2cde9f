// The control API under /_sandbox/ (no authentication; for tests, benchmarks and the playground): reset, account
// credits and plan, clock, fault injection, forcing a task to fail mid-run, seeding an account's older tasks, request
// counts, seeded company listing, changes of a company's facts, configuration (enrichment delay, per-token rate limit),
// the money oracle: the credits each token's research reserved, charged and refunded per UTC day; and what the webhook
// receiver was posted (and the answers it is to give next).
import { SIZE_BUCKETS } from '../companies/company-vocabulary';
import { isoTime } from '../clock';
import { parseFaultConfig } from './faults';
import { HttpError, type JsonResponse } from './http-util';
import type { Sandbox } from '../sandbox';
import { taskObject } from '../research/tasks';
import { isPlainObject } from './validation';
import { checkRateLimit } from './rate-limit';
import type { CompanyChange } from '../companies/company-index';
import { companyNews } from '../companies/company-news';

export interface ControlRequest {
  params: string[];
  query: URLSearchParams;
  body: unknown;
}

export interface ControlRoute {
  method: string;
  pattern: RegExp;
  handle(request: ControlRequest): JsonResponse;
}

function ok(body: unknown): JsonResponse {
  return { status: 200, body };
}

const CHANGEABLE_TEXT = ['name', 'hq_country', 'hq_city', 'short_description'] as const;

/** A company change from a control body: known text fields, a size bucket, a founding year; anything else refused. */
function companyChange(body: Record<string, unknown>): CompanyChange {
  const patch: CompanyChange = {};
  for (const [key, value] of Object.entries(body)) {
    if ((CHANGEABLE_TEXT as readonly string[]).includes(key) && typeof value === 'string') {
      Object.assign(patch, { [key]: value });
    } else if (key === 'employee_count' && (SIZE_BUCKETS as readonly unknown[]).includes(value)) {
      patch.employee_count = value as CompanyChange['employee_count'];
    } else if (key === 'founding_year' && Number.isInteger(value)) {
      patch.founding_year = value as number;
    } else {
      throw new HttpError(400, `Cannot change ${key} to ${JSON.stringify(value)}`);
    }
  }
  return patch;
}

function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (!isPlainObject(body)) throw new HttpError(400, 'Body must be a JSON object');
  return body;
}

function accountState(sandbox: Sandbox, name: string): Record<string, unknown> {
  const account = sandbox.accounts.byName(name);
  if (!account) throw new HttpError(404, `Unknown account ${name}`);
  return {
    name: account.name,
    token: account.token,
    user_id: account.userId,
    email: account.email,
    plan: account.plan,
    credits: account.credits,
    organization_id: account.organization?.id ?? null,
    workspace_id: account.workspaceId,
  };
}

function clockState(sandbox: Sandbox): Record<string, unknown> {
  const now = sandbox.now();
  return { now: isoTime(now), epoch_ms: now, mode: sandbox.clock.mode };
}

/** A token's research credits per UTC day, with every task step due by now run first (as a /v1 read would). */
function tokenLedger(sandbox: Sandbox, token: string): Record<string, unknown> {
  sandbox.now();
  const account = sandbox.accounts.byToken(token);
  if (!account) throw new HttpError(404, 'Unknown token');
  return { token, account: account.name, days: sandbox.tasks.ledger.days(token) };
}

function integerParam(query: URLSearchParams, name: string, fallback: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new HttpError(400, `${name} must be a non-negative integer`);
  return value;
}

export function controlRoutes(sandbox: Sandbox): ControlRoute[] {
  return [
    { method: 'POST', pattern: /^\/_sandbox\/reset$/, handle: () => (sandbox.reset(), ok({ reset: true })) },
    {
      method: 'GET',
      pattern: /^\/_sandbox\/accounts$/,
      handle: () => ok(sandbox.accounts.all().map((account) => accountState(sandbox, account.name))),
    },
    {
      method: 'GET',
      pattern: /^\/_sandbox\/accounts\/([^/]+)$/,
      handle: (request) => ok(accountState(sandbox, request.params[0])),
    },
    {
      method: 'POST',
      pattern: /^\/_sandbox\/accounts\/([^/]+)$/,
      handle: (request) => {
        const account = sandbox.accounts.byName(request.params[0]);
        if (!account) throw new HttpError(404, `Unknown account ${request.params[0]}`);
        const body = bodyObject(request.body);
        if (
          body.credits !== undefined &&
          (typeof body.credits !== 'number' || !Number.isInteger(body.credits) || body.credits < 0)
        ) {
          throw new HttpError(400, 'credits must be a non-negative integer');
        }
        if (body.plan !== undefined && body.plan !== 'pro' && body.plan !== 'free')
          throw new HttpError(400, "plan must be 'pro' or 'free'");
        if (typeof body.credits === 'number') account.credits = body.credits;
        if (body.plan === 'pro' || body.plan === 'free') account.plan = body.plan;
        return ok(accountState(sandbox, account.name));
      },
    },
    { method: 'GET', pattern: /^\/_sandbox\/clock$/, handle: () => ok(clockState(sandbox)) },
    {
      method: 'POST',
      pattern: /^\/_sandbox\/clock\/advance$/,
      handle: (request) => {
        const ms = bodyObject(request.body).ms;
        if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
          throw new HttpError(400, 'ms must be a non-negative number');
        sandbox.clock.advance(ms);
        return ok(clockState(sandbox));
      },
    },
    { method: 'GET', pattern: /^\/_sandbox\/faults$/, handle: () => ok(sandbox.faults.list()) },
    {
      method: 'POST',
      pattern: /^\/_sandbox\/faults$/,
      handle: (request) => {
        const parsed = parseFaultConfig(request.body);
        if (Array.isArray(parsed)) throw new HttpError(400, parsed.join('; '));
        sandbox.faults.set(parsed);
        return ok(sandbox.faults.list());
      },
    },
    { method: 'DELETE', pattern: /^\/_sandbox\/faults$/, handle: () => (sandbox.faults.clear(), ok([])) },
    {
      method: 'POST',
      pattern: /^\/_sandbox\/hostile-text$/,
      handle: (request) => {
        const strings = (request.body as { strings?: unknown } | null)?.strings;
        if (!Array.isArray(strings) || !strings.every((item) => typeof item === 'string'))
          throw new HttpError(422, 'strings must be a list of strings');
        sandbox.hostile.set(strings);
        return ok({ strings: strings.length });
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/_sandbox\/hostile-text$/,
      handle: () => (sandbox.hostile.clear(), ok({ strings: 0 })),
    },
    { method: 'GET', pattern: /^\/_sandbox\/tasks$/, handle: () => ok(sandbox.tasks.all().map(taskObject)) },
    {
      method: 'POST',
      pattern: /^\/_sandbox\/tasks\/seed$/,
      handle: (request) => {
        const body = bodyObject(request.body);
        const account = sandbox.accounts.byName(String(body.account ?? 'sandbox-pro'));
        if (!account) throw new HttpError(404, `Unknown account ${String(body.account)}`);
        const count = body.count;
        if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > 50_000)
          throw new HttpError(400, 'count must be a whole number from 1 to 50000');
        const spacingMs = body.spacingMs ?? 60_000;
        const ageMs = body.ageMs ?? 0;
        if (
          !Number.isInteger(spacingMs) ||
          (spacingMs as number) < 0 ||
          !Number.isInteger(ageMs) ||
          (ageMs as number) < 0
        )
          throw new HttpError(400, 'spacingMs and ageMs must be whole numbers of milliseconds, 0 or more');
        const ids = sandbox.tasks.seedFinished(
          account,
          count as number,
          sandbox.now() - (ageMs as number),
          spacingMs as number,
        );
        return ok({ ids });
      },
    },
    {
      method: 'POST',
      pattern: /^\/_sandbox\/tasks\/([^/]+)\/fail$/,
      handle: (request) => {
        const reason = bodyObject(request.body).reason ?? 'internal';
        if (reason !== 'credits' && reason !== 'internal')
          throw new HttpError(400, "reason must be 'credits' or 'internal'");
        const now = sandbox.now();
        const task = sandbox.tasks.get(request.params[0]);
        if (!task) throw new HttpError(404, 'Task not found');
        if (!sandbox.tasks.failMidRun(task, reason, now)) throw new HttpError(409, `Task already ${task.status}`);
        return ok(taskObject(task));
      },
    },
    {
      method: 'GET',
      pattern: /^\/_sandbox\/ledger$/,
      handle: () => ok(sandbox.tasks.ledger.tokens().map((token) => tokenLedger(sandbox, token))),
    },
    {
      method: 'GET',
      pattern: /^\/_sandbox\/ledger\/([^/]+)$/,
      handle: (request) => ok(tokenLedger(sandbox, request.params[0])),
    },
    { method: 'GET', pattern: /^\/_sandbox\/webhooks$/, handle: () => ok({ posts: sandbox.webhooks.posts }) },
    { method: 'DELETE', pattern: /^\/_sandbox\/webhooks$/, handle: () => (sandbox.webhooks.reset(), ok({})) },
    {
      method: 'POST',
      pattern: /^\/_sandbox\/webhooks\/answers$/,
      handle: (request) => {
        const body = bodyObject(request.body);
        const status = body.status === 'lost' ? 'lost' : Number(body.status);
        const count = body.count === undefined ? 1 : Number(body.count);
        const retryAfter = body.retryAfterSeconds === undefined ? undefined : Number(body.retryAfterSeconds);
        if (status !== 'lost' && (!Number.isInteger(status) || status < 400 || status > 599))
          throw new HttpError(400, "status: 400 to 599, or 'lost' (served, the answer dropped)");
        if (!Number.isInteger(count) || count < 1 || count > 1000) throw new HttpError(400, 'count: 1 to 1000');
        if (retryAfter !== undefined && !(retryAfter >= 0)) throw new HttpError(400, 'retryAfterSeconds: 0 or more');
        sandbox.webhooks.script(status, count, retryAfter);
        return ok({ scripted: count });
      },
    },
    { method: 'GET', pattern: /^\/_sandbox\/stats$/, handle: () => ok(Object.fromEntries(sandbox.stats)) },
    { method: 'POST', pattern: /^\/_sandbox\/stats\/reset$/, handle: () => (sandbox.stats.clear(), ok({})) },
    {
      method: 'GET',
      pattern: /^\/_sandbox\/companies$/,
      handle: (request) => {
        const enriched = request.query.get('enriched');
        if (enriched !== null && enriched !== 'true' && enriched !== 'false')
          throw new HttpError(400, "enriched must be 'true' or 'false'");
        const limit = Math.min(integerParam(request.query, 'limit', 20), 5000);
        const offset = integerParam(request.query, 'offset', 0);
        const now = sandbox.now();
        const companies = sandbox.index.companies
          .filter((company) => enriched === null || sandbox.index.isAvailable(company, now) === (enriched === 'true'))
          .slice(offset, offset + limit);
        return ok(
          companies.map((company) => {
            const available = sandbox.index.isAvailable(company, now);
            return {
              id: available ? company.id : null,
              domain: company.domain,
              name: company.name,
              enriched: available,
              hq_country: company.hq_country,
              hq_city: company.hq_city,
              employee_count: company.employee_count,
              founding_year: company.founding_year,
              industry: company.industry.name,
            };
          }),
        );
      },
    },
    {
      method: 'POST',
      pattern: /^\/_sandbox\/companies\/news$/,
      handle: (request) => {
        const body = bodyObject(request.body);
        const domains = body.domains ?? [];
        const count = body.count === undefined ? 3 : Number(body.count);
        if (!Array.isArray(domains) || !domains.every((domain) => typeof domain === 'string'))
          throw new HttpError(400, 'domains: a list of domains');
        if (!Number.isInteger(count) || count < 1 || count > 100) throw new HttpError(400, 'count: 1 to 100');
        sandbox.newsRounds += 1;
        const round = { seed: sandbox.options.seed, n: sandbox.newsRounds };
        return ok({ changes: companyNews(sandbox.index, round, domains as string[], count) });
      },
    },
    {
      method: 'POST',
      pattern: /^\/_sandbox\/companies\/([^/]+)$/,
      handle: (request) => {
        const patch = companyChange(bodyObject(request.body));
        const company = sandbox.index.change(request.params[0], patch);
        if (!company) throw new HttpError(404, `No company ${request.params[0]}`);
        return ok({ domain: company.domain, ...patch });
      },
    },
    {
      method: 'GET',
      pattern: /^\/_sandbox\/config$/,
      handle: () =>
        ok({
          enrichmentDelayMs: sandbox.index.enrichmentDelayMs,
          rateLimitPerSecond: sandbox.rateLimit.perSecond,
          speed: sandbox.tasks.currentSpeed,
          seed: sandbox.options.seed,
          clock: sandbox.clock.mode,
          sizeBuckets: SIZE_BUCKETS,
        }),
    },
    {
      method: 'POST',
      pattern: /^\/_sandbox\/config$/,
      handle: (request) => {
        const body = bodyObject(request.body);
        const delay = body.enrichmentDelayMs;
        const speed = body.researchSpeed;
        if (delay === undefined && speed === undefined && !('rateLimitPerSecond' in body)) {
          throw new HttpError(400, 'Give enrichmentDelayMs, researchSpeed and/or rateLimitPerSecond');
        }
        if (speed !== undefined && (typeof speed !== 'number' || !(speed > 0) || !Number.isFinite(speed))) {
          throw new HttpError(400, 'researchSpeed must be a positive number');
        }
        if (delay !== undefined && (typeof delay !== 'number' || !Number.isFinite(delay) || delay < 0)) {
          throw new HttpError(400, 'enrichmentDelayMs must be a non-negative number');
        }
        let rateLimit: number | null = sandbox.rateLimit.perSecond;
        if ('rateLimitPerSecond' in body) {
          try {
            rateLimit = checkRateLimit(body.rateLimitPerSecond);
          } catch (error) {
            throw new HttpError(400, (error as Error).message);
          }
          sandbox.rateLimit.configure(rateLimit);
        }
        if (typeof delay === 'number') sandbox.index.enrichmentDelayMs = delay;
        if (typeof speed === 'number') sandbox.tasks.setSpeed(speed);
        return ok({
          enrichmentDelayMs: sandbox.index.enrichmentDelayMs,
          rateLimitPerSecond: rateLimit,
          researchSpeed: sandbox.tasks.currentSpeed,
        });
      },
    },
  ];
}
