// What a launch reads, once, before it decides anything: the ledger (every record of this spreadsheet, which the
// spending cap counts), the target sheet's header row and whether it may be a target, the brief template resolved
// against it, the launched rows' values, the key columns of every row (to tell rows apart), where the sheet's earlier
// records are now (running, or finished with their result in the row), and, only when some row's key is shared, the
// row tags and the metadata room they take; and, when the user answered the offer of earlier results, the earlier
// result of each question the rows ask (reuse.ts: sealed records and reports within the period). Why the sheet cannot
// be planned for (gone, not the user's, a template naming a missing header or reading an output column) is found
// here. Nothing is written; plan.ts and preconditions.ts decide over this snapshot.
import { outputClashes, parseTemplate, type ResolvedTemplate } from '../brief/brief-template';
import { isPending, type LedgerEntry } from '../records/ledger';
import { locateEntries } from '../rows/write-back';
import { keysHeldElsewhere } from '../rows/row-tags';
import type { JobDeps } from '../polling/jobs';
import type { SpentByDay } from '../spending/spend-journal';
import type { Launchers } from '../spending/create-permits';
import type { GridPort } from '../ports';
import type { JsonSchemaObject, TaskDepth } from '../../api/types';
import type { ReuseChoice } from './launch-request';
import { questionsOf } from './questions';
import { earlierResults, periodStart, questionKeys, type EarlierResult } from './reuse';

/** What a launch of these rows of this sheet needs to know of the spreadsheet (see the file's header). */
export interface LaunchSheet {
  sheetId: number;
  /** Why nothing can be planned: the sheet is gone, may not be a target, or the template names a missing header. */
  errors: string[];
  headers: string[];
  template: ResolvedTemplate;
  /** The distinct data rows asked for, ascending, and their values (values[i] is rows[i]'s). */
  rows: number[];
  values: string[][];
  /** The template's columns' values for rows 2..last (keyRows[i] is row i + 2). */
  keyRows: string[][];
  /** Records of the sheet still running, by the row they are in now. */
  running: Map<number, LedgerEntry[]>;
  /** Who launched the running records' tasks (create-permits.ts), read for a re-run only (null: not known). */
  launchers: Pick<Launchers, 'launcherOf'>;
  /** Records of the sheet finished with their result written into the row they are in now. */
  finished: Map<number, LedgerEntry[]>;
  /** Every record of this spreadsheet, and what its journal counts by day (the spending cap weighs both). */
  ledger: LedgerEntry[];
  spentByDay: SpentByDay;
  /** The sheet's row tags (tag id -> row) and metadata room in use: read only when some asked row's key is shared. */
  tags: { rowIds: Map<string, number>; metadataUse: { sheet: number; spreadsheet: number } } | null;
  /** The earlier result of each question the rows ask, by question key (read only when the user answered the offer). */
  earlier: Map<string, EarlierResult>;
  now: number;
}

/** The header row of a launch's or a watch's sheet, or why it cannot be their target (gone, the add-in's own, hidden). */
export function targetHeaders(grid: Pick<GridPort, 'headers' | 'targetProblem'>, sheetId: number): string[] | string {
  const headers = grid.headers(sheetId);
  if (!headers) return 'That sheet no longer exists: reopen the panel';
  return grid.targetProblem(sheetId) ?? headers;
}

/** A finished task whose result was written into its row: researching that row again is paid again. */
const hasResultInRow = (entry: LedgerEntry) => entry.state === 'done' && entry.written;

/** The rows the records are in now (row -> records); records no row can be trusted with are left out. */
function byRow(records: LedgerEntry[], located: Map<string, number[]>): Map<number, LedgerEntry[]> {
  const rows = new Map<number, LedgerEntry[]>();
  for (const entry of records)
    for (const row of located.get(entry.id) ?? []) rows.set(row, [...(rows.get(row) ?? []), entry]);
  return rows;
}

const unplannable = (sheet: Omit<LaunchSheet, 'errors'>, errors: string[]): LaunchSheet => ({ ...sheet, errors });

/** The launch's target, rows, brief template, and the columns its results go to (the brief may not read them). */
export interface LaunchSheetInput {
  sheetId: number;
  rows: number[];
  template: string;
  outputHeaders?: string[];
  /** A re-run: who launched the rows' running tasks is read too. */
  rerun?: boolean;
  /** The question's depth and output schema, and the answer to the offer of earlier results (their period). */
  depth?: TaskDepth;
  schema?: JsonSchemaObject | null;
  reuse?: ReuseChoice;
}

/** Reads what a launch of `rows` of `sheetId` with this brief template needs (see LaunchSheet). */
export function readLaunchSheet(deps: JobDeps, input: LaunchSheetInput): LaunchSheet {
  const ledger = deps.ledger.load();
  const asked = [...new Set(input.rows)].filter((row) => row >= 2).sort((a, b) => a - b);
  const empty: Omit<LaunchSheet, 'errors'> = {
    sheetId: input.sheetId,
    headers: [],
    template: { parts: [], columns: [] },
    rows: asked,
    values: [],
    keyRows: [],
    running: new Map(),
    launchers: { launcherOf: () => null },
    finished: new Map(),
    ledger,
    spentByDay: deps.ledger.spentByDay(),
    tags: null,
    earlier: new Map(),
    now: deps.clock.now(),
  };
  const headers = targetHeaders(deps.grid, input.sheetId);
  if (typeof headers === 'string') return unplannable(empty, [headers]);
  const parsed = parseTemplate(input.template, headers);
  if (!parsed.ok) return unplannable({ ...empty, headers }, parsed.errors);
  const template = parsed.template;
  const clashes = outputClashes(input.outputHeaders ?? [], headers, template.columns);
  if (clashes.length > 0) return unplannable({ ...empty, headers }, clashes);
  const values = deps.grid.readRows(input.sheetId, asked);
  const keyRows = template.columns.length > 0 ? deps.grid.readColumns(input.sheetId, template.columns) : [];
  const records = ledger.filter(
    (entry) => entry.row.sheetId === input.sheetId && !entry.detached && (isPending(entry) || hasResultInRow(entry)),
  );
  const located = records.length > 0 ? locateEntries(deps.grid, input.sheetId, records) : new Map<string, number[]>();
  // Without key columns no row is told apart by its values: every launched row is tagged.
  const tagged = template.columns.length === 0 || keysHeldElsewhere(asked, keyRows);
  return {
    ...empty,
    errors: [],
    headers,
    template,
    values,
    keyRows,
    running: byRow(records.filter(isPending), located),
    launchers: input.rerun ? deps.permits.launchers() : { launcherOf: () => null },
    finished: byRow(records.filter(hasResultInRow), located),
    tags: tagged
      ? { rowIds: deps.grid.rowIds(input.sheetId), metadataUse: deps.grid.metadataUse(input.sheetId) }
      : null,
    earlier:
      input.reuse && input.depth
        ? earlierResults(
            ledger,
            new Set(
              questionKeys(questionsOf(template, asked, values).questions, input.depth, input.schema || null).values(),
            ),
            periodStart(deps.clock.now(), input.reuse.days),
            deps.reports,
          )
        : new Map(),
  };
}
