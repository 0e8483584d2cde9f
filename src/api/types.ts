// Wire types of the research and company-data service: every resource, request body and response
// shape of service-interface.md, with the gaps filled from addendum.md. Field names are the wire
// names (snake_case). The parsers in responses.ts normalise defaults (report `kind`,
// `degradation_reasons`) so these types describe what callers actually receive.

// ---------------------------------------------------------------------------------------------
// Research tasks (interface 2.1-2.3, 3, 4.1-4.3; addendum "Paths the interface leaves out")
// ---------------------------------------------------------------------------------------------

export type TaskStatus = 'created' | 'in_progress' | 'done' | 'failed';

/** Research depth; the budget is 5 / 15 / 25 agents at 2 credits each (interface section 8). */
export type TaskDepth = 'medium' | 'high' | 'xhigh';

/** A JSON Schema object with `type` = `object` (interface 4.1 and 8 give the limits). */
export interface JsonSchemaObject {
  type: 'object';
  [keyword: string]: unknown;
}

export interface TaskOwner {
  id: string;
  email: string;
}

/** A cited source of a markdown report; `[n]` in the markdown refers to `id` n. */
export interface Source {
  id: number;
  url: string;
}

/**
 * A schema-report value whose schema opted in to provenance: the value, the URLs it came from and
 * the reasoning. It appears inside `SchemaReport.fields` where the output schema asked for it.
 */
export interface Evidenced<T = unknown> {
  value: T;
  sources: string[];
  reasoning: string;
}

export interface MarkdownReport {
  kind: 'markdown';
  markdown: string;
  sources: Source[];
  /** Empty for a clean run (the parser fills the default). */
  degradation_reasons: string[];
}

export interface SchemaReport {
  kind: 'schema';
  /** Values conforming to the task's `output_schema`; some may be `Evidenced` wrappers. */
  fields: Record<string, unknown>;
  degradation_reasons: string[];
}

export type TaskReport = MarkdownReport | SchemaReport;

export interface ResearchTask {
  id: string;
  created_at: string;
  updated_at: string;
  status: TaskStatus;
  brief: string;
  depth: TaskDepth;
  output_schema?: JsonSchemaObject | null;
  /** Set when `status` is `failed`. */
  failure_reason?: string | null;
  /** Research analysis steps completed so far. */
  iterations: number;
  /** Research agents completed so far (2 credits each). */
  agents: number;
  /** Unique sources collected so far. */
  sources: number;
  /** Null until `status` is `done`. */
  report?: TaskReport | null;
  owner: TaskOwner;
}

/** Body of `POST /v1/deep_research_tasks`. */
export interface CreateTaskRequest {
  /** 1 to 20,000 characters. */
  brief: string;
  /** Server default: `medium`. */
  depth?: TaskDepth;
  /** When present the report is a schema report, otherwise markdown. */
  output_schema?: JsonSchemaObject | null;
}

/** Query of `GET /v1/deep_research_tasks` (newest first; server default limit 50). */
export interface ListTasksQuery {
  offset?: number;
  limit?: number;
}

// ---------------------------------------------------------------------------------------------
// User (interface 2.4, 4.4)
// ---------------------------------------------------------------------------------------------

export interface User {
  user_id: string;
  email: string;
  available_credits: number;
  organization_id: string | null;
  organization_name: string | null;
  organization_slug: string | null;
}

// ---------------------------------------------------------------------------------------------
// Column configs, column records, templates (interface 2.5-2.7, 4.5, 4.6; addendum "Column configs")
// ---------------------------------------------------------------------------------------------

/** Agent types of the interface plus the addendum's `research_reasoning`; open to new values. */
export type KnownAgentType = 'research_pro' | 'linkedin' | 'llm' | 'research_reasoning';
export type AgentType = KnownAgentType | (string & {});

/** Output formats of the interface plus the addendum's; `select`/`multiselect` need `labels`, `json` needs `output_schema`. */
export type KnownOutputFormat =
  | 'text'
  | 'url'
  | 'email'
  | 'select'
  | 'multiselect'
  | 'numeric'
  | 'money'
  | 'date'
  | 'phone'
  | 'grade'
  | 'json';
export type OutputFormat = KnownOutputFormat | (string & {});

export interface AgentColumnValue {
  agent_type: AgentType;
  /** `{input}` is the row's input; `{<column_key>}` is another column's value. */
  prompt: string;
  output_format: OutputFormat;
  labels?: string[];
  output_schema?: JsonSchemaObject;
}

interface ColumnBase {
  name: string;
  key: string;
}

export interface InputColumn extends ColumnBase {
  kind: 'input';
}

export interface AgentColumn extends ColumnBase {
  kind: 'agent';
  value: AgentColumnValue;
}

export interface CriterionGradeColumn extends ColumnBase {
  kind: 'criterion_grade';
  /** `criterion` is a plain-language statement the row is graded against. */
  value: { criterion: string };
}

export interface PeopleFinderColumn extends ColumnBase {
  kind: 'company_people_finder';
  value: { roles: string[]; max_results?: number };
}

export interface EmailFinderColumn extends ColumnBase {
  kind: 'email_finder';
}

export interface PhoneFinderColumn extends ColumnBase {
  kind: 'phone_finder';
}

export interface ReverseEmailLookupColumn extends ColumnBase {
  kind: 'reverse_email_lookup';
  /** Key of the column holding the e-mail address to look up. */
  email_column_key: string;
}

/**
 * The four built-in company-table variants whose fields are not published. They carry `kind`,
 * `name`, `key` and whatever else the service sends, kept verbatim through the index signature.
 */
export interface DiscoveryScoresColumn extends ColumnBase {
  kind: 'discovery_scores';
  [field: string]: unknown;
}
export interface CompanyNameColumn extends ColumnBase {
  kind: 'company_name';
  [field: string]: unknown;
}
export interface CompanyWebsiteColumn extends ColumnBase {
  kind: 'company_website';
  [field: string]: unknown;
}
export interface CompanyProfileColumn extends ColumnBase {
  kind: 'company_profile';
  [field: string]: unknown;
}

/** A column config; `kind` selects one of the 11 variants. */
export type ColumnConfig =
  | InputColumn
  | AgentColumn
  | CriterionGradeColumn
  | PeopleFinderColumn
  | DiscoveryScoresColumn
  | CompanyNameColumn
  | CompanyWebsiteColumn
  | CompanyProfileColumn
  | EmailFinderColumn
  | PhoneFinderColumn
  | ReverseEmailLookupColumn;

export type ColumnKind = ColumnConfig['kind'];

/** One item of the create-columns response. */
export interface ColumnRecord {
  id: string;
  created_at: string;
  config: ColumnConfig;
}

/** Body of `POST /v1/tables/{table_id}/columns`. */
export interface CreateColumnsRequest {
  column_configs: ColumnConfig[];
  /** `true` (server default): at the end; `false`: at the beginning; a column ID: after that column. */
  insert_after?: boolean | string;
}

export interface Template {
  id: string;
  created_at: string;
  name: string;
  column_configs: ColumnConfig[];
}

/** Body of `PUT /v1/templates/{template_id}`. */
export interface ReplaceTemplateRequest {
  name?: string | null;
  column_configs: ColumnConfig[];
}

// ---------------------------------------------------------------------------------------------
// Companies: profile, search results, filters (interface 2.8-2.10, 4.7-4.11; addendum)
// ---------------------------------------------------------------------------------------------

/** Employee-count buckets, exactly as the service spells them (addendum "Filter values"). */
export type SizeBucket =
  | '1-10'
  | '11-50'
  | '51-200'
  | '201-500'
  | '501-1000'
  | '1001-5000'
  | '5001-10000'
  | '10001+';

export const SIZE_BUCKETS: readonly SizeBucket[] = [
  '1-10',
  '11-50',
  '51-200',
  '201-500',
  '501-1000',
  '1001-5000',
  '5001-10000',
  '10001+',
];

/**
 * Descriptive fields whose value type the service does not publish: seen as prose, and plausibly
 * as lists. Consumers must handle both.
 */
export type TextOrList = string | string[];

/** Descriptive and firmographic fields that a profile's `context` and a search result share (addendum). */
export interface CompanyDescription {
  short_description?: string | null;
  full_description?: string | null;
  products_services?: TextOrList | null;
  use_cases?: TextOrList | null;
  target_audience?: TextOrList | null;
  founding_year?: number | null;
  employee_count?: SizeBucket | null;
  hq_country?: string | null;
  hq_state_province?: string | null;
  hq_city?: string | null;
  hq_full_address?: string | null;
  /** Network name -> profile URL. */
  social_profiles?: Record<string, string> | null;
}

/** The rich profile of a company (addendum "Company profile `context`"); each field only when available. */
export interface CompanyContext extends CompanyDescription {
  sources?: unknown[] | null;
  /** Fields the service may add later are kept verbatim. */
  [field: string]: unknown;
}

/** Response of `GET /v1/companies/{company_identifier}` with status 200. */
export interface CompanyProfile {
  id: string;
  domain: string;
  company_name: string;
  context: CompanyContext;
}

/** Body of the 202 answer of a lookup whose enrichment started (addendum). */
export interface EnrichmentAccepted {
  status: 'enriching';
  domain?: string;
  message?: string;
}

/**
 * Outcome of a successful lookup: the profile (200), or enrichment started (202) in which case the
 * same lookup should be repeated later. A distinct state so no caller can mistake 202 for a profile.
 */
export type LookupOutcome =
  | { state: 'ready'; profile: CompanyProfile }
  | { state: 'enriching'; domain: string | null; message: string | null };

export interface WebsiteAuthority {
  score: number;
  percentile: number;
  tier: number | string;
  tier_label: string;
}

/** One company candidate of a search or lookalike response (addendum "Search and lookalike responses"). */
export interface CompanySearchResult extends CompanyDescription {
  id: string;
  domain: string;
  name?: string | null;
  website_authority?: WebsiteAuthority | null;
  relevance_score?: number | null;
}

/**
 * Search filters (interface 2.10). The interface names the keys in dotted form (`include.country`,
 * `range.founded.min`) and calls filters "an object"; dotted names in a key table are the usual
 * notation for paths into nested objects, and `range.founded.min` only makes sense as a path.
 * The wire form is therefore the nested object `{include: {country: [...]}, range: {founded: {min}}}`,
 * in the POST body and, JSON-encoded, in the `filters` query parameter of the GET variants. The
 * sandbox accepts both nested and flat dotted keys; only the nested form is ever sent.
 */
export interface SearchFilters {
  include?: {
    size?: SizeBucket[];
    /** Full English country names ("United States"). */
    country?: string[];
    city?: string[];
  };
  exclude?: {
    size?: SizeBucket[];
    country?: string[];
    city?: string[];
    /** Domains or URLs, normalised by the service; at most 1000 after de-duplication. */
    domains?: string[];
  };
  range?: {
    founded?: { min?: number; max?: number };
  };
}

export interface Pagination {
  offset?: number;
  /** At most 250. */
  limit?: number;
}

/** Body of `POST /v1/companies/search` (the GET variant carries the same values as query parameters). */
export interface SearchRequest {
  q: string;
  filters?: SearchFilters;
  pagination?: Pagination;
}

/** Body of `POST /v1/companies/{company_identifier}/similar` (the identifier stays in the path). */
export interface SimilarRequest {
  filters?: SearchFilters;
  pagination?: Pagination;
}

/** Request metadata echoed by search and lookalike responses. There is no total count. */
export interface SearchRequestEcho {
  offset?: number;
  limit?: number;
  query?: string;
  filters?: unknown;
}

export interface SearchResponse {
  results: CompanySearchResult[];
  request: SearchRequestEcho;
}

export interface SimilarResponse extends SearchResponse {
  /** The seed company; null when the service left it out. Never among `results`. */
  reference_company: CompanySearchResult | null;
}

// ---------------------------------------------------------------------------------------------
// Errors (interface 2.11, 7)
// ---------------------------------------------------------------------------------------------

export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** Body of a 422 answer. */
export interface ValidationErrorBody {
  detail: ValidationIssue[];
}

/** `detail` of a 402 answer of task creation. */
export interface PaymentRequiredDetail {
  error: 'plan_required' | 'insufficient_credits' | 'payment_failed' | (string & {});
  action?: string;
  required_credits?: number;
  available_credits?: number;
}
