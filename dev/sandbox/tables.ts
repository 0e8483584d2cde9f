// Tables, columns and templates: the seeded tables and templates of each workspace, validation of column configs
// (all 11 variants, prompt references to {input} and {column_key}, cycles), column insertion (insert_after) and
// template replacement. Shape problems and semantic problems are reported as FastAPI-style issues.
import { checkOutputSchema } from './research/output-schema';
import { createRng, hashString, uuidFromRng } from './random';
import {
  checkInteger,
  checkString,
  issue,
  isPlainObject,
  missing,
  ValidationFailure,
  type Loc,
  type ValidationIssue,
} from './http/validation';

export const COLUMN_KINDS = [
  'input',
  'agent',
  'criterion_grade',
  'company_people_finder',
  'discovery_scores',
  'company_name',
  'company_website',
  'company_profile',
  'email_finder',
  'phone_finder',
  'reverse_email_lookup',
] as const;
/** Kinds whose fields are not published: any extra fields are accepted and echoed. */
const OPEN_KINDS = new Set(['discovery_scores', 'company_name', 'company_website', 'company_profile']);
export const AGENT_TYPES = ['research_pro', 'linkedin', 'llm', 'research_reasoning'];
export const OUTPUT_FORMATS = [
  'text',
  'url',
  'email',
  'select',
  'multiselect',
  'numeric',
  'money',
  'date',
  'phone',
  'grade',
  'json',
];
const KEY_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const REFERENCE_PATTERN = /\{([A-Za-z0-9_-]+)\}/g;

export type ColumnConfig = Record<string, unknown> & { kind: string; name: string; key: string };

export interface ColumnRecord {
  id: string;
  created_at: string;
  config: ColumnConfig;
}

export interface Table {
  id: string;
  name: string;
  workspaceId: string;
  createdAt: string;
  columns: ColumnRecord[];
}

export interface Template {
  id: string;
  workspaceId: string;
  createdAt: string;
  name: string;
  columnConfigs: ColumnConfig[];
}

const SEED_TIME = '2025-05-01T08:00:00.000Z';

function quoted(values: readonly string[]): string {
  return values.map((value) => `'${value}'`).join(', ');
}

function seedColumn(
  id: string,
  kind: string,
  name: string,
  key: string,
  extra: Record<string, unknown> = {},
): ColumnRecord {
  return { id, created_at: SEED_TIME, config: { kind, name, key, ...extra } };
}

/** Seed tables and templates: one company table, one contacts table and one template per workspace. */
function seedWorkspace(workspaceId: string, short: string): { tables: Table[]; templates: Template[] } {
  return {
    tables: [
      {
        id: `tbl_${short}_companies`,
        name: 'Target accounts',
        workspaceId,
        createdAt: SEED_TIME,
        columns: [
          seedColumn(`col_${short}_company_name`, 'company_name', 'Company', 'company_name'),
          seedColumn(`col_${short}_company_website`, 'company_website', 'Website', 'company_website'),
          seedColumn(`col_${short}_company_profile`, 'company_profile', 'Profile', 'company_profile'),
        ],
      },
      {
        id: `tbl_${short}_contacts`,
        name: 'Contacts',
        workspaceId,
        createdAt: SEED_TIME,
        columns: [
          seedColumn(`col_${short}_full_name`, 'input', 'Full name', 'full_name'),
          seedColumn(`col_${short}_email`, 'input', 'Email', 'email'),
        ],
      },
    ],
    templates: [
      {
        id: `tpl_${short}_account_research`,
        workspaceId,
        createdAt: SEED_TIME,
        name: 'Account research',
        columnConfigs: [
          { kind: 'input', name: 'Company domain', key: 'domain' },
          {
            kind: 'agent',
            name: 'Summary',
            key: 'summary',
            value: {
              agent_type: 'research_pro',
              prompt: 'Summarize what {input} sells and to whom',
              output_format: 'text',
            },
          },
        ],
      },
    ],
  };
}

export const SEEDED_WORKSPACES: Record<string, string> = {
  ws_sandbox_labs: 'labs',
  ws_sandbox_solo: 'solo',
  ws_free_tier_club: 'free',
  ws_low_balance: 'low',
  ws_rival_corp: 'rival',
};

/** Validates the shape of one column config (no cross-column checks). Returns the normalized config or undefined. */
function checkColumnConfig(raw: unknown, loc: Loc, issues: ValidationIssue[]): ColumnConfig | undefined {
  if (!isPlainObject(raw)) {
    issues.push(
      issue(loc, 'Input should be a valid dictionary or object to extract fields from', 'model_attributes_type'),
    );
    return undefined;
  }
  if (!('kind' in raw)) {
    issues.push(issue(loc, "Unable to extract tag using discriminator 'kind'", 'union_tag_not_found'));
    return undefined;
  }
  const kind = raw.kind;
  if (typeof kind !== 'string' || !(COLUMN_KINDS as readonly string[]).includes(kind)) {
    issues.push(
      issue(
        [...loc, 'kind'],
        `Input tag ${JSON.stringify(kind)} found using 'kind' does not match any of the expected tags: ${quoted(COLUMN_KINDS)}`,
        'union_tag_invalid',
      ),
    );
    return undefined;
  }
  const before = issues.length;
  const name =
    'name' in raw
      ? checkString(raw.name, [...loc, 'name'], 1, issues)
      : (issues.push(missing([...loc, 'name'])), undefined);
  let key =
    'key' in raw
      ? checkString(raw.key, [...loc, 'key'], 1, issues)
      : (issues.push(missing([...loc, 'key'])), undefined);
  if (key !== undefined && !KEY_PATTERN.test(key)) {
    issues.push(
      issue([...loc, 'key'], 'Column key must be 1 to 64 letters, digits, "_" or "-"', 'string_pattern_mismatch'),
    );
    key = undefined;
  }
  const config: ColumnConfig = OPEN_KINDS.has(kind)
    ? { ...raw, kind, name: name ?? '', key: key ?? '' }
    : { kind, name: name ?? '', key: key ?? '' };
  if (kind === 'agent') config.value = checkAgentValue(raw.value, [...loc, 'value'], issues);
  else if (kind === 'criterion_grade') config.value = checkCriterionValue(raw.value, [...loc, 'value'], issues);
  else if (kind === 'company_people_finder')
    config.value = checkPeopleFinderValue(raw.value, [...loc, 'value'], issues);
  else if (kind === 'reverse_email_lookup') {
    if (!('email_column_key' in raw)) issues.push(missing([...loc, 'email_column_key']));
    else config.email_column_key = checkString(raw.email_column_key, [...loc, 'email_column_key'], 1, issues);
  }
  return issues.length === before ? config : undefined;
}

function requireObject(raw: unknown, loc: Loc, issues: ValidationIssue[]): Record<string, unknown> | undefined {
  if (raw === undefined) {
    issues.push(missing(loc));
    return undefined;
  }
  if (!isPlainObject(raw)) {
    issues.push(
      issue(loc, 'Input should be a valid dictionary or object to extract fields from', 'model_attributes_type'),
    );
    return undefined;
  }
  return raw;
}

function checkEnum(raw: unknown, loc: Loc, allowed: string[], issues: ValidationIssue[]): string | undefined {
  if (raw === undefined) {
    issues.push(missing(loc));
    return undefined;
  }
  if (typeof raw !== 'string' || !allowed.includes(raw)) {
    issues.push(issue(loc, `Input should be ${quoted(allowed)}`, 'enum'));
    return undefined;
  }
  return raw;
}

/** A required, non-empty JSON list, with FastAPI's messages when it is missing, not a list, or empty. */
function checkNonEmptyList(raw: unknown, loc: Loc, issues: ValidationIssue[]): unknown[] | undefined {
  if (raw === undefined) {
    issues.push(missing(loc));
    return undefined;
  }
  if (!Array.isArray(raw)) {
    issues.push(issue(loc, 'Input should be a valid list', 'list_type'));
    return undefined;
  }
  if (raw.length === 0) {
    issues.push(issue(loc, 'List should have at least 1 item after validation, not 0', 'too_short'));
    return undefined;
  }
  return raw;
}

function checkStringList(input: unknown, loc: Loc, issues: ValidationIssue[]): string[] | undefined {
  const raw = checkNonEmptyList(input, loc, issues);
  if (!raw) return undefined;
  const before = issues.length;
  raw.forEach((entry, index) => checkString(entry, [...loc, index], 1, issues));
  return issues.length === before ? (raw as string[]) : undefined;
}

function checkAgentValue(raw: unknown, loc: Loc, issues: ValidationIssue[]): Record<string, unknown> | undefined {
  const value = requireObject(raw, loc, issues);
  if (!value) return undefined;
  const agentType = checkEnum(value.agent_type, [...loc, 'agent_type'], AGENT_TYPES, issues);
  const prompt =
    value.prompt === undefined
      ? (issues.push(missing([...loc, 'prompt'])), undefined)
      : checkString(value.prompt, [...loc, 'prompt'], 1, issues);
  const outputFormat = checkEnum(value.output_format, [...loc, 'output_format'], OUTPUT_FORMATS, issues);
  const normalized: Record<string, unknown> = { agent_type: agentType, prompt, output_format: outputFormat };
  if (value.labels !== undefined || outputFormat === 'select' || outputFormat === 'multiselect') {
    const labels = checkStringList(value.labels, [...loc, 'labels'], issues);
    if (labels) normalized.labels = labels;
  }
  if (value.output_schema !== undefined || outputFormat === 'json') {
    if (value.output_schema === undefined || value.output_schema === null)
      issues.push(missing([...loc, 'output_schema']));
    else {
      issues.push(...checkOutputSchema(value.output_schema, [...loc, 'output_schema']));
      normalized.output_schema = value.output_schema;
    }
  }
  return normalized;
}

function checkCriterionValue(raw: unknown, loc: Loc, issues: ValidationIssue[]): Record<string, unknown> | undefined {
  const value = requireObject(raw, loc, issues);
  if (!value) return undefined;
  const criterion =
    value.criterion === undefined
      ? (issues.push(missing([...loc, 'criterion'])), undefined)
      : checkString(value.criterion, [...loc, 'criterion'], 1, issues);
  return { criterion };
}

function checkPeopleFinderValue(
  raw: unknown,
  loc: Loc,
  issues: ValidationIssue[],
): Record<string, unknown> | undefined {
  const value = requireObject(raw, loc, issues);
  if (!value) return undefined;
  const normalized: Record<string, unknown> = { roles: checkStringList(value.roles, [...loc, 'roles'], issues) };
  if (value.max_results !== undefined)
    normalized.max_results = checkInteger(value.max_results, [...loc, 'max_results'], { min: 1, max: 100 }, issues);
  return normalized;
}

/** Checks `column_configs` is a non-empty list of valid configs. Returns the configs only when all are valid. */
export function checkColumnConfigList(input: unknown, loc: Loc, issues: ValidationIssue[]): ColumnConfig[] | undefined {
  const raw = checkNonEmptyList(input, loc, issues);
  if (!raw) return undefined;
  const before = issues.length;
  const configs = raw.map((entry, index) => checkColumnConfig(entry, [...loc, index], issues));
  return issues.length === before ? (configs as ColumnConfig[]) : undefined;
}

/** The keys a config refers to: `{key}` placeholders of an agent prompt and a reverse lookup's email column. */
function referencesOf(config: ColumnConfig): { key: string; field: Loc }[] {
  const references: { key: string; field: Loc }[] = [];
  const value = config.value as Record<string, unknown> | undefined;
  if (config.kind === 'agent' && typeof value?.prompt === 'string') {
    for (const match of value.prompt.matchAll(REFERENCE_PATTERN)) {
      if (match[1] !== 'input') references.push({ key: match[1], field: ['value', 'prompt'] });
    }
  }
  if (config.kind === 'reverse_email_lookup' && typeof config.email_column_key === 'string') {
    references.push({ key: config.email_column_key, field: ['email_column_key'] });
  }
  return references;
}

/**
 * Cross-column rules for configs being added next to `existingKeys`: keys unique, every reference names an
 * existing or new column other than itself, and no circular references among the new columns.
 */
export function checkColumnReferences(configs: ColumnConfig[], existingKeys: string[], loc: Loc): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set(existingKeys);
  configs.forEach((config, index) => {
    if (seen.has(config.key))
      issues.push(
        issue([...loc, index, 'key'], `Column key '${config.key}' already exists in this table`, 'value_error'),
      );
    seen.add(config.key);
  });
  const newKeys = new Map(configs.map((config, index) => [config.key, index]));
  const known = [...new Set([...existingKeys, ...newKeys.keys()])];
  configs.forEach((config, index) => {
    for (const reference of referencesOf(config)) {
      if (reference.key === config.key) {
        issues.push(
          issue([...loc, index, ...reference.field], `Column '${config.key}' cannot reference itself`, 'value_error'),
        );
      } else if (!known.includes(reference.key)) {
        issues.push(
          issue(
            [...loc, index, ...reference.field],
            `Unknown column key '${reference.key}'; known keys: input, ${known.join(', ')}`,
            'value_error',
          ),
        );
      }
    }
  });
  if (issues.length > 0) return issues;
  const cycle = findCycle(configs, newKeys);
  if (cycle) {
    const first = newKeys.get(cycle[0]) ?? 0;
    issues.push(issue([...loc, first], `Circular column references: ${cycle.join(' -> ')}`, 'value_error'));
  }
  return issues;
}

function findCycle(configs: ColumnConfig[], newKeys: Map<string, number>): string[] | undefined {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (key: string): string[] | undefined => {
    if (state.get(key) === 'done') return undefined;
    if (state.get(key) === 'visiting') return [...stack.slice(stack.indexOf(key)), key];
    state.set(key, 'visiting');
    stack.push(key);
    const config = configs[newKeys.get(key) ?? -1];
    for (const reference of referencesOf(config)) {
      if (newKeys.has(reference.key)) {
        const cycle = visit(reference.key);
        if (cycle) return cycle;
      }
    }
    stack.pop();
    state.set(key, 'done');
    return undefined;
  };
  for (const key of newKeys.keys()) {
    const cycle = visit(key);
    if (cycle) return cycle;
  }
  return undefined;
}

export type InsertAfter = { at: 'end' } | { at: 'start' } | { at: 'after'; columnId: string };

/** Shape check of insert_after (absent = true). Whether a column id exists is checked against the table later. */
export function checkInsertAfter(raw: unknown, issues: ValidationIssue[]): InsertAfter | undefined {
  if (raw === undefined || raw === true) return { at: 'end' };
  if (raw === false) return { at: 'start' };
  if (typeof raw === 'string' && raw.length > 0) return { at: 'after', columnId: raw };
  issues.push(
    issue(['body', 'insert_after'], 'Input should be true, false or the id of a column of this table', 'value_error'),
  );
  return undefined;
}

export class TableStore {
  private tables = new Map<string, Table>();
  private templates = new Map<string, Template>();
  private columnCounter = 0;

  constructor(private readonly seed: number) {
    this.reset();
  }

  reset(): void {
    this.tables.clear();
    this.templates.clear();
    this.columnCounter = 0;
    for (const [workspaceId, short] of Object.entries(SEEDED_WORKSPACES)) {
      const seeded = seedWorkspace(workspaceId, short);
      for (const table of seeded.tables) this.tables.set(table.id, table);
      for (const template of seeded.templates) this.templates.set(template.id, template);
    }
  }

  /** The table if it exists in the given workspace (tables of other workspaces are invisible). */
  table(id: string, workspaceId: string): Table | undefined {
    const table = this.tables.get(id);
    return table && table.workspaceId === workspaceId ? table : undefined;
  }

  template(id: string, workspaceId: string): Template | undefined {
    const template = this.templates.get(id);
    return template && template.workspaceId === workspaceId ? template : undefined;
  }

  /** Inserts validated configs and returns the new column records; an unknown insert_after column id is a 422. */
  addColumns(table: Table, configs: ColumnConfig[], insertAfter: InsertAfter, createdAt: string): ColumnRecord[] {
    let position = table.columns.length;
    if (insertAfter.at === 'start') position = 0;
    if (insertAfter.at === 'after') {
      const index = table.columns.findIndex((column) => column.id === insertAfter.columnId);
      if (index < 0) {
        throw new ValidationFailure([
          issue(
            ['body', 'insert_after'],
            `Unknown column id '${insertAfter.columnId}': insert_after must be true, false or the id of a column of this table`,
            'value_error',
          ),
        ]);
      }
      position = index + 1;
    }
    const records = configs.map((config) => ({ id: this.nextColumnId(), created_at: createdAt, config }));
    table.columns.splice(position, 0, ...records);
    return records;
  }

  replaceTemplate(template: Template, name: string | null, configs: ColumnConfig[]): void {
    if (name !== null) template.name = name;
    template.columnConfigs = configs;
  }

  private nextColumnId(): string {
    this.columnCounter += 1;
    return `col_${uuidFromRng(createRng(hashString(`${this.seed}:column:${this.columnCounter}`)))
      .replace(/-/g, '')
      .slice(0, 20)}`;
  }
}

export function tableObject(table: Table): Record<string, unknown> {
  return {
    id: table.id,
    name: table.name,
    workspace_id: table.workspaceId,
    created_at: table.createdAt,
    columns: table.columns,
  };
}

export function templateObject(template: Template): Record<string, unknown> {
  return {
    id: template.id,
    created_at: template.createdAt,
    name: template.name,
    column_configs: template.columnConfigs,
  };
}
