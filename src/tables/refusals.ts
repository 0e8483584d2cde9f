// How the Tables problems are named and what the service's refusals say: each field's label (the dialog's and the
// answers'), the service's 422 details pinned onto the rows and fields they name, and the answer to a refused push or
// template save, naming the fields it marked (the dialog scrolls to the first).
import { userMessage, type ApiError } from '../api/errors';
import type { ValidationIssue } from '../api/types';
import { draftLabel, type ColumnDraft } from './model';
import type { IssueField, MappingIssue } from './validate';

/** How the dialog and the server's messages name each field of a column card. */
export const FIELD_LABELS: Record<IssueField, string> = {
  mapping: 'Mapping',
  kind: 'Kind',
  name: 'Name',
  key: 'Key',
  agentType: 'Agent type',
  outputFormat: 'Output format',
  prompt: 'Prompt',
  labels: 'Labels',
  outputSchema: 'Output schema',
  criterion: 'Criterion',
  roles: 'Roles',
  maxResults: 'Max results',
  emailColumnKey: 'E-mail column',
  extraJson: 'Extra fields',
  target: 'Target',
  position: 'Position',
};

const SERVICE_MESSAGE_MAX = 300;

const WIRE_FIELDS: Record<string, IssueField> = {
  name: 'name',
  key: 'key',
  kind: 'kind',
  agent_type: 'agentType',
  output_format: 'outputFormat',
  prompt: 'prompt',
  labels: 'labels',
  output_schema: 'outputSchema',
  criterion: 'criterion',
  roles: 'roles',
  max_results: 'maxResults',
  email_column_key: 'emailColumnKey',
};

/**
 * Pins each 422 detail onto the row whose config it names (`loc` [..., "column_configs", i, field...]); details
 * about `insert_after` go to the position, the rest to the whole mapping. The first field name of the path that the
 * dialog edits is marked (`value.output_schema.properties.name` is the schema, not the name); paths with no such
 * field land on the JSON editor of the unpublished kinds (where extra fields are typed), a bare index on the kind.
 */
export function pinValidationDetails(detail: readonly ValidationIssue[], rows: readonly number[]): MappingIssue[] {
  return detail.map((item) => {
    const loc = Array.isArray(item.loc) ? item.loc : [];
    const message = String(item.msg ?? 'Invalid').slice(0, SERVICE_MESSAGE_MAX);
    const at = loc.indexOf('column_configs');
    const index = at >= 0 ? loc[at + 1] : undefined;
    if (typeof index === 'number' && index >= 0 && index < rows.length) {
      const wireField = loc
        .slice(at + 2)
        .find((part): part is string => typeof part === 'string' && part in WIRE_FIELDS);
      const field: IssueField = wireField ? WIRE_FIELDS[wireField] : loc.length > at + 2 ? 'extraJson' : 'kind';
      return { row: rows[index], field, severity: 'error' as const, message: `Service: ${message}` };
    }
    if (loc.includes('insert_after'))
      return { row: null, field: 'position' as const, severity: 'error' as const, message: `Service: ${message}` };
    return {
      row: null,
      field: 'mapping' as const,
      severity: 'error' as const,
      message: `Service: ${message}${loc.length ? ` (${loc.join('.')})` : ''}`,
    };
  });
}

/** The answer to a refused push or template save: the 404's message, or the 422's details pinned and named. */
export function failure(
  error: ApiError,
  drafts: readonly ColumnDraft[],
  rows: readonly number[],
  issues: MappingIssue[],
  notFound: string,
): { status: 'failed'; message: string; ambiguous: false; issues: MappingIssue[] } {
  if (error.kind === 'not_found') {
    return {
      status: 'failed',
      ambiguous: false,
      message: notFound,
      issues: [...issues, { row: null, field: 'target', severity: 'error', message: notFound }],
    };
  }
  if (error.kind === 'validation') {
    const pinned = pinValidationDetails(error.detail, rows);
    const marked = [
      ...new Set(
        pinned.flatMap((issue) =>
          issue.row === null ? [] : [`${FIELD_LABELS[issue.field]} of "${draftLabel(drafts[issue.row])}"`],
        ),
      ),
    ];
    const message =
      marked.length > 0
        ? `The service refused the mapping: see the ${marked.length === 1 ? 'marked field' : `${marked.length} marked fields`}, ${marked.slice(0, 3).join(', ')}${marked.length > 3 ? ', …' : ''}`
        : (pinned[0]?.message ?? userMessage(error));
    return { status: 'failed', ambiguous: false, message, issues: [...issues, ...pinned] };
  }
  return { status: 'failed', ambiguous: false, message: userMessage(error), issues };
}
