// The /v1 service endpoints: user, research tasks (create with validation, plan and credit checks; get; list),
// company lookup, semantic and lookalike search (GET and POST variants sharing one implementation), table
// columns, templates and their read-backs. Each route has the name used by stats and fault injection.
import type { Account } from '../accounts';
import { userObject } from '../accounts';
import { companyObject, companyProfile, type Company } from '../companies/company-index';
import type { RankedCompany } from '../companies/company-search';
import { parseFilters, parseFiltersQuery, filterPredicate, type SearchFilters } from '../companies/filters';
import { HttpError, type JsonResponse } from './http-util';
import { checkOutputSchema } from '../research/output-schema';
import { DEPTH_BUDGET, type Depth } from '../research/research-planner';
import type { Sandbox } from '../sandbox';
import {
  checkColumnConfigList,
  checkColumnReferences,
  checkInsertAfter,
  tableObject,
  templateObject,
  type ColumnConfig,
  type InsertAfter,
} from '../tables';
import { CREDITS_PER_AGENT, taskObject } from '../research/tasks';
import {
  checkInteger,
  checkString,
  issue,
  isPlainObject,
  missing,
  parseQueryInteger,
  ValidationFailure,
  type ValidationIssue,
} from './validation';

export const MAX_BRIEF_LENGTH = 20000;
export const MAX_PAGE_SIZE = 250;
export const DEFAULT_PAGE_SIZE = 25;
export const SEARCH_DEPTH: Record<Account['plan'], number> = { pro: 2000, free: 25 };
export const DEFAULT_TASK_PAGE = 50;
export const MAX_TASK_PAGE = 100;
const DEPTHS: Depth[] = ['medium', 'high', 'xhigh'];
export const BILLING_URL = 'https://app.sandbox.example.com/settings/billing';

export interface ServiceRequest {
  account: Account;
  params: string[];
  query: URLSearchParams;
  body: unknown;
  now: number;
}

export interface ServiceRoute {
  name: string;
  method: string;
  pattern: RegExp;
  handle(request: ServiceRequest): JsonResponse;
}

function ok(body: unknown, status = 200): JsonResponse {
  return { status, body };
}

function failIfAny(issues: ValidationIssue[]): void {
  if (issues.length > 0) throw new ValidationFailure(issues);
}

function requireBodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined) throw new ValidationFailure([missing(['body'])]);
  if (!isPlainObject(body))
    throw new ValidationFailure([
      issue(['body'], 'Input should be a valid dictionary or object to extract fields from', 'model_attributes_type'),
    ]);
  return body;
}

/** The last value of a query parameter (FastAPI's behaviour for scalar parameters). */
function queryValue(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name);
  return values.length > 0 ? values[values.length - 1] : undefined;
}

interface Page {
  offset: number;
  limit: number;
}

function queryPage(query: URLSearchParams, issues: ValidationIssue[], defaultLimit: number, maxLimit: number): Page {
  const rawOffset = queryValue(query, 'offset');
  const rawLimit = queryValue(query, 'limit');
  const offset = rawOffset === undefined ? 0 : parseQueryInteger(rawOffset, ['query', 'offset'], { min: 0 }, issues);
  const limit =
    rawLimit === undefined
      ? defaultLimit
      : parseQueryInteger(rawLimit, ['query', 'limit'], { min: 1, max: maxLimit }, issues);
  return { offset: offset ?? 0, limit: limit ?? defaultLimit };
}

function bodyPage(raw: unknown, issues: ValidationIssue[]): Page {
  if (raw === undefined || raw === null) return { offset: 0, limit: DEFAULT_PAGE_SIZE };
  if (!isPlainObject(raw)) {
    issues.push(
      issue(
        ['body', 'pagination'],
        'Input should be a valid dictionary or object to extract fields from',
        'model_attributes_type',
      ),
    );
    return { offset: 0, limit: DEFAULT_PAGE_SIZE };
  }
  const offset =
    raw.offset === undefined ? 0 : checkInteger(raw.offset, ['body', 'pagination', 'offset'], { min: 0 }, issues);
  const limit =
    raw.limit === undefined
      ? DEFAULT_PAGE_SIZE
      : checkInteger(raw.limit, ['body', 'pagination', 'limit'], { min: 1, max: MAX_PAGE_SIZE }, issues);
  return { offset: offset ?? 0, limit: limit ?? DEFAULT_PAGE_SIZE };
}

/** One page of ranked companies after filters, cut at the plan's search depth (paging beyond it returns nothing). */
function pageOf(
  sandbox: Sandbox,
  ranked: RankedCompany[],
  filters: SearchFilters,
  page: Page,
  account: Account,
  now: number,
): Record<string, unknown>[] {
  const end = Math.min(page.offset + page.limit, SEARCH_DEPTH[account.plan]);
  const matches = filterPredicate(filters);
  const results: Record<string, unknown>[] = [];
  let position = 0;
  for (const hit of ranked) {
    if (position >= end) break;
    if (!sandbox.index.isAvailable(hit.company, now) || !matches(hit.company)) continue;
    if (position >= page.offset) results.push({ ...companyObject(hit.company), relevance_score: hit.score });
    position += 1;
  }
  return results;
}

function searchResponse(
  sandbox: Sandbox,
  request: ServiceRequest,
  q: string,
  filters: SearchFilters,
  page: Page,
): JsonResponse {
  const ranked = sandbox.ranking.search(q);
  return ok({
    results: pageOf(sandbox, ranked, filters, page, request.account, request.now),
    request: { offset: page.offset, limit: page.limit, query: q, filters },
  });
}

function similarResponse(sandbox: Sandbox, request: ServiceRequest, filters: SearchFilters, page: Page): JsonResponse {
  const reference: Company | undefined = sandbox.index.findAvailable(request.params[0], request.now);
  if (!reference) throw new HttpError(404, 'Reference company not found in the index');
  return ok({
    results: pageOf(sandbox, sandbox.ranking.similar(reference), filters, page, request.account, request.now),
    request: { offset: page.offset, limit: page.limit, query: null, filters },
    reference_company: companyObject(reference),
  });
}

function createTask(sandbox: Sandbox, request: ServiceRequest): JsonResponse {
  const body = requireBodyObject(request.body);
  const issues: ValidationIssue[] = [];
  let brief: string | undefined;
  if (!('brief' in body)) issues.push(missing(['body', 'brief']));
  else {
    brief = checkString(body.brief, ['body', 'brief'], 1, issues);
    if (brief !== undefined && [...brief].length > MAX_BRIEF_LENGTH) {
      issues.push(
        issue(['body', 'brief'], `String should have at most ${MAX_BRIEF_LENGTH} characters`, 'string_too_long'),
      );
    }
  }
  let depth: Depth = 'medium';
  if ('depth' in body) {
    if (typeof body.depth === 'string' && (DEPTHS as string[]).includes(body.depth)) depth = body.depth as Depth;
    else issues.push(issue(['body', 'depth'], "Input should be 'medium', 'high' or 'xhigh'", 'enum'));
  }
  const outputSchema = body.output_schema === undefined || body.output_schema === null ? null : body.output_schema;
  if (outputSchema !== null) issues.push(...checkOutputSchema(outputSchema, ['body', 'output_schema']));
  failIfAny(issues);
  const account = request.account;
  if (account.plan !== 'pro') {
    throw new HttpError(402, {
      error: 'plan_required',
      action: `Upgrade to the Pro plan to create research tasks: ${BILLING_URL}`,
    });
  }
  const required = DEPTH_BUDGET[depth] * CREDITS_PER_AGENT;
  if (account.credits < required) {
    const fitting = DEPTHS.filter((candidate) => DEPTH_BUDGET[candidate] * CREDITS_PER_AGENT <= account.credits);
    throw new HttpError(402, {
      error: 'insufficient_credits',
      action:
        fitting.length > 0
          ? `Choose a lower depth (${fitting.join(' or ')} fits your ${account.credits} credits) or buy credits: ${BILLING_URL}`
          : `Buy credits to create research tasks: ${BILLING_URL}`,
      required_credits: required,
      available_credits: account.credits,
    });
  }
  const task = sandbox.tasks.create(
    account,
    brief as string,
    depth,
    outputSchema as Record<string, unknown> | null,
    request.now,
  );
  return ok(taskObject(task));
}

function addColumns(sandbox: Sandbox, request: ServiceRequest): JsonResponse {
  const body = requireBodyObject(request.body);
  const issues: ValidationIssue[] = [];
  const configs = checkColumnConfigList(body.column_configs, ['body', 'column_configs'], issues);
  const insertAfter = checkInsertAfter(body.insert_after, issues);
  failIfAny(issues);
  const table = sandbox.tables.table(request.params[0], request.account.workspaceId);
  if (!table) throw new HttpError(404, 'Table not found');
  const valid = configs as ColumnConfig[];
  failIfAny(
    checkColumnReferences(
      valid,
      table.columns.map((column) => column.config.key),
      ['body', 'column_configs'],
    ),
  );
  return ok(sandbox.tables.addColumns(table, valid, insertAfter as InsertAfter, new Date(request.now).toISOString()));
}

function replaceTemplate(sandbox: Sandbox, request: ServiceRequest): JsonResponse {
  const body = requireBodyObject(request.body);
  const issues: ValidationIssue[] = [];
  let name: string | null = null;
  if (body.name !== undefined && body.name !== null) name = checkString(body.name, ['body', 'name'], 1, issues) ?? null;
  const configs = checkColumnConfigList(body.column_configs, ['body', 'column_configs'], issues);
  failIfAny(issues);
  const template = sandbox.tables.template(request.params[0], request.account.workspaceId);
  if (!template) throw new HttpError(404, 'Template not found');
  const valid = configs as ColumnConfig[];
  failIfAny(checkColumnReferences(valid, [], ['body', 'column_configs']));
  sandbox.tables.replaceTemplate(template, name, valid);
  return ok(templateObject(template));
}

const SEGMENT = '([^/]+)';

export function serviceRoutes(sandbox: Sandbox): ServiceRoute[] {
  return [
    { name: 'user', method: 'GET', pattern: /^\/v1\/user$/, handle: (request) => ok(userObject(request.account)) },
    {
      name: 'tasks.create',
      method: 'POST',
      pattern: /^\/v1\/deep_research_tasks$/,
      handle: (request) => createTask(sandbox, request),
    },
    {
      name: 'tasks.list',
      method: 'GET',
      pattern: /^\/v1\/deep_research_tasks$/,
      handle: (request) => {
        const issues: ValidationIssue[] = [];
        const page = queryPage(request.query, issues, DEFAULT_TASK_PAGE, MAX_TASK_PAGE);
        failIfAny(issues);
        return ok(sandbox.tasks.listVisible(request.account, page.offset, page.limit).map(taskObject));
      },
    },
    {
      name: 'tasks.get',
      method: 'GET',
      pattern: new RegExp(`^/v1/deep_research_tasks/${SEGMENT}$`),
      handle: (request) => {
        const task = sandbox.tasks.get(request.params[0]);
        if (!task) throw new HttpError(404, 'Task not found');
        if (!sandbox.tasks.canRead(request.account, task))
          throw new HttpError(403, 'This task belongs to a user outside your organization');
        return ok(taskObject(task));
      },
    },
    {
      name: 'search',
      method: 'GET',
      pattern: /^\/v1\/companies\/search$/,
      handle: (request) => {
        const issues: ValidationIssue[] = [];
        const q = queryValue(request.query, 'q');
        if (q === undefined) issues.push(missing(['query', 'q']));
        else if (q.trim() === '')
          issues.push(issue(['query', 'q'], 'String should have at least 1 non-blank character', 'string_too_short'));
        const { filters, issues: filterIssues } = parseFiltersQuery(queryValue(request.query, 'filters'));
        issues.push(...filterIssues);
        const page = queryPage(request.query, issues, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
        failIfAny(issues);
        return searchResponse(sandbox, request, q as string, filters, page);
      },
    },
    {
      name: 'search',
      method: 'POST',
      pattern: /^\/v1\/companies\/search$/,
      handle: (request) => {
        const body = requireBodyObject(request.body);
        const issues: ValidationIssue[] = [];
        let q: string | undefined;
        if (!('q' in body)) issues.push(missing(['body', 'q']));
        else {
          q = checkString(body.q, ['body', 'q'], 1, issues);
          if (q !== undefined && q.trim() === '')
            issues.push(issue(['body', 'q'], 'String should have at least 1 non-blank character', 'string_too_short'));
        }
        const { filters, issues: filterIssues } = parseFilters(body.filters, ['body', 'filters']);
        issues.push(...filterIssues);
        const page = bodyPage(body.pagination, issues);
        failIfAny(issues);
        return searchResponse(sandbox, request, q as string, filters, page);
      },
    },
    {
      name: 'similar',
      method: 'GET',
      pattern: new RegExp(`^/v1/companies/${SEGMENT}/similar$`),
      handle: (request) => {
        const issues: ValidationIssue[] = [];
        const { filters, issues: filterIssues } = parseFiltersQuery(queryValue(request.query, 'filters'));
        issues.push(...filterIssues);
        const page = queryPage(request.query, issues, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
        failIfAny(issues);
        return similarResponse(sandbox, request, filters, page);
      },
    },
    {
      name: 'similar',
      method: 'POST',
      pattern: new RegExp(`^/v1/companies/${SEGMENT}/similar$`),
      handle: (request) => {
        const body = request.body === undefined ? {} : requireBodyObject(request.body);
        const issues: ValidationIssue[] = [];
        const { filters, issues: filterIssues } = parseFilters(body.filters, ['body', 'filters']);
        issues.push(...filterIssues);
        const page = bodyPage(body.pagination, issues);
        failIfAny(issues);
        return similarResponse(sandbox, request, filters, page);
      },
    },
    {
      name: 'lookup',
      method: 'GET',
      pattern: new RegExp(`^/v1/companies/${SEGMENT}$`),
      handle: (request) => {
        const outcome = sandbox.index.lookup(request.params[0], request.now);
        if (outcome.kind === 'profile') return ok(companyProfile(outcome.company));
        if (outcome.kind === 'enriching') {
          return ok(
            {
              status: 'enriching',
              domain: outcome.domain,
              message: 'Enrichment of this domain has started; retry the same lookup in a few seconds.',
            },
            202,
          );
        }
        throw new HttpError(404, 'Company profile not found');
      },
    },
    {
      name: 'columns',
      method: 'POST',
      pattern: new RegExp(`^/v1/tables/${SEGMENT}/columns$`),
      handle: (request) => addColumns(sandbox, request),
    },
    {
      name: 'tables.get',
      method: 'GET',
      pattern: new RegExp(`^/v1/tables/${SEGMENT}$`),
      handle: (request) => {
        const table = sandbox.tables.table(request.params[0], request.account.workspaceId);
        if (!table) throw new HttpError(404, 'Table not found');
        return ok(tableObject(table));
      },
    },
    {
      name: 'templates',
      method: 'PUT',
      pattern: new RegExp(`^/v1/templates/${SEGMENT}$`),
      handle: (request) => replaceTemplate(sandbox, request),
    },
    {
      name: 'templates.get',
      method: 'GET',
      pattern: new RegExp(`^/v1/templates/${SEGMENT}$`),
      handle: (request) => {
        const template = sandbox.tables.template(request.params[0], request.account.workspaceId);
        if (!template) throw new HttpError(404, 'Template not found');
        return ok(templateObject(template));
      },
    },
  ];
}
