// The plan of a launch, over the sheet as launch-sheet.ts read it: a queued record for each row to research, the rows
// left out and why (empty brief, over 20,000 characters, already running, already researched), the running records an
// explicit re-run detaches, and the rows whose shared key needs a row tag. Pure.
import type { JsonSchemaObject, TaskDepth } from '../../api/types';
import { renderBrief } from '../brief/brief-template';
import { cellDomain } from '../brief/brief-domains';
import type { LedgerEntry, OutputMapping, WatchMark } from '../records/ledger';
import { keyHeaderOf } from '../rows/row-locator';
import { rowsNeedingTags } from '../rows/row-tags';
import type { CreatePermits } from '../spending/create-permits';
import type { LaunchSheet } from './launch-sheet';

export interface LaunchPlanInput {
  sheetId: number;
  rows: number[];
  template: string;
  depth: TaskDepth;
  schema: JsonSchemaObject | null;
  mapping: OutputMapping;
  /** Re-run rows that already have a running task (the old task's result then goes to the ledger only). */
  rerun: boolean;
  /** Research again rows whose earlier task finished with a result in the row (the user confirmed the cost). */
  again: boolean;
  /**
   * With `rerun`: the accounts whose running tasks the user agreed to take off their rows (asked first, naming them;
   * '' for tasks whose launcher is not known). Another account's running task not named here is not touched.
   */
  replacing?: readonly string[];
  /** The account watch run this launch is (its records carry it). */
  watch?: WatchMark;
  /** The columns the results go to: made when missing, as the launch goes ahead; the brief may not read them. */
  outputHeaders?: string[];
}

export interface LaunchPlan {
  /** New records (state queued; rows that need a tag get its id when the launch goes ahead). */
  entries: LedgerEntry[];
  /** Older running records detached by an explicit re-run. */
  superseded: LedgerEntry[];
  skippedEmpty: number[];
  skippedRunning: number[];
  /**
   * Rows a re-run left alone because research another account launched runs there (null: its launcher is not known):
   * launched only when the user answers yes, naming whose it is.
   */
  othersRunning: Array<{ row: number; launchedBy: string | null }>;
  /** Rows that already hold a finished task's result, with when it finished: launched only when asked again. */
  skippedDone: Array<{ row: number; finishedAt: number }>;
  tooLong: Array<{ row: number; length: number }>;
  errors: string[];
  /** Rows whose key another row shares: they get a row tag (row-tags.ts). */
  rowsToTag: number[];
}

/** A new record for a launched row, queued (a row tag, when its key is shared, is added as the launch goes ahead). */
function queuedEntry(
  input: LaunchPlanInput,
  row: number,
  brief: string,
  rowValues: unknown[],
  key: { columns: number[]; headers: string[] },
  id: string,
  now: number,
): LedgerEntry {
  return {
    id,
    taskId: null,
    state: 'queued',
    row: {
      sheetId: input.sheetId,
      rowId: null,
      rowHint: row,
      keyHeaders: key.headers,
      keyValues: key.columns.map((column) => String(rowValues[column - 1] ?? '').trim()),
    },
    brief,
    depth: input.depth,
    schema: input.schema,
    mapping: input.mapping,
    iterations: 0,
    agents: 0,
    sources: 0,
    cost: 0,
    error: null,
    degradation: [],
    launchedAt: now,
    sentAt: null,
    updatedAt: now,
    finishedAt: null,
    written: false,
    shownStatus: '',
    detached: false,
    ...(input.watch ? { watch: input.watch } : {}),
  };
}

/**
 * Of a row's running records, the launcher of one that another account than `payer` launched and that the user's
 * answer did not name in `replacing` (undefined: none; null: its launcher is not known, named ''). Who launched a
 * task is what the document's properties say, never the ledger sheet alone.
 */
export function unansweredLauncher(
  permits: Pick<CreatePermits, 'launcherOf'>,
  payer: string,
  replacing: readonly string[],
  active: readonly LedgerEntry[],
): string | null | undefined {
  for (const entry of active) {
    const launcher = permits.launcherOf(entry);
    if (launcher !== payer && !replacing.includes(launcher ?? '')) return launcher;
  }
  return undefined;
}

const emptyPlan = (errors: string[] = []): LaunchPlan => ({
  entries: [],
  superseded: [],
  skippedEmpty: [],
  skippedRunning: [],
  othersRunning: [],
  skippedDone: [],
  tooLong: [],
  errors,
  rowsToTag: [],
});

/**
 * Builds the records of a launch paid from the account `payer` (its Sheet Scout e-mail address) from what was read of
 * the sheet (nothing is read, sent or written).
 */
export function planLaunch(sheet: LaunchSheet, input: LaunchPlanInput, payer: string, newId: () => string): LaunchPlan {
  if (sheet.errors.length > 0) return emptyPlan(sheet.errors);
  if (sheet.rows.length === 0) return emptyPlan(['Select one or more data rows (below the header row)']);
  const plan = emptyPlan();
  const briefs = new Map<number, string>();
  sheet.rows.forEach((row, i) => {
    const rendered = renderBrief(sheet.template, sheet.values[i] ?? [], cellDomain);
    if (rendered.kind === 'empty') plan.skippedEmpty.push(row);
    else if (rendered.kind === 'too_long') plan.tooLong.push({ row, length: rendered.length });
    else briefs.set(row, rendered.brief);
  });
  const key = {
    columns: sheet.template.columns,
    headers: sheet.template.columns.map((column) => keyHeaderOf(sheet.headers, column)),
  };
  sheet.rows.forEach((row, i) => {
    const brief = briefs.get(row);
    if (brief === undefined) return;
    const active = sheet.running.get(row) ?? [];
    if (active.length > 0) {
      if (!input.rerun) {
        plan.skippedRunning.push(row);
        return;
      }
      const unanswered = unansweredLauncher(sheet.launchers, payer, input.replacing ?? [], active);
      if (unanswered !== undefined) {
        plan.othersRunning.push({ row, launchedBy: unanswered });
        return;
      }
      plan.superseded.push(...active.map((entry) => ({ ...entry, detached: true, updatedAt: sheet.now })));
    } else {
      const results = input.again ? [] : (sheet.finished.get(row) ?? []);
      if (results.length > 0) {
        plan.skippedDone.push({ row, finishedAt: Math.max(...results.map((entry) => entry.finishedAt ?? 0)) });
        return;
      }
    }
    plan.entries.push(queuedEntry(input, row, brief, sheet.values[i] ?? [], key, newId(), sheet.now));
  });
  const launched = plan.entries.map((entry) => entry.row.rowHint);
  // Without key columns no row is told apart by its values: every launched row is tagged.
  plan.rowsToTag = key.columns.length > 0 ? rowsNeedingTags(launched, sheet.keyRows) : launched;
  return plan;
}
