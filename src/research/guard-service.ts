// The spreadsheet's research spending cap: what the panels show (what is left under it, and who may change it) and
// the change itself. The cap is kept in the document's properties; the ledger tells what was spent.
import type { Research } from './context';
import type { SpendingGuardAnswer, SpendingGuardDto } from './contract';
import type { KeyValueStore } from '../ports';
import { formulaTokenOwner, SETTINGS_KEYS } from '../account/settings';
import { guardRoom, NO_CAP, readCap, type Calendar, type SpendingCap } from './spending-guard';
import { formatInSpreadsheetZone } from '../platform/spreadsheet';

const GUARD_KEY = 'sheetscout.research.cap';

/** The spreadsheet's calendar: days and months in its own time zone. */
export function spreadsheetCalendar(): Calendar {
  return {
    day: (ms) => formatInSpreadsheetZone(ms, 'yyyy-MM-dd'),
    month: (ms) => formatInSpreadsheetZone(ms, 'yyyy-MM'),
  };
}

export function storedCap(document: KeyValueStore): SpendingCap {
  try {
    const cap = readCap(JSON.parse(document.get(GUARD_KEY) ?? 'null') ?? NO_CAP);
    return typeof cap === 'string' ? NO_CAP : cap;
  } catch {
    return NO_CAP;
  }
}

/** The spending guard as the panels show it. */
export function guardDto(r: Research): SpendingGuardDto {
  const document = r.document;
  const room = guardRoom(storedCap(document), r.deps.ledger.load(), r.context.clock.now(), spreadsheetCalendar());
  const shared = document.get(SETTINGS_KEYS.formulaToken);
  const canEdit = !shared || shared === r.context.stores.user.get(SETTINGS_KEYS.token);
  const owner = formulaTokenOwner(document);
  return {
    ...room,
    canEdit,
    editNote: canEdit ? null : `Set by ${owner ?? 'the editor'} who shares their token with this spreadsheet`,
  };
}

/** Sets (or clears, with nulls) the cap; only the user who shares their token with the spreadsheet may. */
export function changeSpendingGuard(
  r: Research,
  request: { daily: number | null; monthly: number | null },
): SpendingGuardAnswer {
  const current = guardDto(r);
  if (!current.canEdit)
    return {
      ok: false,
      message: current.editNote ?? 'Only the editor who shares their token can change the cap',
      guard: current,
    };
  const cap = readCap(request);
  if (typeof cap === 'string') return { ok: false, message: cap, guard: current };
  if (cap.daily === null && cap.monthly === null) r.document.remove(GUARD_KEY);
  else r.document.set(GUARD_KEY, JSON.stringify(cap));
  return { ok: true, guard: guardDto(r) };
}
