// "Write to selected row": imports a finished task (from this account, launched anywhere) into the active row. It asks
// first when the task is about another company than the row holds (naming both, from 0-credit lookups), or when its
// output is of the other kind than the panel's; then writes under the document lock, superseding the row's earlier
// records so a later poll does not overwrite the import.
import { researchContext, withLock, type Research } from '../context';
import type { WriteToRowRequest, WriteToRowResponse } from '../contract';
import { userMessage } from '../../api/errors';
import type { ResearchTask, TaskReport } from '../../api/types';
import { taskCost } from '../spending/depth';
import { locateEntries, releaseRowTags, rowNeedsWrite, writeRows } from './write-back';
import { newTagId } from './row-tags';
import { companyMismatch, domainsIn } from './row-match';
import type { LedgerEntry } from '../records/ledger';
import { jsonSchemaProblems } from '../brief/json-schema-check';
import { resolveOutput, type LaunchRequest } from '../launch/launch-request';
import { activeSpreadsheet } from '../../platform/spreadsheet';
import { BUSY_MESSAGE } from '../../shared/busy';

type ResolvedOutput = Extract<ReturnType<typeof resolveOutput>, { ok: true }>;

/** The output a task can be written with when the panel's output is of the other kind. */
function taskOutputRequest(task: ResearchTask, statusHeader: string): LaunchRequest['output'] {
  return task.report?.kind === 'schema'
    ? { kind: 'fields', statusHeader, schemaText: JSON.stringify(task.output_schema ?? { type: 'object' }) }
    : { kind: 'report', statusHeader, reportHeader: 'Research report', sourcesHeader: 'Research sources' };
}

/** Company names for domains, from lookups (0 credits); a domain the service cannot name stays a domain. */
function companyNames(r: Research, domains: string[]): Map<string, string> {
  const names = new Map(domains.map((domain) => [domain, domain]));
  r.context
    .userClient()
    .lookupCompanies(domains)
    .forEach((result, i) => {
      if (result.ok && result.value.state === 'ready' && result.value.profile.company_name)
        names.set(domains[i], result.value.profile.company_name);
    });
  return names;
}

/** The question asked before writing a task whose output is of the other kind than the panel's. */
function otherOutputQuestion(report: TaskReport): WriteToRowResponse {
  const fields = report.kind === 'schema' ? Object.keys(report.fields) : [];
  const question =
    report.kind === 'schema'
      ? `This task has ${fields.length} field${fields.length === 1 ? '' : 's'} (${fields.slice(0, 5).join(', ')}${fields.length > 5 ? ', …' : ''}). Write them into columns of those names?`
      : 'This task has a markdown report. Write it into the "Research report" and "Research sources" columns?';
  return {
    ok: false,
    message: question,
    ask: { kind: 'output', question, confirm: report.kind === 'schema' ? 'Write the fields' : 'Write the report' },
  };
}

export function writeTaskToRow(request: WriteToRowRequest): WriteToRowResponse {
  const refuse = (message: string): WriteToRowResponse => ({ ok: false, message, ask: null });
  const spreadsheet = activeSpreadsheet();
  const sheet = spreadsheet.getActiveSheet();
  const row = spreadsheet.getActiveCell().getRow();
  if (row < 2) return refuse('Select a data row (below the header row)');
  const r = researchContext();
  const result = r.deps.client.getTasks([request.taskId])[0];
  if (!result.ok) return refuse(userMessage(result.error));
  const task = result.value;
  const report = task.report;
  if (task.status !== 'done' || !report)
    return refuse(`This task is ${task.status.replace('_', ' ')}: only finished tasks can be written`);
  let outputRequest = request.output;
  if ((report.kind === 'markdown') !== (outputRequest.kind === 'report')) {
    if (!request.taskOutput) return otherOutputQuestion(report);
    outputRequest = taskOutputRequest(task, outputRequest.statusHeader);
  }
  const output = resolveOutput(outputRequest, jsonSchemaProblems);
  if (!output.ok) return refuse(output.errors[0]);
  const mismatch = companyMismatch(task.brief, r.deps.grid.readRows(sheet.getSheetId(), [row])[0] ?? []);
  const domains = mismatch ? [mismatch.taskDomain, mismatch.rowDomain] : domainsIn(task.brief).slice(0, 1);
  const names = domains.length > 0 ? companyNames(r, domains) : new Map<string, string>();
  if (mismatch && !request.otherCompany) {
    const question = `This task is about ${names.get(mismatch.taskDomain)} (${mismatch.taskDomain}), but row ${row} holds ${names.get(mismatch.rowDomain)} (${mismatch.rowDomain}). Write it into row ${row} anyway?`;
    return { ok: false, message: question, ask: { kind: 'company', question, confirm: 'Write anyway' } };
  }
  const rowName = mismatch ? names.get(mismatch.rowDomain) : domains[0] ? names.get(domains[0]) : null;
  const written = importTaskIntoRow(r, task, report, output, sheet.getSheetId(), row);
  return written.ok
    ? {
        ok: true,
        message: `Wrote the ${report.kind === 'schema' ? 'fields' : 'report'} into row ${row}${rowName ? ` (${rowName})` : ''}`,
        ask: null,
      }
    : refuse(written.message);
}

/** The ledger record of an imported task: done, in `row` (tagged), to be written by the usual write-back. */
function importedEntry(
  r: Research,
  task: ResearchTask,
  output: ResolvedOutput,
  sheetId: number,
  row: number,
): LedgerEntry {
  const rowId =
    r.deps.grid
      .tagRows(sheetId, [row], () => newTagId(r.deps.newId, new Set(r.deps.grid.rowIds(sheetId).keys())))
      .get(row) ?? null;
  const now = r.context.clock.now();
  const entry: LedgerEntry = {
    id: r.deps.newId(),
    taskId: task.id,
    state: 'done',
    row: { sheetId, rowId, rowHint: row, keyHeaders: [], keyValues: [] },
    brief: task.brief,
    depth: task.depth,
    schema: task.output_schema ?? null,
    mapping: output.mapping,
    iterations: task.iterations,
    agents: task.agents,
    sources: task.sources,
    cost: taskCost('done', task.agents),
    error: null,
    degradation: task.report?.degradation_reasons ?? [],
    launchedAt: now,
    sentAt: null,
    updatedAt: now,
    finishedAt: now,
    written: false,
    shownStatus: '',
    detached: false,
    imported: true,
  };
  return entry;
}

/** Writes a finished task into `row` under the document lock, superseding the row's earlier records. */
function importTaskIntoRow(
  r: Research,
  task: ResearchTask,
  report: TaskReport,
  output: ResolvedOutput,
  sheetId: number,
  row: number,
): { ok: boolean; message: string } {
  return withLock<{ ok: boolean; message: string }>(
    r,
    30000,
    () => ({ ok: false, message: BUSY_MESSAGE }),
    () => {
      r.deps.grid.ensureHeaders(sheetId, output.headers);
      r.deps.ledger.load();
      // Earlier records of this row alone are superseded, so a later poll does not overwrite the imported result (a
      // record whose question other rows ask too keeps them).
      const current = r.deps.ledger.all().filter((e) => e.row.sheetId === sheetId && !e.detached);
      const located = locateEntries(r.deps.grid, sheetId, current);
      const superseded = current
        .filter((e) => located.get(e.id)?.join() === String(row))
        .map((e) => ({ ...e, detached: true, written: true }));
      const entry = importedEntry(r, task, output, sheetId, row);
      r.deps.reports.putAll([{ taskId: task.id, report }]);
      r.deps.ledger.save([...superseded, entry]);
      r.deps.ledger.save(writeRows(r.deps, [entry].filter(rowNeedsWrite), new Map([[task.id, report]])));
      releaseRowTags(r.deps, [sheetId]);
      return { ok: true, message: '' };
    },
  );
}
