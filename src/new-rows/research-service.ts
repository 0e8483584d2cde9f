// Research on new rows from the Enrich panel (research.ts holds the rules): saving it on a sheet that keeps enriching
// its new rows, with its brief, depth, output and monthly limit, the figures confirmed first (nothing is saved until
// the user confirms what a row and a month may cost; a changed depth or limit asks again), the confirmer's own timer
// made (their account pays, so their timer launches) before anything is saved; and stopping it. Its terms are held to
// the storage budgets (src/shared/property-budget.ts: a saved research's size, what each editor and the feature keep
// in the document's properties), refused with the figures before anything is saved. Rows already on the sheet, or
// filled before it was saved, are never owed to it.
import { noteDocumentChanged } from '../scheduler/changes';
import { researchContext, withLock, type Research } from '../research/context';
import { jsonSchemaProblems } from '../research/brief/json-schema-check';
import { resolveOutput } from '../research/launch/launch-request';
import { outputClashes } from '../research/brief/brief-template';
import { parseTemplate } from '../research/brief/brief-template';
import { reservationFor } from '../research/spending/depth';
import { targetHeaders } from '../research/launch/launch-sheet';
import { storedCap } from '../research/spending/guard-service';
import { userMessage } from '../api/errors';
import { myTimers, reserveTimer } from '../scheduler/timer';
import { BUSY_MESSAGE } from '../shared/busy';
import type { NewRowsResearchAnswer, NewRowsResearchRequest } from './contract';
import type { NewRowsDeps } from './context';
import { confirmFigures, isConfirmed, limitProblem, type NewRowsResearch } from './research';
import { readList, readSetting, readSettings, termsBytes, writeList, writeSetting, type NewRowsSetting } from './state';
import { budgetProblem, kb, SAVED_RESEARCH_BYTES, VALUE_OVERHEAD_BYTES } from '../shared/property-budget';
import { utf8Bytes } from '../shared/storage/chunked-store';
import { newRowsState } from './service';

const refused = (message: string): NewRowsResearchAnswer => ({ ok: false, message });

/** The output, brief and figures of a request checked against the sheet: what to save, or the refusal. */
function checkedResearch(
  deps: NewRowsDeps,
  r: Research,
  sheetId: number,
  request: NewRowsResearchRequest,
): Omit<NewRowsResearch, 'savedBy' | 'confirmedAt' | 'timer' | 'lastRun'> | { message: string } {
  const setting = readSetting(deps.store, sheetId);
  if (!setting) return { message: 'Turn on "Keep enriching new rows" first: research runs on the rows it fills.' };
  const output = resolveOutput(request.output, jsonSchemaProblems);
  if (!output.ok) return { message: output.errors[0] ?? 'Check the output columns' };
  const headers = targetHeaders(r.deps.grid, sheetId);
  if (typeof headers === 'string') return { message: headers };
  const template = parseTemplate(request.template, headers);
  if (!template.ok) return { message: template.errors[0] ?? 'Check the brief' };
  if (template.template.columns.length === 0)
    return { message: 'The brief must name a column (like {Domain}): each new row is researched from its values.' };
  const clashes = outputClashes(output.headers, headers, template.template.columns);
  if (clashes.length > 0) return { message: clashes[0] };
  const filled = output.headers.find((header) => setting.headers.includes(header));
  if (filled)
    return { message: `"${filled}" is filled by Keep enriching new rows: choose another column for the research.` };
  const creditsPerRow = reservationFor(request.depth);
  const problem = limitProblem(request.monthlyLimit, creditsPerRow, storedCap(r.document));
  if (problem) return { message: problem };
  const checked = {
    template: request.template,
    depth: request.depth,
    schema: output.schema,
    mapping: output.mapping,
    headers: output.headers,
    creditsPerRow,
    monthlyLimit: request.monthlyLimit,
  };
  return sizeProblem(checked) ?? checked;
}

/** Who saved it and when, as kept with the terms (counted before the saver is known: the longest e-mail). */
const SAVER_BYTES = 320;

/** Refuses terms larger than a saved research may be (before its cost is asked to be confirmed). */
function sizeProblem(terms: object): { message: string } | null {
  const bytes = utf8Bytes(JSON.stringify(terms)) + SAVER_BYTES;
  if (bytes <= SAVED_RESEARCH_BYTES) return null;
  return {
    message:
      `Nothing was saved: this brief and its output take ${kb(bytes)} of Sheet Scout's storage in this spreadsheet, ` +
      `and research saved on new rows may take ${kb(SAVED_RESEARCH_BYTES)}. Shorten the brief or the fields' ` +
      'descriptions.',
  };
}

const storedBytes = (research: NewRowsResearch | null | undefined) =>
  research ? termsBytes(research) + VALUE_OVERHEAD_BYTES : 0;

/**
 * Whether saving `research` on the sheet keeps research on new rows within its storage budgets: what its saver keeps
 * on every sheet, and the feature's in all (src/shared/property-budget.ts). The refusal, or null.
 */
function researchBudgetProblem(deps: NewRowsDeps, current: NewRowsSetting, research: NewRowsResearch): string | null {
  const bytes = storedBytes(research);
  const saver = research.savedBy;
  const elsewhere = readSettings(deps.store)
    .filter((setting) => setting.sheetId !== current.sheetId && setting.research?.savedBy === saver)
    .reduce((sum, setting) => sum + storedBytes(setting.research), 0);
  const mineHere = current.research?.savedBy === saver ? storedBytes(current.research) : 0;
  return budgetProblem(deps.store, {
    feature: 'newRows',
    growth: bytes - storedBytes(current.research),
    written: bytes,
    editor: { name: saver, before: elsewhere + mineHere, after: elsewhere + bytes },
    hint: "Stop research on another sheet's new rows, or shorten the brief or the fields' descriptions.",
  });
}

/** Saves research on the active sheet's new rows once its figures are confirmed (answered with them until then). */
export function saveNewRowsResearch(deps: NewRowsDeps, request: NewRowsResearchRequest): NewRowsResearchAnswer {
  const { sheet } = deps.sheets.active();
  if (sheet.targetProblem) return refused(`Nothing was saved. ${sheet.targetProblem}.`);
  const r = researchContext();
  const checked = checkedResearch(deps, r, sheet.id, request);
  if ('message' in checked) return refused(checked.message);
  const figures = confirmFigures(checked.monthlyLimit, checked.creditsPerRow);
  if (!isConfirmed(request.confirmed, figures))
    return { ok: true, message: 'Confirm the cost to save it.', confirm: figures, state: newRowsState(deps) };
  const user = r.deps.client.getUser();
  if (!user.ok) return refused(userMessage(user.error));
  return withStoredSetting(deps, r, sheet.id, (current, replaceResearch) => {
    if (!current) return refused('"Keep enriching new rows" was turned off meanwhile: nothing was saved.');
    const research: NewRowsResearch = {
      ...checked,
      savedBy: user.value.email,
      confirmedAt: r.context.clock.now(),
      timer: null,
      lastRun: current.research?.lastRun ?? null,
    };
    const tooLarge = researchBudgetProblem(deps, current, research);
    if (tooLarge) return refused(tooLarge);
    const timer = reserveTimer(r.trigger, 'newRows', { ownTimer: true });
    if (timer?.blocksSpending || timer?.closedPanelsOnly) return refused(`Nothing was saved. ${timer.message}`);
    r.deps.grid.ensureHeaders(sheet.id, checked.headers);
    replaceResearch({ ...research, timer: myTimers(r.trigger)[0] ?? null });
    const note = timer ? ` ${timer.message} New rows are researched when the timer runs.` : '';
    return {
      ok: true,
      message:
        `Researching the new rows of "${sheet.name}": up to ${figures.creditsPerRow} credits a row, at most ` +
        `${figures.monthlyLimit} credits a month, paid by ${user.value.email}.${note}`,
      confirm: null,
      state: newRowsState(deps, undefined, user),
    };
  });
}

/**
 * Runs `act` under the research lock on the sheet's setting as stored now (undefined when it has none), with a way to
 * replace the setting's research (null: none). A replaced research owes nothing: rows filled before it was saved, or
 * under an earlier one, are not owed to it.
 */
function withStoredSetting(
  deps: NewRowsDeps,
  r: Research,
  sheetId: number,
  act: (
    current: NewRowsSetting | undefined,
    replaceResearch: (research: NewRowsResearch | null) => void,
  ) => NewRowsResearchAnswer,
): NewRowsResearchAnswer {
  return withLock(
    r,
    30_000,
    () => refused(BUSY_MESSAGE),
    () => {
      const current = readSetting(deps.store, sheetId) ?? undefined;
      return act(current, (research) => {
        if (current) writeSetting(deps.store, sheetId, { ...current, research, owed: 0 });
        noteDocumentChanged(deps.store, r.context.clock.now());
        const list = readList(deps.records, sheetId);
        if (list && list.owed.size > 0) writeList(deps.records, sheetId, { ...list, owed: new Map() });
      });
    },
  );
}

/** Stops research on the active sheet's new rows (the rows keep being filled). */
export function stopNewRowsResearch(deps: NewRowsDeps): NewRowsResearchAnswer {
  const { sheet } = deps.sheets.active();
  return withStoredSetting(deps, researchContext(), sheet.id, (current, replaceResearch) => {
    if (!current?.research) return refused('Research on new rows is not on for this sheet.');
    replaceResearch(null);
    return { ok: true, message: 'Stopped researching new rows.', confirm: null, state: newRowsState(deps) };
  });
}
