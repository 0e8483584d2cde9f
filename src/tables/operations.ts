// Push a sheet's mapping to a table as new columns, or save it as a template. Validates first (nothing is sent
// while an error remains), answers the service's refusals (refusals.ts), and guards the non-idempotent column
// creation: a push that got no clear answer is remembered, and the same columns are only sent to the same table
// again after the user confirms (as is a repeat of a push that already succeeded).
import type { ColumnRecord, CreateColumnsRequest, ReplaceTemplateRequest, Template } from '../api/types';
import type { ApiError } from '../api/errors';
import type { OperationDeps } from './ports';
import type { ColumnDraft } from './model';
import { buildConfigs } from './build';
import { COMPANY_TABLE_KEYS, hasErrors, validateMapping, type MappingIssue, type ValidationContext } from './validate';
import { failure } from './refusals';
import { insertAfter, readTableId, readTemplateId, type Position } from './targets';
import {
  clearPending,
  loadHistory,
  loadPending,
  markPending,
  saveHistory,
  type KnownColumn,
  type KnownTable,
  type TablesHistory,
} from './store';

export type PushOutcome =
  | { status: 'invalid'; message: string; issues: MappingIssue[] }
  | { status: 'confirm'; message: string; issues: MappingIssue[] }
  | { status: 'created'; tableId: string; columns: ColumnRecord[]; issues: MappingIssue[] }
  | { status: 'failed'; message: string; ambiguous: boolean; issues: MappingIssue[] };

export type TemplateOutcome =
  | { status: 'invalid'; message: string; issues: MappingIssue[] }
  | { status: 'confirm'; message: string; issues: MappingIssue[] }
  | { status: 'saved'; template: Template; issues: MappingIssue[] }
  | { status: 'failed'; message: string; issues: MappingIssue[] };

/** FNV-1a over the request: the same columns to the same place give the same fingerprint. */
export function fingerprint(textValue: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < textValue.length; index++) {
    hash ^= textValue.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${textValue.length.toString(36)}-${hash.toString(16)}`;
}

function isAmbiguous(error: ApiError): boolean {
  return error.kind === 'ambiguous' || ((error.kind === 'network' || error.kind === 'timeout') && error.maybeSent);
}

function knownTable(history: TablesHistory, tableId: string): KnownTable | undefined {
  return history.tables.find((table) => table.id === tableId);
}

const TABLE_KEYS_HINT = ' (if the table already has it, list it under "Keys already in the table")';

/**
 * Which keys of the table come before and after the new columns at `position`: the columns this document's pushes
 * created (their order is known), the keys the user says the table already has (`declared`: columns made elsewhere)
 * and the keys a company table has built in (company_name, ...: the service refuses them for other tables, and its
 * refusal is pinned on the prompt), taken to sit before an "end" or "after" position and after a "beginning" one.
 */
export function positionContext(
  table: Pick<KnownTable, 'columns'> | undefined,
  position: Position,
  listed: readonly string[] = [],
): ValidationContext {
  const keys = (table?.columns ?? []).map((column) => column.key);
  const declared = [...new Set([...listed, ...COMPANY_TABLE_KEYS])].filter((key) => !keys.includes(key));
  const unknownHint = TABLE_KEYS_HINT;
  if (position.at === 'beginning') return { existingBefore: [], existingAfter: [...keys, ...declared], unknownHint };
  const at =
    position.at === 'after' ? (table?.columns ?? []).findIndex((column) => column.id === position.columnId) : -1;
  if (at < 0) return { existingBefore: [...keys, ...declared], existingAfter: [], unknownHint };
  return { existingBefore: [...keys.slice(0, at + 1), ...declared], existingAfter: keys.slice(at + 1), unknownHint };
}

/** Reads the "keys already in the table" field: comma- or space-separated keys. */
export function readDeclaredKeys(raw: unknown): string[] {
  if (typeof raw !== 'string') return [];
  return [
    ...new Set(
      raw
        .split(/[\s,]+/)
        .map((key) => key.replace(/^\{|\}$/g, '').trim())
        .filter((key) => key !== ''),
    ),
  ];
}

/** The table's known columns after inserting `created` at `position`. */
export function placeColumns(
  columns: readonly KnownColumn[],
  created: readonly KnownColumn[],
  position: Position,
): KnownColumn[] {
  const kept = columns.filter((column) => !created.some((item) => item.id === column.id));
  if (position.at === 'beginning') return [...created, ...kept];
  if (position.at === 'after') {
    const at = kept.findIndex((column) => column.id === position.columnId);
    if (at >= 0) return [...kept.slice(0, at + 1), ...created, ...kept.slice(at + 1)];
  }
  return [...kept, ...created];
}

function timeText(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

export interface PushInput {
  drafts: readonly ColumnDraft[];
  tableInput: string;
  position: Position;
  /** Keys the user says the table already has (besides the columns this document pushed). */
  tableKeys?: readonly string[];
  /** The user confirmed sending columns that may already be in the table. */
  confirmRepeat?: boolean;
}

/** Creates the mapped columns in a table. Never sends while the mapping has errors; never re-sends blindly. */
export function pushToTable(deps: OperationDeps, input: PushInput): PushOutcome {
  const table = readTableId(input.tableInput);
  if (!table.ok)
    return {
      status: 'invalid',
      message: table.message,
      issues: [{ row: null, field: 'target', severity: 'error', message: table.message }],
    };
  const tableId = table.id;
  const history = loadHistory(deps.stores);
  const known = knownTable(history, tableId);
  const issues = validateMapping(input.drafts, positionContext(known, input.position, input.tableKeys));
  if (hasErrors(issues)) {
    const count = issues.filter((issue) => issue.severity === 'error').length;
    return { status: 'invalid', message: `Fix ${count} problem${count === 1 ? '' : 's'} before pushing`, issues };
  }
  const { configs, rows } = buildConfigs(input.drafts);
  const request: CreateColumnsRequest = { column_configs: configs, insert_after: insertAfter(input.position) };
  const print = fingerprint(JSON.stringify([tableId, request]));

  if (!input.confirmRepeat) {
    const pending = loadPending(deps.stores).find((item) => item.tableId === tableId && item.fingerprint === print);
    if (pending) {
      return {
        status: 'confirm',
        message: `A push of these columns to table ${tableId} at ${timeText(pending.startedAt)} got no clear answer: they may already be in the table. Check the table first; push again only if they are missing.`,
        issues,
      };
    }
    const earlier = known?.pushes.find((push) => push.fingerprint === print);
    if (earlier) {
      return {
        status: 'confirm',
        message: `These columns were already pushed to table ${tableId} at ${timeText(earlier.at)}. Pushing again creates them a second time.`,
        issues,
      };
    }
  }

  markPending(deps.stores, { tableId, fingerprint: print, startedAt: deps.clock.now(), state: 'sending' });
  const result = deps.api.createColumns(tableId, request);
  if (!result.ok) {
    if (isAmbiguous(result.error)) {
      markPending(deps.stores, { tableId, fingerprint: print, startedAt: deps.clock.now(), state: 'ambiguous' });
      return {
        status: 'failed',
        ambiguous: true,
        message:
          'No clear answer from the service: the columns may or may not have been created. Check the table before pushing again.',
        issues,
      };
    }
    clearPending(deps.stores, { tableId, fingerprint: print });
    return failure(
      result.error,
      input.drafts,
      rows,
      issues,
      'Table not found in your workspace: check the table ID or URL',
    );
  }
  clearPending(deps.stores, { tableId, fingerprint: print });
  const createdColumns = result.value.map((record) => ({
    id: record.id,
    key: String(record.config?.key ?? ''),
    name: String(record.config?.name ?? ''),
    kind: String(record.config?.kind ?? ''),
  }));
  const now = deps.clock.now();
  const updated: KnownTable = {
    id: tableId,
    columns: placeColumns(known?.columns ?? [], createdColumns, input.position),
    pushes: [...(known?.pushes ?? []), { fingerprint: print, at: now }],
    updatedAt: now,
  };
  saveHistory(deps.stores, { ...history, tables: [updated, ...history.tables.filter((item) => item.id !== tableId)] });
  return { status: 'created', tableId, columns: result.value, issues };
}

export interface TemplateInput {
  drafts: readonly ColumnDraft[];
  templateInput: string;
  /** Empty: the template keeps its name. */
  name: string;
  /** The user saw what is replaced and agreed. */
  confirmReplace: boolean;
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * What "Save as template" is about to replace, for the user to confirm. The service has no template read, so the
 * template's name and column count are those of this document's last save to it; a template never saved from here
 * is named by its ID.
 */
export function replaceTemplateQuestion(
  known: { name: string; columns: number } | undefined,
  templateId: string,
  included: number,
): string {
  const what = known
    ? `template "${known.name}" (${templateId}) and its ${plural(known.columns, 'column')}`
    : `every column of template ${templateId}`;
  return `This replaces ${what} with the ${plural(included, 'included column')}. Replace?`;
}

/** Replaces a template's column list with the mapping (PUT: safe to repeat), once the user confirmed it. */
export function saveAsTemplate(deps: OperationDeps, input: TemplateInput): TemplateOutcome {
  const target = readTemplateId(input.templateInput);
  if (!target.ok)
    return {
      status: 'invalid',
      message: target.message,
      issues: [{ row: null, field: 'target', severity: 'error', message: target.message }],
    };
  const issues = validateMapping(input.drafts, { template: true });
  if (hasErrors(issues)) {
    const count = issues.filter((issue) => issue.severity === 'error').length;
    return {
      status: 'invalid',
      message: `Fix ${count} problem${count === 1 ? '' : 's'} before saving the template`,
      issues,
    };
  }
  const { configs, rows } = buildConfigs(input.drafts);
  if (!input.confirmReplace) {
    const known = loadHistory(deps.stores).templates.find((item) => item.id === target.id);
    return { status: 'confirm', message: replaceTemplateQuestion(known, target.id, configs.length), issues };
  }
  const name = input.name.trim();
  const request: ReplaceTemplateRequest = name === '' ? { column_configs: configs } : { name, column_configs: configs };
  const result = deps.api.replaceTemplate(target.id, request);
  if (!result.ok)
    return failure(
      result.error,
      input.drafts,
      rows,
      issues,
      'Template not found in your workspace: check the template ID or URL',
    );
  const history = loadHistory(deps.stores);
  const template = result.value;
  const saved = {
    id: target.id,
    name: String(template.name ?? name),
    columns: Array.isArray(template.column_configs) ? template.column_configs.length : configs.length,
    savedAt: deps.clock.now(),
  };
  saveHistory(deps.stores, {
    ...history,
    templates: [saved, ...history.templates.filter((item) => item.id !== target.id)],
  });
  return { status: 'saved', template, issues };
}
