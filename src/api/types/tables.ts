// Wire types of column configs, column records and templates (interface 2.5-2.7, 4.5, 4.6; addendum "Column
// configs").
import type { JsonSchemaObject } from './research';

/** Agent types of the interface plus the addendum's `research_reasoning`; open to new values. */
export type KnownAgentType = 'research_pro' | 'linkedin' | 'llm' | 'research_reasoning';
export type AgentType = KnownAgentType | (string & {});

/** Output formats of the interface plus the addendum's; `select`/`multiselect` need `labels`, `json` needs `output_schema`. */
export type KnownOutputFormat =
  'text' | 'url' | 'email' | 'select' | 'multiselect' | 'numeric' | 'money' | 'date' | 'phone' | 'grade' | 'json';
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
