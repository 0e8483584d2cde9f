// Checks a sheet's column mapping before anything is sent: keys (format, duplicates), each kind's required fields,
// and prompt references (`{input}`, `{key}`): unknown keys, references to skipped columns or to columns that come
// later (a column may only consume columns before it), and cycles. Each problem is pinned to its row and field.
// Pure: the caller says which keys already exist in the target table (before or after the new columns; a company
// table's built-in keys among them), or that the mapping is saved as a template, which holds only its own columns: a
// reference Push resolves in the table is a warning for the template as the dialog checks it, and an error when the
// template is saved.
import leven from 'leven';
import { kindInfo, draftLabel, type ColumnDraft } from './model';
import { cycles, INPUT_REFERENCE, keyProblem, promptReferences } from './keys';

export type IssueField =
  | 'mapping'
  | 'kind'
  | 'name'
  | 'key'
  | 'agentType'
  | 'outputFormat'
  | 'prompt'
  | 'labels'
  | 'outputSchema'
  | 'criterion'
  | 'roles'
  | 'maxResults'
  | 'emailColumnKey'
  | 'extraJson'
  | 'target'
  | 'position';

/** Keys every company table has built in (service addendum): prompts pushed to one may use them. */
export const COMPANY_TABLE_KEYS: readonly string[] = ['company_name', 'company_website', 'company_profile'];

export interface MappingIssue {
  /** Index of the draft in the mapping, or null for a problem of the whole mapping or of the target. */
  row: number | null;
  field: IssueField;
  severity: 'error' | 'warning';
  message: string;
}

export interface ValidationContext {
  /** Keys of table columns that will come before the new columns (known from earlier pushes). */
  existingBefore?: readonly string[];
  /** Keys of table columns that will come after the new columns (pushing at the beginning or in the middle). */
  existingAfter?: readonly string[];
  /** Appended to "unknown key" messages (e.g. how to declare keys the table already has). */
  unknownHint?: string;
  /** Saving as a template (no table keys given): references resolve within the mapping, and messages say so. */
  template?: boolean;
}

const TEMPLATE_ONLY_OWN = 'a template holds only its own columns';

const MAX_NAME_LENGTH = 200;
const MAX_PROMPT_LENGTH = 20000;
const RESERVED_EXTRA_FIELDS = ['kind', 'name', 'key'];

/** Parses JSON text that must hold an object; returns the object or the reason it is not one. */
export function parseJsonObject(
  text: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `Not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, reason: 'Must be a JSON object {...}' };
  return { ok: true, value: value as Record<string, unknown> };
}

/** The column keys a draft consumes: its prompt references (agent) or its e-mail column (reverse e-mail lookup). */
export function consumedKeys(draft: ColumnDraft): Array<{ name: string; field: 'prompt' | 'emailColumnKey' }> {
  if (draft.kind === 'agent')
    return promptReferences(draft.agent.prompt).map((ref) => ({ name: ref.name, field: 'prompt' as const }));
  if (draft.kind === 'reverse_email_lookup' && draft.emailColumnKey.trim() !== '') {
    return [{ name: draft.emailColumnKey.trim(), field: 'emailColumnKey' }];
  }
  return [];
}

function fieldIssues(draft: ColumnDraft, row: number): MappingIssue[] {
  const issues: MappingIssue[] = [];
  const error = (field: IssueField, message: string) => issues.push({ row, field, severity: 'error', message });
  const info = kindInfo(draft.kind);
  if (!info) {
    error('kind', `Unknown kind "${draft.kind}"`);
    return issues;
  }
  const name = draft.name.trim();
  if (name === '') error('name', 'Name is empty');
  else if (name.length > MAX_NAME_LENGTH) error('name', `Name is longer than ${MAX_NAME_LENGTH} characters`);
  const keyIssue = keyProblem(draft.key.trim());
  if (keyIssue) error('key', keyIssue);

  switch (info.editor) {
    case 'agent': {
      const { prompt, outputFormat, labels, outputSchema } = draft.agent;
      if (prompt.trim() === '') error('prompt', 'Prompt is empty');
      else if (prompt.length > MAX_PROMPT_LENGTH)
        error('prompt', `Prompt is longer than ${MAX_PROMPT_LENGTH} characters`);
      else if (promptReferences(prompt).length === 0) {
        issues.push({
          row,
          field: 'prompt',
          severity: 'warning',
          message: 'Prompt uses no {input} or {key} reference: every row gets the same question',
        });
      }
      if (outputFormat === 'select' || outputFormat === 'multiselect') {
        const cleaned = labels.map((label) => label.trim()).filter((label) => label !== '');
        if (cleaned.length === 0) error('labels', `A ${outputFormat} output needs at least one label`);
        else if (new Set(cleaned).size !== cleaned.length) error('labels', 'Labels repeat');
      }
      if (outputFormat === 'json') {
        if (outputSchema.trim() === '') error('outputSchema', 'A json output needs an output schema');
        else {
          const parsed = parseJsonObject(outputSchema);
          if (!parsed.ok) error('outputSchema', `Output schema: ${parsed.reason}`);
          else if (parsed.value.type !== 'object') error('outputSchema', 'Output schema must have "type": "object"');
        }
      }
      break;
    }
    case 'criterion':
      if (draft.criterion.trim() === '') error('criterion', 'Criterion is empty');
      break;
    case 'people':
      if (draft.roles.every((role) => role.trim() === '')) error('roles', 'List at least one role to find');
      if (draft.maxResults !== null && (!Number.isInteger(draft.maxResults) || draft.maxResults < 1)) {
        error('maxResults', 'Max results must be a whole number of at least 1');
      }
      break;
    case 'reverse_email':
      if (draft.emailColumnKey.trim() === '')
        error('emailColumnKey', 'Choose the column that holds the e-mail address');
      break;
    case 'json':
      if (draft.extraJson.trim() !== '') {
        const parsed = parseJsonObject(draft.extraJson);
        if (!parsed.ok) error('extraJson', `Extra fields: ${parsed.reason}`);
        else {
          const reserved = RESERVED_EXTRA_FIELDS.filter((field) => field in parsed.value);
          if (reserved.length > 0)
            error('extraJson', `Extra fields must not set ${reserved.join(', ')}: use the row's own fields`);
        }
      }
      break;
    case 'none':
      break;
  }
  return issues;
}

/** What every row's checks need to know of the whole mapping: where each key is, and which rows form cycles. */
interface MappingIndex {
  drafts: readonly ColumnDraft[];
  context: ValidationContext;
  before: Set<string>;
  after: Set<string>;
  /** Included rows by key (the first row of a key). */
  rowOfKey: Map<string, number>;
  /** Included rows whose key an earlier included row already has, with that row. */
  duplicates: Map<number, number>;
  /** Skipped rows by key. */
  skippedRowOfKey: Map<string, number>;
  allKnown: string[];
  cycleOf: Map<number, number[]>;
}

function indexMapping(
  drafts: readonly ColumnDraft[],
  included: { draft: ColumnDraft; row: number }[],
  context: ValidationContext,
): MappingIndex {
  const before = new Set(context.existingBefore ?? []);
  const after = new Set(context.existingAfter ?? []);
  const rowOfKey = new Map<string, number>();
  const duplicates = new Map<number, number>();
  for (const { draft, row } of included) {
    const key = draft.key.trim();
    const first = rowOfKey.get(key);
    if (first === undefined) rowOfKey.set(key, row);
    else duplicates.set(row, first);
  }
  const skippedRowOfKey = new Map<string, number>();
  drafts.forEach((draft, row) => {
    if (!draft.include && !skippedRowOfKey.has(draft.key.trim())) skippedRowOfKey.set(draft.key.trim(), row);
  });
  const edges = new Map<number, number[]>();
  for (const { draft, row } of included) {
    edges.set(
      row,
      consumedKeys(draft)
        .map((ref) => rowOfKey.get(ref.name))
        .filter((target): target is number => target !== undefined),
    );
  }
  const cycleOf = cycles(
    edges,
    included.map((entry) => entry.row),
  );
  const allKnown = [...rowOfKey.keys(), ...before, ...after];
  return { drafts, context, before, after, rowOfKey, duplicates, skippedRowOfKey, allKnown, cycleOf };
}

/** A key used by an earlier column (error), or already in the table (warning). */
function keyIssue(index: MappingIndex, draft: ColumnDraft, row: number): MappingIssue | null {
  const key = draft.key.trim();
  const firstRow = index.duplicates.get(row);
  if (firstRow !== undefined) {
    return {
      row,
      field: 'key',
      severity: 'error',
      message: `Key "${key}" is already used by column "${draftLabel(index.drafts[firstRow])}"`,
    };
  }
  if (index.before.has(key) || index.after.has(key)) {
    return {
      row,
      field: 'key',
      severity: 'warning',
      message: COMPANY_TABLE_KEYS.includes(key)
        ? `Company tables have a built-in column with key "${key}": pushing to one would duplicate it (change the key)`
        : `The table already has a column with key "${key}": pushing it again would duplicate it (skip it or change the key)`,
    };
  }
  return null;
}

function cycleIssue(index: MappingIndex, draft: ColumnDraft, row: number, cycle: number[]): MappingIssue {
  const path = [...cycle, cycle[0]].map((member) => `{${index.drafts[member].key.trim()}}`).join(' -> ');
  const field =
    consumedKeys(draft).find((ref) => cycle.includes(index.rowOfKey.get(ref.name) ?? -1))?.field ?? 'prompt';
  return {
    row,
    field,
    severity: 'error',
    message: cycle.length === 1 ? `Refers to its own key {${draft.key.trim()}}` : `Reference cycle: ${path}`,
  };
}

/**
 * The known key a typo most likely meant: the same key in another case, else the nearest by edit distance, within
 * 2 edits and less than half the key's length ({compnay_name} -> {company_name}); null when none is that close.
 */
function closestKey(name: string, known: readonly string[]): string | null {
  const lower = name.toLowerCase();
  const sameCase = known.find((key) => key.toLowerCase() === lower);
  if (sameCase) return sameCase;
  let best: { key: string; distance: number } | null = null;
  for (const key of known) {
    const distance = leven(lower, key.toLowerCase());
    if (distance <= 2 && distance < lower.length / 2 && (!best || distance < best.distance)) best = { key, distance };
  }
  return best?.key ?? null;
}

/** What is wrong with one reference {name} of the column in `row`, or null when it is fine. */
function referenceProblem(
  index: MappingIndex,
  ref: ReturnType<typeof consumedKeys>[number],
  row: number,
  cycle: number[] | undefined,
): Pick<MappingIssue, 'severity' | 'message'> | null {
  const { drafts } = index;
  const error = (message: string) => ({ severity: 'error' as const, message });
  if (ref.name === INPUT_REFERENCE)
    return ref.field === 'emailColumnKey' ? error('Choose a column key, not {input}') : null;
  const target = index.rowOfKey.get(ref.name);
  if (target !== undefined) {
    if ((cycle && cycle.includes(target)) || target <= row) return null;
    return error(
      `Refers to {${ref.name}} of column "${draftLabel(drafts[target])}", which comes later: a column can only use columns before it`,
    );
  }
  // Push resolves it in the table; Save as template cannot, and the dialog says so before either is clicked.
  if (index.before.has(ref.name))
    return {
      severity: 'warning',
      message: `Uses {${ref.name}} of the table: Push accepts it, Save as template does not (${TEMPLATE_ONLY_OWN})`,
    };
  if (index.after.has(ref.name))
    return error(`Refers to {${ref.name}}, a table column that will come after the new columns`);
  const skipped = index.skippedRowOfKey.get(ref.name);
  if (skipped !== undefined)
    return error(
      `Refers to {${ref.name}} of column "${draftLabel(drafts[skipped])}", which is skipped: include it or remove the reference`,
    );
  if (index.context.template && COMPANY_TABLE_KEYS.includes(ref.name))
    return error(
      `Refers to {${ref.name}}, built into company tables: ${TEMPLATE_ONLY_OWN} (add one with this key, or push to a table instead)`,
    );
  const lookalike = closestKey(ref.name, index.allKnown);
  return error(
    lookalike
      ? `Unknown key {${ref.name}}: did you mean {${lookalike}}?`
      : `Unknown key {${ref.name}}: no column has this key${index.context.template ? ` (${TEMPLATE_ONLY_OWN})` : (index.context.unknownHint ?? '')}`,
  );
}

/**
 * Every problem of the mapping, in row order, errors and warnings. The mapping can be sent when no issue has
 * severity `error`. Only included rows are checked; the order of the included rows is the order of the columns.
 */
export function validateMapping(drafts: readonly ColumnDraft[], context: ValidationContext = {}): MappingIssue[] {
  const included = drafts.map((draft, row) => ({ draft, row })).filter((entry) => entry.draft.include);
  if (included.length === 0) {
    return [{ row: null, field: 'mapping', severity: 'error', message: 'Include at least one column' }];
  }
  const index = indexMapping(drafts, included, context);
  const issues: MappingIssue[] = [];
  for (const { draft, row } of included) {
    issues.push(...fieldIssues(draft, row));
    const duplicate = keyIssue(index, draft, row);
    if (duplicate) issues.push(duplicate);
    const cycle = index.cycleOf.get(row);
    if (cycle) issues.push(cycleIssue(index, draft, row, cycle));
    const reported = new Set<string>();
    for (const ref of consumedKeys(draft)) {
      if (reported.has(ref.name)) continue;
      reported.add(ref.name);
      const problem = referenceProblem(index, ref, row, cycle);
      if (problem) issues.push({ row, field: ref.field, ...problem });
    }
  }
  return issues;
}

export function hasErrors(issues: readonly MappingIssue[]): boolean {
  return issues.some((issue) => issue.severity === 'error');
}
