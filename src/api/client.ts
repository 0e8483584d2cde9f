// The typed client of the research and company-data service: one method per operation of the
// interface and addendum, plus batch forms that send many calls through one fetchAll per round.
// Each endpoint is a small descriptor (request builder, response reader, idempotency); every
// method, single or batch, goes through the generic executor (executor.ts). Methods never throw:
// they return Result values. The API token only goes into the Authorization header of requests to
// the validated base URL and is scrubbed from every error the client returns.

import type { ClockPort, HttpPort, HttpRequest } from '../ports';
import type { ApiError, Result } from './errors';
import { DEFAULT_MAX_PARALLEL, DEFAULT_RETRY_POLICY, execute, type Call, type RetryPolicy } from './executor';
import {
  readColumnRecords,
  readLookup,
  readSearch,
  readSimilar,
  readTask,
  readTaskList,
  readTemplate,
  readUser,
  type Read,
} from './responses';
import type {
  ColumnRecord,
  CreateColumnsRequest,
  CreateTaskRequest,
  ListTasksQuery,
  LookupOutcome,
  Pagination,
  ReplaceTemplateRequest,
  ResearchTask,
  SearchFilters,
  SearchRequest,
  SearchResponse,
  SimilarRequest,
  SimilarResponse,
  Template,
  User,
} from './types';
import { encodePathSegment, idFromUrlOrId, validateBaseUrl, withQuery } from './url';

export interface ServiceSettings {
  baseUrl: string;
  token: string | null;
}

export interface ServiceClientDeps {
  http: HttpPort;
  clock: ClockPort;
  settings: ServiceSettings;
  /** Source of jitter in [0, 1); Math.random by default. */
  random?: () => number;
  retry?: Partial<RetryPolicy>;
  /** Most requests per fetchAll; larger batches are sent in chunks (default 20). */
  maxParallel?: number;
}

/** A lookalike search of one reference company (domain or UUID). */
export interface SimilarCall {
  companyIdentifier: string;
  request?: SimilarRequest;
}

export interface ServiceClient {
  /** `GET /v1/user`: the account and its available credits; also the token check. */
  getUser(): Result<User>;
  /** `POST /v1/deep_research_tasks`. Retried only on 503; an `ambiguous` error means "check listTasks". */
  createTask(request: CreateTaskRequest): Result<ResearchTask>;
  createTasks(requests: CreateTaskRequest[]): Result<ResearchTask>[];
  /** `GET /v1/deep_research_tasks/{id}`; accepts a pasted `/tasks/<id>` URL. */
  getTask(taskIdOrUrl: string): Result<ResearchTask>;
  getTasks(taskIdsOrUrls: string[]): Result<ResearchTask>[];
  /** `GET /v1/deep_research_tasks?offset=&limit=`, newest first. */
  listTasks(query?: ListTasksQuery): Result<ResearchTask[]>;
  /** Several pages of the task list, sent together. */
  listTaskPages(queries: ListTasksQuery[]): Result<ResearchTask[]>[];
  /** `GET /v1/companies/{identifier}`: `ready` with the profile (200), or `enriching` (202). */
  lookupCompany(identifier: string): Result<LookupOutcome>;
  lookupCompanies(identifiers: string[]): Result<LookupOutcome>[];
  /** `POST /v1/companies/search` (preferred). */
  searchCompanies(request: SearchRequest): Result<SearchResponse>;
  /** Several POST searches at once, e.g. the pages of one query. */
  runSearches(requests: SearchRequest[]): Result<SearchResponse>[];
  /** `GET /v1/companies/search` (deprecated variant; filters travel as a JSON string). */
  searchCompaniesGet(request: SearchRequest): Result<SearchResponse>;
  /** `POST /v1/companies/{identifier}/similar` (preferred). */
  similarCompanies(companyIdentifier: string, request?: SimilarRequest): Result<SimilarResponse>;
  runSimilar(calls: SimilarCall[]): Result<SimilarResponse>[];
  /** `GET /v1/companies/{identifier}/similar` (deprecated variant). */
  similarCompaniesGet(companyIdentifier: string, request?: SimilarRequest): Result<SimilarResponse>;
  /** `POST /v1/tables/{table_id}/columns`; accepts a pasted `/tables/<id>` URL. Not idempotent. */
  createColumns(tableIdOrUrl: string, request: CreateColumnsRequest): Result<ColumnRecord[]>;
  /** `PUT /v1/templates/{template_id}`. */
  replaceTemplate(templateId: string, request: ReplaceTemplateRequest): Result<Template>;
}

/** Apps Script refuses URLs longer than this (UrlFetchApp reference); checked before sending. */
const MAX_URL_LENGTH = 2082;

interface RequestSpec {
  method: HttpRequest['method'];
  path: string;
  body?: unknown;
}

type Built = { ok: true; spec: RequestSpec } | { ok: false; error: ApiError };

/** One operation: how to build its request from the input and read its answer. */
interface Endpoint<I, T> {
  idempotent: boolean;
  build(input: I): Built;
  read(status: number, body: unknown): Read<T>;
}

function refuse(reason: string): Built {
  return { ok: false, error: { kind: 'invalid_input', reason } };
}

function request(method: RequestSpec['method'], path: string, body?: unknown): Built {
  return { ok: true, spec: body === undefined ? { method, path } : { method, path, body } };
}

/** Drops undefined values, empty lists and empty groups; null when no filter is left. */
function pruneFilters(filters: SearchFilters | undefined): SearchFilters | null {
  if (!filters) return null;
  const pruneGroup = (group: Record<string, unknown> | undefined): Record<string, unknown> | null => {
    if (!group) return null;
    const kept = Object.keys(group)
      .filter((key) => {
        const value = group[key];
        return value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);
      })
      .map((key) => [key, group[key]] as const);
    return kept.length === 0 ? null : Object.fromEntries(kept);
  };
  const founded = pruneGroup(filters.range?.founded);
  const groups: Array<[string, Record<string, unknown> | null]> = [
    ['include', pruneGroup(filters.include)],
    ['exclude', pruneGroup(filters.exclude)],
    ['range', founded ? { founded } : null],
  ];
  const kept = groups.filter((entry): entry is [string, Record<string, unknown>] => entry[1] !== null);
  return kept.length === 0 ? null : (Object.fromEntries(kept) as SearchFilters);
}

function paginationBody(pagination: Pagination | undefined): Pagination | undefined {
  if (!pagination || (pagination.offset === undefined && pagination.limit === undefined)) return undefined;
  return { offset: pagination.offset, limit: pagination.limit };
}

/** Body of the POST search and lookalike variants: only the fields the interface defines. */
function searchBody(filters: SearchFilters | undefined, pagination: Pagination | undefined): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const prunedFilters = pruneFilters(filters);
  if (prunedFilters) body.filters = prunedFilters;
  const page = paginationBody(pagination);
  if (page) body.pagination = page;
  return body;
}

/** Query of the GET search and lookalike variants: `filters` as a JSON string, `offset`, `limit`. */
function searchQuery(filters: SearchFilters | undefined, pagination: Pagination | undefined): Array<[string, string | number | undefined]> {
  const prunedFilters = pruneFilters(filters);
  return [
    ['filters', prunedFilters ? JSON.stringify(prunedFilters) : undefined],
    ['offset', pagination?.offset],
    ['limit', pagination?.limit],
  ];
}

function companyPath(identifier: string, suffix = ''): string | null {
  const segment = encodePathSegment(identifier);
  return segment === null ? null : `/v1/companies/${segment}${suffix}`;
}

const getUserEndpoint: Endpoint<void, User> = {
  idempotent: true,
  build: () => request('get', '/v1/user'),
  read: (_status, body) => readUser(body),
};

const createTaskEndpoint: Endpoint<CreateTaskRequest, ResearchTask> = {
  idempotent: false,
  build: (input) =>
    request('post', '/v1/deep_research_tasks', {
      brief: input.brief,
      depth: input.depth,
      output_schema: input.output_schema,
    }),
  read: (_status, body) => readTask(body),
};

const getTaskEndpoint: Endpoint<string, ResearchTask> = {
  idempotent: true,
  build: (taskIdOrUrl) => {
    const id = idFromUrlOrId('task', taskIdOrUrl);
    const segment = id === null ? null : encodePathSegment(id);
    return segment === null ? refuse('missing or unreadable task ID') : request('get', `/v1/deep_research_tasks/${segment}`);
  },
  read: (_status, body) => readTask(body),
};

const listTasksEndpoint: Endpoint<ListTasksQuery, ResearchTask[]> = {
  idempotent: true,
  build: (query) =>
    request(
      'get',
      withQuery('/v1/deep_research_tasks', [
        ['offset', query.offset],
        ['limit', query.limit],
      ]),
    ),
  read: (_status, body) => readTaskList(body),
};

const lookupEndpoint: Endpoint<string, LookupOutcome> = {
  idempotent: true,
  build: (identifier) => {
    const path = companyPath(identifier);
    return path === null ? refuse('missing company domain or ID') : request('get', path);
  },
  read: readLookup,
};

const searchPostEndpoint: Endpoint<SearchRequest, SearchResponse> = {
  idempotent: true,
  build: (input) => request('post', '/v1/companies/search', { q: input.q, ...searchBody(input.filters, input.pagination) }),
  read: (_status, body) => readSearch(body),
};

const searchGetEndpoint: Endpoint<SearchRequest, SearchResponse> = {
  idempotent: true,
  build: (input) =>
    request('get', withQuery('/v1/companies/search', [['q', input.q], ...searchQuery(input.filters, input.pagination)])),
  read: (_status, body) => readSearch(body),
};

const similarPostEndpoint: Endpoint<SimilarCall, SimilarResponse> = {
  idempotent: true,
  build: ({ companyIdentifier, request: input }) => {
    const path = companyPath(companyIdentifier, '/similar');
    return path === null
      ? refuse('missing reference company domain or ID')
      : request('post', path, searchBody(input?.filters, input?.pagination));
  },
  read: (_status, body) => readSimilar(body),
};

const similarGetEndpoint: Endpoint<SimilarCall, SimilarResponse> = {
  idempotent: true,
  build: ({ companyIdentifier, request: input }) => {
    const path = companyPath(companyIdentifier, '/similar');
    return path === null
      ? refuse('missing reference company domain or ID')
      : request('get', withQuery(path, searchQuery(input?.filters, input?.pagination)));
  },
  read: (_status, body) => readSimilar(body),
};

const createColumnsEndpoint: Endpoint<{ tableIdOrUrl: string; body: CreateColumnsRequest }, ColumnRecord[]> = {
  idempotent: false,
  build: ({ tableIdOrUrl, body }) => {
    const id = idFromUrlOrId('table', tableIdOrUrl);
    const segment = id === null ? null : encodePathSegment(id);
    return segment === null
      ? refuse('missing or unreadable table ID')
      : request('post', `/v1/tables/${segment}/columns`, {
          column_configs: body.column_configs,
          insert_after: body.insert_after,
        });
  },
  read: (_status, body) => readColumnRecords(body),
};

const replaceTemplateEndpoint: Endpoint<{ templateId: string; body: ReplaceTemplateRequest }, Template> = {
  idempotent: true,
  build: ({ templateId, body }) => {
    const segment = encodePathSegment(templateId);
    return segment === null
      ? refuse('missing template ID')
      : request('put', `/v1/templates/${segment}`, { name: body.name, column_configs: body.column_configs });
  },
  read: (_status, body) => readTemplate(body),
};

const REDACTED = '[redacted]';

/** Returns a copy of `value` with every occurrence of `secret` in its strings replaced. */
function scrubSecret<T>(value: T, secret: string): T {
  if (typeof value === 'string') return value.split(secret).join(REDACTED) as unknown as T;
  if (Array.isArray(value)) return value.map((item) => scrubSecret(item, secret)) as unknown as T;
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) copy[key] = scrubSecret((value as Record<string, unknown>)[key], secret);
    return copy as T;
  }
  return value;
}

/** Visible ASCII only: a token with spaces or control characters could not be a header value. */
const TOKEN_PATTERN = /^[\x21-\x7E]+$/;

/** Checks the settings once: a usable base URL and token, or the error every call will return. */
function checkSettings(settings: ServiceSettings): { ok: true; baseUrl: string; token: string } | { ok: false; error: ApiError } {
  const token = (settings.token ?? '').trim();
  if (token === '') return { ok: false, error: { kind: 'no_token' } };
  if (!TOKEN_PATTERN.test(token)) return { ok: false, error: { kind: 'unauthorized' } };
  const base = validateBaseUrl(settings.baseUrl);
  if (!base.ok) return { ok: false, error: { kind: 'bad_base_url', reason: base.reason } };
  return { ok: true, baseUrl: base.baseUrl, token };
}

export function createServiceClient(deps: ServiceClientDeps): ServiceClient {
  const settings = checkSettings(deps.settings);
  const executorDeps = {
    http: deps.http,
    clock: deps.clock,
    random: deps.random ?? Math.random,
    policy: { ...DEFAULT_RETRY_POLICY, ...deps.retry },
    maxParallel: deps.maxParallel ?? DEFAULT_MAX_PARALLEL,
  };

  function toCall<I, T>(endpoint: Endpoint<I, T>, input: I): Call<T> {
    if (!settings.ok) return { refused: settings.error };
    const built = endpoint.build(input);
    if (!built.ok) return { refused: built.error };
    const { method, path, body } = built.spec;
    const url = settings.baseUrl + path;
    if (url.length > MAX_URL_LENGTH) {
      return { refused: { kind: 'invalid_input', reason: 'the request is too long for a URL; use the POST variant' } };
    }
    const headers: Record<string, string> = { Authorization: `Bearer ${settings.token}`, Accept: 'application/json' };
    if (body === undefined) return { request: { url, method, headers }, idempotent: endpoint.idempotent, read: endpoint.read };
    let payload: string;
    try {
      payload = JSON.stringify(body);
    } catch {
      return { refused: { kind: 'invalid_input', reason: 'the request body cannot be encoded as JSON' } };
    }
    headers['Content-Type'] = 'application/json';
    return { request: { url, method, headers, payload }, idempotent: endpoint.idempotent, read: endpoint.read };
  }

  function run<I, T>(endpoint: Endpoint<I, T>, inputs: I[]): Result<T>[] {
    const results = execute(executorDeps, inputs.map((input) => toCall(endpoint, input)));
    return settings.ok
      ? results.map((result) => (result.ok ? result : { ...result, error: scrubSecret(result.error, settings.token) }))
      : results;
  }

  function runOne<I, T>(endpoint: Endpoint<I, T>, input: I): Result<T> {
    return run(endpoint, [input])[0];
  }

  return {
    getUser: () => runOne(getUserEndpoint, undefined),
    createTask: (input) => runOne(createTaskEndpoint, input),
    createTasks: (inputs) => run(createTaskEndpoint, inputs),
    getTask: (taskIdOrUrl) => runOne(getTaskEndpoint, taskIdOrUrl),
    getTasks: (taskIdsOrUrls) => run(getTaskEndpoint, taskIdsOrUrls),
    listTasks: (query = {}) => runOne(listTasksEndpoint, query),
    listTaskPages: (queries) => run(listTasksEndpoint, queries),
    lookupCompany: (identifier) => runOne(lookupEndpoint, identifier),
    lookupCompanies: (identifiers) => run(lookupEndpoint, identifiers),
    searchCompanies: (input) => runOne(searchPostEndpoint, input),
    runSearches: (inputs) => run(searchPostEndpoint, inputs),
    searchCompaniesGet: (input) => runOne(searchGetEndpoint, input),
    similarCompanies: (companyIdentifier, input) => runOne(similarPostEndpoint, { companyIdentifier, request: input }),
    runSimilar: (calls) => run(similarPostEndpoint, calls),
    similarCompaniesGet: (companyIdentifier, input) => runOne(similarGetEndpoint, { companyIdentifier, request: input }),
    createColumns: (tableIdOrUrl, body) => runOne(createColumnsEndpoint, { tableIdOrUrl, body }),
    replaceTemplate: (templateId, body) => runOne(replaceTemplateEndpoint, { templateId, body }),
  };
}
