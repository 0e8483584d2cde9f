// Unit tests for the research engine run in-process on the real seeded index: target resolution by domain and by
// name, market briefs, rejections, the event queue, fault determinism, and schema reports that cannot be filled.
import { Accounts } from '../../../dev/sandbox/accounts';
import { CompanyIndex } from '../../../dev/sandbox/companies/company-index';
import { CompanyRanking } from '../../../dev/sandbox/companies/company-search';
import { EventQueue } from '../../../dev/sandbox/event-queue';
import { FaultInjector, parseFaultConfig, type FaultConfig } from '../../../dev/sandbox/http/faults';
import { ResearchPlanner } from '../../../dev/sandbox/research/research-planner';
import { DEFAULT_SEED } from '../../../dev/sandbox/sandbox';
import { TaskEngine, taskObject } from '../../../dev/sandbox/research/tasks';

const index = new CompanyIndex(DEFAULT_SEED, 1000);
const ranking = new CompanyRanking(index.companies);
const planner = new ResearchPlanner(index, ranking);
const brandNamed = index.companies.find(
  (company) => company.enrichedAtStart && !/ and |-|,/.test(company.name) && company.name.split(' ').length === 2,
);

describe('target resolution', () => {
  test('a domain anywhere in the brief, in any form, names the target', () => {
    const company = index.companies[10];
    const outcome = planner.plan(`Please look into https://www.${company.domain}/pricing today`, 'medium', null, 0);
    expect(outcome.ok && outcome.plan.target.kind === 'company' && outcome.plan.target.primary).toBe(company);
  });

  test('a company name (any case, punctuation ignored) names the target', () => {
    expect(brandNamed).toBeDefined();
    const outcome = planner.plan(`What does ${brandNamed?.name.toUpperCase()} sell?`, 'medium', null, 0);
    expect(outcome.ok && outcome.plan.target.kind === 'company' && outcome.plan.target.primary).toBe(brandNamed);
  });

  test('several companies: the first is primary, the others get their own agents', () => {
    const [a, b, c] = index.companies.slice(20, 23);
    const outcome = planner.plan(`${a.domain} versus ${b.domain} and ${c.domain}`, 'high', null, 0);
    if (!outcome.ok || outcome.plan.target.kind !== 'company') throw new Error('expected a company target');
    expect(outcome.plan.target.primary).toBe(a);
    expect(outcome.plan.target.others).toEqual([b, c]);
    expect(
      outcome.plan.initial
        .filter((question) => question.facet === 'company_profile')
        .map((question) => question.company),
    ).toEqual([b, c]);
  });

  test('a market in words becomes a market target with place filters', () => {
    const outcome = planner.plan('carbon accounting software vendors in France', 'medium', null, 0);
    if (!outcome.ok || outcome.plan.target.kind !== 'market') throw new Error('expected a market target');
    expect(outcome.plan.target.filters).toEqual({ include: { country: ['France'] } });
  });

  test.each(['asdf', 'tell me something', 'hello', '!!!'])('%p is rejected with reasons and a fix', (brief) => {
    const outcome = planner.plan(brief, 'medium', null, 0);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.reason).toMatch(/Reasons: \(1\).*How to fix/);
  });

  test('an unknown domain is named in the rejection', () => {
    const outcome = planner.plan('Research surely-not-indexed-company.com', 'medium', null, 0);
    expect(!outcome.ok && outcome.reason).toMatch(/surely-not-indexed-company\.com is not in the company index/);
  });
});

describe('schema reports', () => {
  const runToEnd = (schema: Record<string, unknown>) => {
    const accounts = new Accounts();
    const engine = new TaskEngine({ accounts, index, ranking, planner, seed: 1, speed: 1 });
    const owner = accounts.byName('sandbox-pro');
    if (!owner) throw new Error('seed account missing');
    const task = engine.create(owner, `Profile ${index.companies[30].domain}`, 'medium', schema, 0);
    engine.processUntil(120_000);
    return { task: taskObject(task), credits: owner.credits };
  };

  test('combinators, enums and arrays of Evidenced values are filled with conforming values', () => {
    const evidenced = {
      type: 'object',
      properties: {
        value: { type: 'string' },
        sources: { type: 'array', items: { type: 'string' } },
        reasoning: { type: 'string' },
      },
      required: ['value', 'sources', 'reasoning'],
    };
    const { task } = runToEnd({
      type: 'object',
      properties: {
        size: { enum: ['small', '11-50', '51-200', 'large'] },
        founded: { anyOf: [{ type: 'integer', maximum: 1900 }, { type: 'string' }, { type: 'null' }] },
        facts: {
          allOf: [
            { type: 'object', properties: { city: { type: 'string' } } },
            { properties: { country: { type: 'string' } } },
          ],
        },
        products: { type: 'array', items: evidenced, maxItems: 2 },
      },
      required: ['size', 'founded', 'facts', 'products'],
    });
    expect(task.status).toBe('done');
    const fields = (task.report as { fields: Record<string, unknown> }).fields;
    expect(['small', '11-50', '51-200', 'large']).toContain(fields.size);
    expect(fields.facts).toHaveProperty('city');
  });

  test("a required URL naming a page of the company's site is that page; one the research cannot make fails the task", () => {
    const domain = index.companies[30].domain;
    const { task } = runToEnd({
      type: 'object',
      properties: {
        careers_page: { type: 'string', format: 'uri' },
        pricingUrl: { type: 'string', format: 'uri' },
        website: { type: 'string', format: 'uri' },
      },
      required: ['careers_page', 'pricingUrl', 'website'],
    });
    expect(task.status).toBe('done');
    expect((task.report as { fields: Record<string, unknown> }).fields).toEqual({
      careers_page: `https://${domain}/careers`,
      pricingUrl: `https://${domain}/pricing`,
      website: `https://${domain}/`,
    });
    const { task: failed, credits } = runToEnd({
      type: 'object',
      properties: { ceo_portrait: { type: 'string', format: 'uri' } },
      required: ['ceo_portrait'],
    });
    expect(failed.status).toBe('failed');
    expect(failed.failure_reason).toMatch(/^Internal error: the research could not fill output_schema/);
    expect(credits).toBe(500);
  });

  test('a required value no evidence can satisfy fails the task as an internal error, refunding everything', () => {
    const { task, credits } = runToEnd({
      type: 'object',
      properties: { code: { type: 'string', pattern: '^[0-9]{9}$' } },
      required: ['code'],
    });
    expect(task.status).toBe('failed');
    expect(task.failure_reason).toMatch(/^Internal error: the research could not fill output_schema/);
    expect(credits).toBe(500);
  });
});

describe('event queue', () => {
  test('pops events due by now in time order, ties in insertion order', () => {
    const queue = new EventQueue<string>();
    queue.push(30, 'c');
    queue.push(10, 'a');
    queue.push(20, 'b1');
    queue.push(20, 'b2');
    queue.push(50, 'late');
    const due: string[] = [];
    for (let next = queue.popDue(40); next; next = queue.popDue(40)) due.push(next.event);
    expect(due).toEqual(['a', 'b1', 'b2', 'c']);
    expect(queue.popDue(49)).toBeUndefined();
    expect(queue.popDue(50)?.event).toBe('late');
  });
});

describe('fault injector', () => {
  const config = (overrides: Record<string, unknown>) =>
    parseFaultConfig({ route: 'user', ...overrides }) as FaultConfig;

  test('the same seed gives the same decisions', () => {
    const decide = (seed: number) => {
      const faults = new FaultInjector();
      faults.set(config({ errorRate: 0.3, dropRate: 0.2, seed }));
      return Array.from({ length: 30 }, () => faults.decide('user').action);
    };
    expect(decide(5)).toEqual(decide(5));
    expect(decide(5)).not.toEqual(decide(6));
    expect(new Set(decide(5))).toEqual(new Set(['pass', 'error', 'drop']));
  });

  test('count stops affecting requests once used up; other routes are untouched', () => {
    const faults = new FaultInjector();
    faults.set(config({ errorRate: 1, count: 1 }));
    expect(faults.decide('search').action).toBe('pass');
    expect(faults.decide('user').action).toBe('error');
    expect(faults.decide('user').action).toBe('pass');
    expect(faults.list()[0]).toMatchObject({ remaining: 0, affected: 1 });
  });

  test('invalid configurations are explained', () => {
    expect(parseFaultConfig({ route: 'user', errorStatus: 418 })).toEqual(['errorStatus must be one of 429, 500, 503']);
    expect(parseFaultConfig('x')).toEqual(['body must be a JSON object']);
  });
});
