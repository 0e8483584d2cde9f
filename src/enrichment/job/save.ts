// A running job's save: the rows passed since the last one get their results, written only into their own cells
// (sheet/cell-writes.ts) after one read of those rows shows they still hold the domains they were read with (else
// rows moved: the execution takes its rows again from the sheet and the enrichment dates, and the results go where
// their domains are now); a cell the user filled meanwhile is left alone, as is a formula. Rows behind a domain whose
// retry falls due before the next save wait for it, so that the rows go out in one write. Then the new lookups into
// the cache, one commit, and the job's record in one write; the domains' dates as the execution ends. A crash before
// the record is written loses no result (the rows it wrote read as done) and at most one save interval of lookups.
import { invalidDomainMessage } from '../../shared/domain/domain';
import { safeText, type CellValue } from '../../shared/cell-values';
import { cellWrites, setUpdate, type CellUpdates } from '../sheet/cell-writes';
import { isEmptyOrMark, outcomeCells } from '../sheet/rows';
import { writtenFingerprint } from '../sheet/refresh-changes';
import { prefixFingerprint } from '../sheet/job-view';
import { cancelled, saveJob, stopRequested } from './job-state';
import { storeLookups } from './lookups';
import { formulaAt, readColumns, readJobSheet } from './job-sheet';
import type { JobExecution } from './execution';
import { LIMITS } from './limits';

/** The job's dates since it started: the domains it finished (rows moved: see sheet/job-view.ts). */
export function finishedDomains(ex: JobExecution): Set<string> {
  const { deps, job } = ex;
  deps.dates.prepare();
  const done = new Set<string>();
  for (const [domain, entry] of deps.dates.read(job.sheetId)) if (entry.at >= job.startedAt) done.add(domain);
  return done;
}

/** Takes the rows again from the sheet after rows moved; counts the rows that went; false when a column went. */
export function relocate(ex: JobExecution): boolean {
  const before = ex.remaining();
  const state = readJobSheet(ex.state.sheet, ex.job, true);
  if ('message' in state) {
    ex.job.status = 'paused';
    ex.job.message = state.message;
    return false;
  }
  ex.state = state;
  ex.job.moved = true;
  ex.view(false, finishedDomains(ex));
  ex.job.counts.deleted += Math.max(0, before - ex.remaining());
  return true;
}

/**
 * The cells the rows to write hold now (the domain column, and the field columns the job did not add: it owns those it
 * added while it runs): one read; null when a row no longer holds its domain (rows moved).
 */
function currentCells(ex: JobExecution): Map<number, unknown[]> | null {
  const { state, job } = ex;
  const first = Math.min(...ex.toWrite);
  const last = Math.max(...ex.toWrite);
  const kept = state.targets.filter((_column, i) => !job.added[i]);
  const current = readColumns(state.sheet, [state.domainColumn, ...kept], first, last);
  const keys = current.get(state.domainColumn) ?? [];
  const moved = ex.toWrite.some((index) => String(keys[index] ?? '') !== String(state.keys[index] ?? ''));
  return moved ? null : current;
}

/** The writes of the rows to write, over the cells they hold now; counts the rows and dates their domains. */
function updatesOf(
  ex: JobExecution,
  current: Map<number, unknown[]>,
): { updates: CellUpdates; dated: Map<string, Record<string, string>> } {
  const { job, state, fields } = ex;
  const updates: CellUpdates = new Map();
  const dated = new Map<string, Record<string, string>>();
  const cellNow = (index: number, column: number) => current.get(column)?.[index] ?? '';
  const free = (index: number, column: number) =>
    job.overwrite || (isEmptyOrMark(cellNow(index, column)) && !formulaAt(state, index, column));
  for (const index of ex.toWrite) {
    const key = state.rowKeys[index];
    if (key.kind === 'invalid') {
      const column = state.targets[0];
      const text = safeText(invalidDomainMessage(key.input));
      const now = cellNow(index, column);
      if (now !== text && now !== invalidDomainMessage(key.input) && free(index, column))
        setUpdate(updates, index, column, text);
      continue;
    }
    if (key.kind !== 'domain') continue;
    const outcome = ex.results.get(key.domain);
    if (!outcome) continue;
    const cells = outcomeCells(outcome, fields);
    let wrote = false;
    state.targets.forEach((column, i) => {
      if (!free(index, column)) return;
      setUpdate(updates, index, column, cells[i]);
      wrote = true;
    });
    if (!wrote) continue;
    if (outcome.kind === 'profile') job.counts.written++;
    else if (outcome.kind === 'not_found') job.counts.notFound++;
    else if (outcome.kind === 'enriching') job.counts.gaveUp++;
    else job.counts.errors++;
    if (outcome.kind === 'profile' || outcome.kind === 'not_found')
      dated.set(key.domain, Object.fromEntries(fields.map((field, i) => [field.key, writtenFingerprint(cells[i])])));
  }
  return { updates, dated };
}

/** The rows to write now: all of them at the last save, else those before a gap that closes before the next save. */
function rowsNow(ex: JobExecution, last: boolean): number[] {
  if (last) return ex.toWrite;
  const soon = ex.deps.clock.now() + LIMITS.saveIntervalMs;
  let gap = Infinity;
  for (const entry of ex.job.retries)
    if (entry.at <= soon) for (const index of ex.rows.awaiting.get(entry.d) ?? []) gap = Math.min(gap, index);
  const first = Math.min(...ex.toWrite);
  return gap > first ? ex.toWrite.filter((index) => index < gap) : ex.toWrite;
}

/** Writes the rows passed since the last save (and the added columns' headers with the first). */
function writeRows(ex: JobExecution, last: boolean): boolean {
  ex.advance();
  const held = new Set(ex.toWrite);
  const now = ex.toWrite.length > 0 ? rowsNow(ex, last) : [];
  for (const index of now) held.delete(index);
  ex.toWrite = now;
  try {
    return writeSome(ex);
  } finally {
    ex.toWrite.push(...held);
  }
}

function writeSome(ex: JobExecution): boolean {
  const { deps, job } = ex;
  if (ex.toWrite.length === 0 && !job.headersPending) return false;
  let current = ex.toWrite.length > 0 ? currentCells(ex) : new Map<number, unknown[]>();
  if (current === null) {
    if (!relocate(ex)) return false;
    current = ex.state.columns;
  }
  const { updates, dated } = updatesOf(ex, current);
  if (job.headersPending)
    job.headers.forEach((header, i) => {
      if (job.added[i]) setUpdate(updates, 0, ex.state.targets[i], header as CellValue);
    });
  deps.dates.prepare();
  for (const write of cellWrites(updates)) ex.state.sheet.writeValues(write.row, write.column, write.values);
  for (const [domain, written] of dated) {
    ex.dated.set(domain, written);
    ex.written.add(domain);
  }
  job.headersPending = false;
  ex.toWrite = [];
  return updates.size > 0;
}

/** How often a running execution reads the stop mark (a cancel from a panel is honoured by then). */
const STOP_CHECK_MS = 30_000;

/**
 * Saves: the rows, the dates, the cache, one commit, and (unless `record` is false: the caller writes it once it has
 * set the continuation) the job's record. A stop asked for meanwhile cancels the job instead.
 */
export function saveExecution(ex: JobExecution, record = true): void {
  const { deps } = ex;
  const last = !record;
  const wrote = writeRows(ex, last);
  // A job that ends now ends done, whatever a late cancel asked; a running one reads the stop mark now and then.
  const now = deps.clock.now();
  const ending = last && ex.finished() && ex.toWrite.length === 0;
  const check = !ending && (last || now - ex.stopCheckedAt >= STOP_CHECK_MS);
  const stop = check ? stopRequested(deps.store, ex.job) : null;
  if (check) ex.stopCheckedAt = now;
  if (stop !== null) {
    ex.stopped = true;
    ex.job = cancelled(ex.job, stop);
  }
  // The domains written in this execution are dated as it ends (one write).
  const dating = (last || ex.stopped) && ex.dated.size > 0;
  if (dating) {
    deps.dates.record(ex.job.sheetId, ex.dated, now);
    ex.dated.clear();
  }
  if (ex.session) storeLookups(ex.session, deps.clock.now());
  deps.cacheWrites.flush();
  if (wrote || dating) ex.state.sheet.commit();
  const { job } = ex;
  job.cursor = ex.cursor();
  job.prefix = prefixFingerprint(ex.state.keys, job.cursor);
  job.moreRows = ex.frontier < ex.rows.todo.length;
  job.remaining = ex.remaining();
  job.chunks++;
  job.updatedAt = deps.clock.now();
  ex.lastSave = job.updatedAt;
  if (record) saveJob(deps.store, job);
}
