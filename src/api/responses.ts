// Checks and normalisation of parsed response bodies: each reader confirms the fields callers rely
// on (identifiers, status enums, arrays) are there with the right JSON type, fills the defaults the
// interface gives (report `kind`, empty `degradation_reasons`) and otherwise passes the body through
// unchanged. A body that fails a check becomes a `bad_response` error, never a crash downstream.

import type {
  ColumnConfig,
  ColumnRecord,
  CompanyProfile,
  CompanySearchResult,
  LookupOutcome,
  PaymentRequiredDetail,
  ResearchTask,
  SearchResponse,
  SearchRequestEcho,
  SimilarResponse,
  TaskReport,
  Template,
  User,
  ValidationIssue,
} from './types';

export type Read<T> = { ok: true; value: T } | { ok: false; reason: string };

type JsonObject = Record<string, unknown>;

const TASK_STATUSES = ['created', 'in_progress', 'done', 'failed'];
const TASK_DEPTHS = ['medium', 'high', 'xhigh'];

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function fail<T>(reason: string): Read<T> {
  return { ok: false, reason };
}

/** Returns the name of the first listed field that is not a string, or null when all are. */
function missingString(body: JsonObject, fields: string[]): string | null {
  return fields.find((field) => typeof body[field] !== 'string') ?? null;
}

function missingNumber(body: JsonObject, fields: string[]): string | null {
  return fields.find((field) => typeof body[field] !== 'number') ?? null;
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function readReport(value: unknown): Read<TaskReport | null> {
  if (value === null || value === undefined) return { ok: true, value: null };
  if (!isObject(value)) return fail('report is not an object');
  const degradationReasons = stringArray(value.degradation_reasons);
  const kind =
    value.kind ?? (typeof value.markdown === 'string' ? 'markdown' : isObject(value.fields) ? 'schema' : null);
  if (kind === 'markdown') {
    if (typeof value.markdown !== 'string' || !Array.isArray(value.sources)) {
      return fail('markdown report without markdown or sources');
    }
    return {
      ok: true,
      value: {
        ...value,
        kind,
        markdown: value.markdown,
        sources: value.sources,
        degradation_reasons: degradationReasons,
      },
    } as Read<TaskReport>;
  }
  if (kind === 'schema') {
    if (!isObject(value.fields)) return fail('schema report without fields');
    return {
      ok: true,
      value: { ...value, kind, fields: value.fields, degradation_reasons: degradationReasons },
    } as Read<TaskReport>;
  }
  return fail(`unknown report kind ${String(kind)}`);
}

export function readTask(body: unknown): Read<ResearchTask> {
  if (!isObject(body)) return fail('task is not an object');
  const badString = missingString(body, ['id', 'created_at', 'updated_at', 'brief']);
  if (badString) return fail(`task field ${badString} is missing or not a string`);
  const badNumber = missingNumber(body, ['iterations', 'agents', 'sources']);
  if (badNumber) return fail(`task field ${badNumber} is missing or not a number`);
  if (!TASK_STATUSES.includes(String(body.status))) return fail(`unknown task status ${String(body.status)}`);
  if (!TASK_DEPTHS.includes(String(body.depth))) return fail(`unknown task depth ${String(body.depth)}`);
  if (!isObject(body.owner) || missingString(body.owner, ['id', 'email'])) return fail('task owner is missing');
  const report = readReport(body.report);
  if (!report.ok) return report;
  return { ok: true, value: { ...body, report: report.value } as unknown as ResearchTask };
}

export function readTaskList(body: unknown): Read<ResearchTask[]> {
  if (!Array.isArray(body)) return fail('task list is not an array');
  const tasks: ResearchTask[] = [];
  for (const item of body) {
    const task = readTask(item);
    if (!task.ok) return task;
    tasks.push(task.value);
  }
  return { ok: true, value: tasks };
}

export function readUser(body: unknown): Read<User> {
  if (!isObject(body)) return fail('user is not an object');
  const badString = missingString(body, ['user_id', 'email']);
  if (badString) return fail(`user field ${badString} is missing or not a string`);
  if (typeof body.available_credits !== 'number') return fail('user field available_credits is not a number');
  const optionalText = (field: string): string | null =>
    typeof body[field] === 'string' ? (body[field] as string) : null;
  return {
    ok: true,
    value: {
      ...body,
      user_id: body.user_id as string,
      email: body.email as string,
      available_credits: body.available_credits,
      organization_id: optionalText('organization_id'),
      organization_name: optionalText('organization_name'),
      organization_slug: optionalText('organization_slug'),
    },
  };
}

function readCompanyProfile(body: unknown): Read<CompanyProfile> {
  if (!isObject(body)) return fail('company profile is not an object');
  const badString = missingString(body, ['id', 'domain']);
  if (badString) return fail(`company profile field ${badString} is missing or not a string`);
  return {
    ok: true,
    value: {
      ...body,
      id: body.id as string,
      domain: body.domain as string,
      company_name: typeof body.company_name === 'string' ? body.company_name : '',
      context: isObject(body.context) ? body.context : {},
    },
  };
}

/** Reads a lookup answer: 200 carries the profile; 202 means enrichment started (body optional). */
export function readLookup(status: number, body: unknown): Read<LookupOutcome> {
  if (status === 202) {
    const accepted = isObject(body) ? body : {};
    return {
      ok: true,
      value: {
        state: 'enriching',
        domain: typeof accepted.domain === 'string' ? accepted.domain : null,
        message: typeof accepted.message === 'string' ? accepted.message : null,
      },
    };
  }
  const profile = readCompanyProfile(body);
  return profile.ok ? { ok: true, value: { state: 'ready', profile: profile.value } } : profile;
}

function readCandidate(value: unknown): Read<CompanySearchResult> {
  if (!isObject(value) || missingString(value, ['id', 'domain'])) return fail('search result without id or domain');
  return { ok: true, value: value as unknown as CompanySearchResult };
}

export function readSearch(body: unknown): Read<SearchResponse> {
  if (!isObject(body) || !Array.isArray(body.results)) return fail('search response without results');
  const results: CompanySearchResult[] = [];
  for (const item of body.results) {
    const candidate = readCandidate(item);
    if (!candidate.ok) return candidate;
    results.push(candidate.value);
  }
  const request: SearchRequestEcho = isObject(body.request) ? body.request : {};
  return { ok: true, value: { ...body, results, request } };
}

export function readSimilar(body: unknown): Read<SimilarResponse> {
  const search = readSearch(body);
  if (!search.ok) return search;
  const reference = isObject(body) ? body.reference_company : undefined;
  if (reference === undefined || reference === null)
    return { ok: true, value: { ...search.value, reference_company: null } };
  const candidate = readCandidate(reference);
  if (!candidate.ok) return fail('reference_company without id or domain');
  return { ok: true, value: { ...search.value, reference_company: candidate.value } };
}

function isColumnConfig(value: unknown): value is ColumnConfig {
  return isObject(value) && missingString(value, ['kind', 'name', 'key']) === null;
}

export function readColumnRecords(body: unknown): Read<ColumnRecord[]> {
  if (!Array.isArray(body)) return fail('create-columns response is not an array');
  for (const item of body) {
    if (!isObject(item) || missingString(item, ['id', 'created_at']) || !isColumnConfig(item.config)) {
      return fail('column record without id, created_at or config');
    }
  }
  return { ok: true, value: body as ColumnRecord[] };
}

export function readTemplate(body: unknown): Read<Template> {
  if (!isObject(body)) return fail('template is not an object');
  const badString = missingString(body, ['id', 'created_at']);
  if (badString) return fail(`template field ${badString} is missing or not a string`);
  if (!Array.isArray(body.column_configs) || !body.column_configs.every(isColumnConfig)) {
    return fail('template column_configs is not a list of column configs');
  }
  return {
    ok: true,
    value: { ...body, name: typeof body.name === 'string' ? body.name : '' } as unknown as Template,
  };
}

/** The `detail` list of a 422 body; entries that are not issue objects are dropped. */
export function readValidationIssues(body: unknown): ValidationIssue[] {
  if (!isObject(body) || !Array.isArray(body.detail)) return [];
  return body.detail.filter(isObject).map((issue) => ({
    loc: Array.isArray(issue.loc)
      ? issue.loc.filter((part): part is string | number => typeof part === 'string' || typeof part === 'number')
      : [],
    msg: typeof issue.msg === 'string' ? issue.msg : '',
    type: typeof issue.type === 'string' ? issue.type : '',
  }));
}

/** The `detail` object of a 402 body, or null when the body has none. */
export function readPaymentDetail(body: unknown): PaymentRequiredDetail | null {
  if (!isObject(body) || !isObject(body.detail) || typeof body.detail.error !== 'string') return null;
  const detail = body.detail;
  return {
    error: detail.error as string,
    action: typeof detail.action === 'string' ? detail.action : undefined,
    required_credits: typeof detail.required_credits === 'number' ? detail.required_credits : undefined,
    available_credits: typeof detail.available_credits === 'number' ? detail.available_credits : undefined,
  };
}
