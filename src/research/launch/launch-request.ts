// What the Research panel sends (plain JSON over google.script.run) and its validation into a schema and an output
// mapping: headers for status, report and sources, or one column per schema field (built in the field builder or
// pasted), defaulting to the field's name. Pure; the panel runs the same checks before sending, and the server adds
// its full JSON Schema check of a pasted schema (`validate`, see json-schema-check.ts).
import type { JsonSchemaObject, TaskDepth } from '../../api/types';
import type { OutputMapping } from '../records/ledger';
import {
  buildSchema,
  parsePastedSchema,
  schemaFields,
  type FieldSpec,
  type JsonSchemaCheck,
} from '../brief/output-schema';

export type OutputRequest =
  | {
      kind: 'report';
      statusHeader: string;
      reportHeader: string;
      /** null: sources go in the report cell's note. */ sourcesHeader: string | null;
    }
  | {
      kind: 'fields';
      statusHeader: string;
      /** Field builder rows; ignored when `schemaText` is given. */
      fields?: FieldSpec[];
      /** A pasted JSON Schema. */
      schemaText?: string;
      /** Field name -> column header (missing: the field name). */
      columns?: Record<string, string>;
    };

export interface LaunchRequest {
  template: string;
  depth: TaskDepth;
  output: OutputRequest;
  /** Start new tasks even for rows that already have one running. */
  rerun?: boolean;
  /** Research again rows that already hold a finished task's result (asked first, with the cost). */
  again?: boolean;
  /**
   * With `rerun`: the accounts whose running research the user agreed to take off their rows, as the question named
   * them ('' for research whose launcher Sheet Scout cannot tell).
   */
  replacing?: string[];
  /**
   * The user's answer to the offer of earlier results (reuse.ts), when the preview made one: the period it counted
   * over, whether to use those results (0 credits) or research those questions again, and how many tasks the preview
   * said the launch pays for with that answer (a launch that would pay for more sends nothing). Absent: no offer was
   * answered, and nothing earlier is reused.
   */
  reuse?: ReuseChoice;
}

/** The periods the panel offers earlier results over (days), and the one it starts with. */
export const REUSE_PERIODS_DAYS: readonly number[] = [7, 14, 30];
export const DEFAULT_REUSE_DAYS = 30;

/** The answer to the offer of earlier results (see LaunchRequest.reuse). */
export interface ReuseChoice {
  /** Results that finished within this many days (one of REUSE_PERIODS_DAYS). */
  days: number;
  /** true: use them (0 credits); false: research those questions again (paid). */
  use: boolean;
  /** The tasks the preview said the launch pays for with this answer. */
  tasks: number;
}

export type ResolvedOutput =
  | { ok: true; schema: JsonSchemaObject | null; mapping: OutputMapping; headers: string[] }
  | { ok: false; errors: string[] };

const HEADER_MAX = 100;

function header(value: unknown): string {
  return typeof value === 'string' ? value.trim().replace(/\s+/g, ' ') : '';
}

/** The schema, column mapping and headers of an output request; `validate` checks a pasted schema in full. */
export function resolveOutput(output: OutputRequest | undefined, validate?: JsonSchemaCheck): ResolvedOutput {
  if (!output || (output.kind !== 'report' && output.kind !== 'fields'))
    return { ok: false, errors: ['Choose an output: Report or Fields'] };
  const errors: string[] = [];
  const statusHeader = header(output.statusHeader);
  if (!statusHeader) errors.push('Name the status column');
  if (output.kind === 'report') {
    const reportHeader = header(output.reportHeader);
    const sourcesHeader = output.sourcesHeader === null ? null : header(output.sourcesHeader) || null;
    if (!reportHeader) errors.push('Name the report column');
    const all = [statusHeader, reportHeader, ...(sourcesHeader ? [sourcesHeader] : [])].filter(Boolean);
    if (new Set(all).size !== all.length) errors.push('Status, report and sources need different columns');
    if (all.some((h) => h.length > HEADER_MAX)) errors.push(`Column names are limited to ${HEADER_MAX} characters`);
    if (errors.length > 0) return { ok: false, errors };
    return {
      ok: true,
      schema: null,
      mapping: { kind: 'report', statusHeader, reportHeader, sourcesHeader },
      headers: all,
    };
  }
  const built =
    output.schemaText !== undefined && output.schemaText.trim() !== ''
      ? parsePastedSchema(output.schemaText, validate)
      : buildSchema(output.fields ?? []);
  if (!built.ok) return { ok: false, errors: [...errors, ...built.errors] };
  const fields = schemaFields(built.schema).map((field) => ({
    name: field.name,
    header: header(output.columns?.[field.name]) || field.name,
  }));
  const headers = [statusHeader, ...fields.map((field) => field.header)];
  if (new Set(headers).size !== headers.length) errors.push('Each field and the status need their own column');
  if (headers.some((h) => h.length > HEADER_MAX)) errors.push(`Column names are limited to ${HEADER_MAX} characters`);
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, schema: built.schema, mapping: { kind: 'fields', statusHeader, fields }, headers };
}
