// One descriptor per operation of the service (interface and addendum): how its request is built from the caller's
// input (path, query, body, refusals of input the service would reject) and how its answer is read. The client
// (client.ts) runs them through the executor; nothing here sends anything.
import type { HttpRequest } from '../ports';
import type { ApiError } from './errors';
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
import { encodePathSegment, idFromUrlOrId, withQuery } from './url';

/** Apps Script refuses URLs longer than this (UrlFetchApp reference); checked before sending. */
export const MAX_URL_LENGTH = 2082;

export interface RequestSpec {
  method: HttpRequest['method'];
  path: string;
  body?: unknown;
}

type Built = { ok: true; spec: RequestSpec } | { ok: false; error: ApiError };

/** One operation: how to build its request from the input and read its answer. */
export interface Endpoint<I, T> {
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
function searchQuery(
  filters: SearchFilters | undefined,
  pagination: Pagination | undefined,
): Array<[string, string | number | undefined]> {
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

export const getUserEndpoint: Endpoint<void, User> = {
  idempotent: true,
  build: () => request('get', '/v1/user'),
  read: (_status, body) => readUser(body),
};

export const createTaskEndpoint: Endpoint<CreateTaskRequest, ResearchTask> = {
  idempotent: false,
  build: (input) =>
    request('post', '/v1/deep_research_tasks', {
      brief: input.brief,
      depth: input.depth,
      output_schema: input.output_schema,
    }),
  read: (_status, body) => readTask(body),
};

export const getTaskEndpoint: Endpoint<string, ResearchTask> = {
  idempotent: true,
  build: (taskIdOrUrl) => {
    const id = idFromUrlOrId('task', taskIdOrUrl);
    const segment = id === null ? null : encodePathSegment(id);
    return segment === null
      ? refuse('missing or unreadable task ID')
      : request('get', `/v1/deep_research_tasks/${segment}`);
  },
  read: (_status, body) => readTask(body),
};

export const listTasksEndpoint: Endpoint<ListTasksQuery, ResearchTask[]> = {
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

export const lookupEndpoint: Endpoint<string, LookupOutcome> = {
  idempotent: true,
  build: (identifier) => {
    const path = companyPath(identifier);
    return path === null ? refuse('missing company domain or ID') : request('get', path);
  },
  read: readLookup,
};

export const searchPostEndpoint: Endpoint<SearchRequest, SearchResponse> = {
  idempotent: true,
  build: (input) =>
    request('post', '/v1/companies/search', { q: input.q, ...searchBody(input.filters, input.pagination) }),
  read: (_status, body) => readSearch(body),
};

export const searchGetEndpoint: Endpoint<SearchRequest, SearchResponse> = {
  idempotent: true,
  build: (input) =>
    request(
      'get',
      withQuery('/v1/companies/search', [['q', input.q], ...searchQuery(input.filters, input.pagination)]),
    ),
  read: (_status, body) => readSearch(body),
};

/** A lookalike search of one reference company (domain or UUID). */
export interface SimilarCall {
  companyIdentifier: string;
  request?: SimilarRequest;
}

export const similarPostEndpoint: Endpoint<SimilarCall, SimilarResponse> = {
  idempotent: true,
  build: ({ companyIdentifier, request: input }) => {
    const path = companyPath(companyIdentifier, '/similar');
    return path === null
      ? refuse('missing reference company domain or ID')
      : request('post', path, searchBody(input?.filters, input?.pagination));
  },
  read: (_status, body) => readSimilar(body),
};

export const similarGetEndpoint: Endpoint<SimilarCall, SimilarResponse> = {
  idempotent: true,
  build: ({ companyIdentifier, request: input }) => {
    const path = companyPath(companyIdentifier, '/similar');
    return path === null
      ? refuse('missing reference company domain or ID')
      : request('get', withQuery(path, searchQuery(input?.filters, input?.pagination)));
  },
  read: (_status, body) => readSimilar(body),
};

export const createColumnsEndpoint: Endpoint<{ tableIdOrUrl: string; body: CreateColumnsRequest }, ColumnRecord[]> = {
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

export const replaceTemplateEndpoint: Endpoint<{ templateId: string; body: ReplaceTemplateRequest }, Template> = {
  idempotent: true,
  build: ({ templateId, body }) => {
    const segment = encodePathSegment(templateId);
    return segment === null
      ? refuse('missing template ID')
      : request('put', `/v1/templates/${segment}`, { name: body.name, column_configs: body.column_configs });
  },
  read: (_status, body) => readTemplate(body),
};
