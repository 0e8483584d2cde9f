// Entry points of the formulas feature, exposed as globals by main.ts: the three custom functions and the two menu
// actions. Each builds its execution's environment (document cache, clock, formula connection, breaker, time
// budget) from the app context and hands over to the logic modules.
import type { FormulaResult } from './cell-text';
import { CUSTOM_FUNCTION_LIMITS, type FormulaLimits } from './ports';
import { formulaContext } from './context';
import { readBoolean } from './arguments';
import { companyLookup } from './lookup';
import { sortedAwayText } from './placement';
import { freezeMessage, freezeSelection, refreshMessage, refreshPending } from './menu-actions';
import { companySearch, similarCompanies } from './search';
import { activeFormulaBook, callingCell } from '../platform/sheets/functions';
import { toast } from '../platform/spreadsheet';

/** A menu execution has 6 minutes: prefetching stops starting batches at 4 and ends retries by 5. */
const MENU_LIMITS: FormulaLimits = {
  stopFetchingAfterMs: 4 * 60_000,
  endRoundsByMs: 5.5 * 60_000,
  deadlineMs: 5 * 60_000,
  batchSize: 50,
};

export function COMPANY_LOOKUP(domain: unknown, fields?: unknown, withHeader?: unknown): FormulaResult {
  // A range's rows follow its inputs only from the range's first row: after a sort moved the formula, say so.
  if (Array.isArray(domain) && domain.length > 1) {
    const header = readBoolean(withHeader, 'with_header', false);
    const sortedAway = sortedAwayText(callingCell(), header.ok && header.value);
    if (sortedAway) return [[sortedAway]];
  }
  return companyLookup(domain, fields, withHeader, formulaContext(CUSTOM_FUNCTION_LIMITS));
}

export function SIMILAR(domain: unknown, limit?: unknown, filters?: unknown): FormulaResult {
  return similarCompanies(domain, limit, filters, formulaContext(CUSTOM_FUNCTION_LIMITS));
}

export function COMPANY_SEARCH(query: unknown, limit?: unknown, filters?: unknown): FormulaResult {
  return companySearch(query, limit, filters, formulaContext(CUSTOM_FUNCTION_LIMITS));
}

/** Menu: Formulas > Freeze formulas to values. */
export function freezeFormulasToValues(): void {
  toast(freezeMessage(freezeSelection(activeFormulaBook())));
}

/** Menu: Formulas > Refresh pending lookups. */
export function refreshPendingLookups(): void {
  const env = formulaContext(MENU_LIMITS, true);
  if (!env.connect) {
    toast(
      'Formulas have no token: in Extensions > Sheet Scout > Settings, tick "Let formulas in this spreadsheet use my token"',
    );
    return;
  }
  toast(refreshMessage(refreshPending(activeFormulaBook(), env)));
}
