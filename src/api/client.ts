// The typed client of the research and company-data service: one method per operation of the
// interface and addendum, plus batch forms that send many calls through one fetchAll per round.
// Each operation is a small descriptor (operations.ts: request builder, response reader, idempotency); every
// method, single or batch, goes through the generic executor (executor.ts). Methods never throw:
// they return Result values. The API token only goes into the Authorization header of requests to
// the validated base URL and is scrubbed from every error the client returns.

import type { ClockPort, HttpPort } from '../ports';
import type { ApiError, Result } from './errors';
import { DEFAULT_MAX_PARALLEL, DEFAULT_RETRY_POLICY, execute, type Call, type RetryPolicy } from './executor';
import {
  createColumnsEndpoint,
  createTaskEndpoint,
  getTaskEndpoint,
  getUserEndpoint,
  listTasksEndpoint,
  lookupEndpoint,
  MAX_URL_LENGTH,
  replaceTemplateEndpoint,
  searchGetEndpoint,
  searchPostEndpoint,
  similarGetEndpoint,
  similarPostEndpoint,
  type Endpoint,
  type SimilarCall,
} from './operations';
import type * as Api from './types';
import type { AdaptiveThroughput } from './throughput';
import { validateBaseUrl } from './url';

export interface ServiceSettings {
  baseUrl: string;
  token: string | null;
}

export interface ServiceClientDeps {
  http: HttpPort;
  clock: ClockPort;
  /** The connection, or a function that reads it when the first call is made (a client that sends nothing reads none). */
  settings: ServiceSettings | (() => ServiceSettings);
  /** Source of jitter in [0, 1); Math.random by default. */
  random?: () => number;
  retry?: Partial<RetryPolicy>;
  /** Most requests per fetchAll without `throughput`; larger batches are sent in chunks (default 20). */
  maxParallel?: number;
  /** Sizes and paces the rounds of every call (the document's learned throughput); replaces `maxParallel`. */
  throughput?: AdaptiveThroughput;
}

export interface ServiceClient {
  /** How many calls a bulk caller should hand over at once: one round of the adaptive throughput. */
  batchSize(): number;
  /** `GET /v1/user`: the account and its available credits; also the token check. */
  getUser(): Result<Api.User>;
  /** `POST /v1/deep_research_tasks`. Retried only on 503; an `ambiguous` error means "check listTasks". */
  createTask(request: Api.CreateTaskRequest): Result<Api.ResearchTask>;
  createTasks(requests: Api.CreateTaskRequest[]): Result<Api.ResearchTask>[];
  /** `GET /v1/deep_research_tasks/{id}`; accepts a pasted `/tasks/<id>` URL. */
  getTask(taskIdOrUrl: string): Result<Api.ResearchTask>;
  getTasks(taskIdsOrUrls: string[]): Result<Api.ResearchTask>[];
  /** `GET /v1/deep_research_tasks?offset=&limit=`, newest first. */
  listTasks(query?: Api.ListTasksQuery): Result<Api.ResearchTask[]>;
  /** Several pages of the task list, sent together. */
  listTaskPages(queries: Api.ListTasksQuery[]): Result<Api.ResearchTask[]>[];
  /** `GET /v1/companies/{identifier}`: `ready` with the profile (200), or `enriching` (202). */
  lookupCompany(identifier: string): Result<Api.LookupOutcome>;
  lookupCompanies(identifiers: string[]): Result<Api.LookupOutcome>[];
  /** `POST /v1/companies/search` (preferred). */
  searchCompanies(request: Api.SearchRequest): Result<Api.SearchResponse>;
  /** Several POST searches at once, e.g. the pages of one query. */
  runSearches(requests: Api.SearchRequest[]): Result<Api.SearchResponse>[];
  /** `GET /v1/companies/search` (deprecated variant; filters travel as a JSON string). */
  searchCompaniesGet(request: Api.SearchRequest): Result<Api.SearchResponse>;
  /** `POST /v1/companies/{identifier}/similar` (preferred). */
  similarCompanies(companyIdentifier: string, request?: Api.SimilarRequest): Result<Api.SimilarResponse>;
  runSimilar(calls: SimilarCall[]): Result<Api.SimilarResponse>[];
  /** `GET /v1/companies/{identifier}/similar` (deprecated variant). */
  similarCompaniesGet(companyIdentifier: string, request?: Api.SimilarRequest): Result<Api.SimilarResponse>;
  /** `POST /v1/tables/{table_id}/columns`; accepts a pasted `/tables/<id>` URL. Not idempotent. */
  createColumns(tableIdOrUrl: string, request: Api.CreateColumnsRequest): Result<Api.ColumnRecord[]>;
  /** `PUT /v1/templates/{template_id}`. */
  replaceTemplate(templateId: string, request: Api.ReplaceTemplateRequest): Result<Api.Template>;
}

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
function checkSettings(
  settings: ServiceSettings,
): { ok: true; baseUrl: string; token: string } | { ok: false; error: ApiError } {
  const token = (settings.token ?? '').trim();
  if (token === '') return { ok: false, error: { kind: 'no_token' } };
  if (!TOKEN_PATTERN.test(token)) return { ok: false, error: { kind: 'unauthorized' } };
  const base = validateBaseUrl(settings.baseUrl);
  if (!base.ok) return { ok: false, error: { kind: 'bad_base_url', reason: base.reason } };
  return { ok: true, baseUrl: base.baseUrl, token };
}

export function createServiceClient(deps: ServiceClientDeps): ServiceClient {
  let checked: ReturnType<typeof checkSettings> | null = null;
  const connection = () =>
    (checked ??= checkSettings(typeof deps.settings === 'function' ? deps.settings() : deps.settings));
  const executorDeps = {
    http: deps.http,
    clock: deps.clock,
    random: deps.random ?? Math.random,
    policy: { ...DEFAULT_RETRY_POLICY, ...deps.retry },
    maxParallel: deps.maxParallel ?? DEFAULT_MAX_PARALLEL,
    throughput: deps.throughput,
  };

  function toCall<I, T>(endpoint: Endpoint<I, T>, input: I): Call<T> {
    const settings = connection();
    if (!settings.ok) return { refused: settings.error };
    const built = endpoint.build(input);
    if (!built.ok) return { refused: built.error };
    const { method, path, body } = built.spec;
    const url = settings.baseUrl + path;
    if (url.length > MAX_URL_LENGTH) {
      return { refused: { kind: 'invalid_input', reason: 'the request is too long for a URL; use the POST variant' } };
    }
    const headers: Record<string, string> = { Authorization: `Bearer ${settings.token}`, Accept: 'application/json' };
    if (body === undefined)
      return { request: { url, method, headers }, idempotent: endpoint.idempotent, read: endpoint.read };
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
    const results = execute(
      executorDeps,
      inputs.map((input) => toCall(endpoint, input)),
    );
    const settings = connection();
    return settings.ok
      ? results.map((result) => (result.ok ? result : { ...result, error: scrubSecret(result.error, settings.token) }))
      : results;
  }

  function runOne<I, T>(endpoint: Endpoint<I, T>, input: I): Result<T> {
    return run(endpoint, [input])[0];
  }

  return {
    batchSize: () => (deps.throughput ? deps.throughput.batchSize() : executorDeps.maxParallel),
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
    similarCompaniesGet: (companyIdentifier, input) =>
      runOne(similarGetEndpoint, { companyIdentifier, request: input }),
    createColumns: (tableIdOrUrl, body) => runOne(createColumnsEndpoint, { tableIdOrUrl, body }),
    replaceTemplate: (templateId, body) => runOne(replaceTemplateEndpoint, { templateId, body }),
  };
}
