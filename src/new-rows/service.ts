// "Keep enriching new rows" from the Enrich panel: the active sheet's state (what it fills, when it last ran, what is
// next, what runs it), turning it on (a sheet that was enriched: its domain column and the field columns finished jobs
// filled; never the add-in's hidden sheets; the timer reserved first, so that nothing is saved that no timer could run
// with the panels closed) with the list as it stands then (rows already there are Enrich's, rows added later are
// filled), and turning it off (its research with it; the timer goes when nothing else needs it).
import { noteDocumentChanged } from '../scheduler/changes';
import type { NewRowsAnswer, NewRowsDto, NewRowsProblem, NewRowsRequest } from './contract';
import type { NewRowsDeps } from './context';
import {
  chosenFields,
  detectDomainColumn,
  filledColumns,
  normalizeHeader,
  planTargetColumns,
  type EnrichedColumns,
  type EnrichSheet,
} from './enrichment-port';
import { profileFieldByKey, type ProfileField } from '../companies/profile-fields';
import { columnLetter } from '../shared/a1';
import { BUSY_MESSAGE } from '../shared/busy';
import { countRows, digestOf } from './rows';
import {
  CHECK_EVERY_MS,
  readCheckedAt,
  readSettings,
  readSpent,
  removeList,
  settingsWake,
  writeList,
  writeSetting,
  type NewRowsSetting,
} from './state';
import { budgetProblem, VALUE_OVERHEAD_BYTES } from '../shared/property-budget';
import { utf8Bytes } from '../shared/storage/chunked-store';
import { newRowsRun, researchDto, reservedIn } from './research';
import { savedRunProblem } from '../research/spending/saved-runs';
import { runFacts } from '../research/spending/run-facts';
import type { Result } from '../api/errors';
import type { User } from '../api/types';
import { capCalendar } from '../research/spending/calendar';
import { spreadsheetTimeZone } from '../platform/spreadsheet';
import { readStops } from '../scheduler/timer-stops';
import {
  isPending,
  removeTimerIfIdle,
  reserveTimer,
  servedByOtherEditor,
  wakeTimerAt,
  type TimerDeps,
} from '../scheduler/timer';

const OTHER_EDITOR_TIMER =
  "Runs on the timer another editor's Sheet Scout keeps in this spreadsheet (their lookups, 0 credits).";

/** What a sheet was enriched with: its domain column and the field columns finished jobs filled, or why none. */
export interface EnrichedSetup extends EnrichedColumns {
  values: unknown[][];
}

export function enrichedSetup(
  deps: Pick<NewRowsDeps, 'store' | 'sheets'>,
  sheet: EnrichSheet,
  requestedColumn?: number,
): EnrichedSetup | { message: string } {
  const notYet = `Nothing on "${sheet.name}" was enriched yet: enrich it first (Start above), then keep its new rows enriched.`;
  const values = sheet.readValues();
  const lastColumn = values.reduce((max, row) => Math.max(max, row.length), 0);
  if (values.length === 0) return { message: notYet };
  const fields = (chosenFields(deps.store, sheet.id) ?? [])
    .map((key) => profileFieldByKey(key))
    .filter((field): field is ProfileField => field !== undefined);
  const filledNextTo = (column: number) => filledColumns(deps.store, sheet.id, normalizeHeader(values[0][column - 1]));
  // The column asked for; else the one the selection points at, then any column next to which a job filled fields.
  const selected = detectDomainColumn(values, deps.sheets.active().selection, lastColumn);
  const candidates = requestedColumn
    ? [requestedColumn]
    : [
        ...(selected.ok ? [selected.column] : []),
        ...Array.from({ length: lastColumn }, (_, i) => i + 1).filter((column) => filledNextTo(column).size > 0),
      ];
  for (const candidate of candidates) {
    const detected = detectDomainColumn(values, deps.sheets.active().selection, lastColumn, candidate);
    if (!detected.ok) {
      if (requestedColumn) return { message: detected.message };
      continue;
    }
    if (detected.headerRow !== 1) continue;
    const filled = filledNextTo(detected.column);
    const targets = planTargetColumns(values[0], lastColumn, detected.column, detected.header, fields, true).filter(
      (target) => !target.isNew && filled.has(normalizeHeader(target.header)),
    );
    if (targets.length > 0)
      return {
        domainColumn: detected.column,
        domainHeader: detected.header,
        fields: targets.map((target) => target.field.key),
        headers: targets.map((target) => target.header),
        values,
      };
  }
  return { message: notYet };
}

/**
 * Makes sure a timer runs the checks: null when this user's does; what the panel says otherwise (another editor's runs
 * them; or why none can, `refuse` when none can with the panels closed).
 */
export function checkTimer(timer: TimerDeps): { note: string | null; refuse: boolean } {
  const problem = reserveTimer(timer, 'newRows');
  if (problem?.closedPanelsOnly) return { note: problem.message, refuse: true };
  if (problem) return { note: `${problem.message} Until it runs, run Enrich to fill new rows.`, refuse: false };
  return { note: servedByOtherEditor(timer) ? OTHER_EDITOR_TIMER : null, refuse: false };
}

/** The checks' failure in the timer's last runs (a slice that stopped: timer-stops.ts), as the panel shows a problem. */
function stoppedInTimer(deps: NewRowsDeps): NewRowsProblem | null {
  const stop = readStops(deps.store, deps.cache).find((stopped) => stopped.part === 'newRows');
  return stop ? { text: `The timer's checks stopped: ${stop.message}`, since: stop.since } : null;
}

/**
 * The active sheet's state for the panel (`timerNote` given: the timer was just reserved; `user`: the acting user's
 * account, when read, whose credits a row of research on new rows they pay must fit).
 */
export function newRowsState(
  deps: NewRowsDeps,
  timerNote?: string | null,
  user: Result<User> | null = null,
): NewRowsAnswer {
  const { sheet } = deps.sheets.active();
  if (sheet.targetProblem) return { ok: false, message: sheet.targetProblem };
  const setting = readSettings(deps.store).find((entry) => entry.sheetId === sheet.id);
  const base = { ok: true as const, sheetName: sheet.name, timeZone: spreadsheetTimeZone() };
  if (!setting) {
    const setup = enrichedSetup(deps, sheet);
    return { ...base, newRows: null, timerNote: null, wouldFill: 'message' in setup ? [] : setup.headers };
  }
  const month = capCalendar(deps.store).month(deps.clock.now());
  const checkedAt = readCheckedAt(deps.store);
  const dto: NewRowsDto = {
    sheetName: setting.sheetName,
    domainColumnLabel: `${columnLetter(setting.domainColumn)}: ${setting.domainHeader}`,
    domainHeader: setting.domainHeader,
    headers: setting.headers,
    since: setting.since,
    // The checks' time is the document's: one before this sheet was turned on is not this sheet's.
    lastCheckAt: checkedAt !== null && checkedAt >= setting.since ? checkedAt : null,
    nextCheckAt: checkedAt !== null && checkedAt >= setting.since ? checkedAt + CHECK_EVERY_MS : setting.since,
    lastFound: setting.lastFound,
    problem: setting.problem ?? stoppedInTimer(deps),
    totals: setting.totals,
    research: setting.research
      ? researchDto(
          setting.research,
          reservedIn(readSpent(deps.store, setting.sheetId), month),
          savedRunProblem(newRowsRun(setting.research, setting.sheetName), runFacts(deps.store, user)),
        )
      : null,
  };
  const note = timerNote === undefined ? checkTimer(deps.timer).note : timerNote;
  // Reserving the timer marks the checks due now: they stay due when they were (the next check after the last).
  if (timerNote === undefined && isPending(deps.timer, 'newRows'))
    wakeTimerAt(deps.timer, 'newRows', settingsWake(readSettings(deps.store), checkedAt) ?? null);
  return { ...base, newRows: dto, timerNote: note, wouldFill: setting.headers };
}

/** What a check may add to a setting later (its last check's figures, a problem's text). */
const SETTING_GROWTH_BYTES = 1024;

/** Whether one more sheet's setting fits the feature's storage budget (src/shared/property-budget.ts), or why not. */
function settingBudgetProblem(deps: NewRowsDeps, setting: NewRowsSetting): string | null {
  const bytes = utf8Bytes(JSON.stringify(setting)) + VALUE_OVERHEAD_BYTES + SETTING_GROWTH_BYTES;
  return budgetProblem(deps.store, {
    feature: 'newRows',
    growth: bytes,
    written: bytes,
    hint: 'Turn it off on a sheet that no longer needs it, or stop research saved on new rows there.',
  });
}

/** Turns it on or off for the active sheet. */
export function changeNewRows(deps: NewRowsDeps, request: NewRowsRequest): NewRowsAnswer {
  const { sheet } = deps.sheets.active();
  if (sheet.targetProblem) return { ok: false, message: `Nothing was saved. ${sheet.targetProblem}.` };
  if (!deps.lock.tryLock(10_000)) return { ok: false, message: BUSY_MESSAGE };
  try {
    const settings = readSettings(deps.store);
    const existing = settings.find((entry) => entry.sheetId === sheet.id);
    if (!request.on) {
      writeSetting(deps.store, sheet.id, null);
      noteDocumentChanged(deps.store, deps.clock.now());
      const left = settings.filter((entry) => entry.sheetId !== sheet.id);
      removeList(deps.records, sheet.id);
      if (left.length === 0) removeTimerIfIdle(deps.timer, 'newRows');
      else wakeTimerAt(deps.timer, 'newRows', settingsWake(left, readCheckedAt(deps.store)) ?? null);
      return newRowsState(deps, null);
    }
    if (existing) return newRowsState(deps);
    const setup = enrichedSetup(deps, sheet, request.domainColumn);
    if ('message' in setup) return { ok: false, message: setup.message };
    const known = countRows(setup.values, setup.domainColumn);
    const { values: _read, ...columns } = setup;
    const setting: NewRowsSetting = {
      sheetId: sheet.id,
      sheetName: sheet.name,
      ...columns,
      since: deps.clock.now(),
      digest: digestOf(known),
      waiting: 0,
      owed: 0,
      lastFound: null,
      problem: null,
      totals: { added: 0, filled: 0 },
      research: null,
    };
    const full = settingBudgetProblem(deps, setting);
    if (full) return { ok: false, message: full };
    const timer = checkTimer(deps.timer);
    if (timer.refuse) return { ok: false, message: `Nothing was saved. ${timer.note ?? ''}` };
    writeList(deps.records, sheet.id, { known, waiting: new Map(), owed: new Map() });
    writeSetting(deps.store, sheet.id, setting);
    noteDocumentChanged(deps.store, deps.clock.now());
    // Checked at the timer's next run, whenever the other sheets were last checked.
    wakeTimerAt(deps.timer, 'newRows', null);
    return newRowsState(deps, timer.note);
  } finally {
    deps.lock.release();
  }
}
