// Entry points of the formulas feature, exposed as globals by main.ts: the three custom functions, the two menu
// actions, and Settings' sharing of the user's token with the formulas (the account shares it, then the formulas that
// could not use one are entered again: here, on the floor above the account). Each builds its execution's environment
// (document cache, clock, formula connection, breaker, time budget) from the app context and hands over to the logic
// modules.
import type { FormulaResult } from './cell-text';
import { CUSTOM_FUNCTION_LIMITS, type FormulaLimits } from './ports';
import { formulaContext } from './context';
import { readBoolean } from './arguments';
import { companyLookup } from './lookup';
import { sortedAwayText } from './placement';
import { freezeMessage, freezeSelection, refreshMessage, refreshPending, reenterTokenless } from './menu-actions';
import { companySearch, similarCompanies } from './search';
import { activeFormulaBook, callingCell } from './adapters/sheets';
import { toast } from '../platform/spreadsheet';
import { accountContext } from '../account/context';
import type { AccountState } from '../account/contract';
import { SHARING } from '../account/requests';
import { checkedRequest } from '../shared/request-check';

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

/**
 * Settings: shares (or stops sharing) the user's token with this spreadsheet's formulas. Once shared, the formula
 * cells that said they could not use a token are entered again, so Sheets runs them with it (and the answer says how
 * many).
 */
export function setFormulaTokenSharing(enabled: boolean): AccountState {
  const state = accountContext().setFormulaSharing(checkedRequest<boolean>(SHARING, enabled, 'sharing'));
  if (!enabled || !state.formulas.sharedByMe) return state;
  const rerun = reenterTokenless(activeFormulaBook());
  return rerun === 0
    ? state
    : {
        ...state,
        note: `${rerun} formula cell${rerun === 1 ? '' : 's'} that could not use a token ${rerun === 1 ? 'is' : 'are'} running again with yours.`,
      };
}
