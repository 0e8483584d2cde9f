// Entry points of the formulas feature, exposed as globals by main.ts: the three custom functions and the two menu
// actions. Each builds its execution's environment (document cache, clock, formula connection, breaker, time
// budget) from the app context and hands over to the logic modules.
import { formulaConnection } from '../account/settings';
import { appContext } from '../platform/app-context';
import { CircuitBreaker, connectionScope } from './breaker';
import type { FormulaResult } from './cell-text';
import { CUSTOM_FUNCTION_LIMITS, type FormulaEnv, type FormulaLimits } from './env';
import { companyLookup } from './lookup';
import { freezeMessage, freezeSelection, refreshMessage, refreshPending } from './menu-actions';
import { companySearch, similarCompanies } from './search';
import { activeFormulaBook } from '../platform/sheets/functions';
import { toast } from '../platform/spreadsheet';

/** A menu execution has 6 minutes: prefetching stops starting batches at 4 and ends retries by 5. */
const MENU_LIMITS: FormulaLimits = { stopFetchingAfterMs: 4 * 60_000, deadlineMs: 5 * 60_000, batchSize: 50 };

function formulaEnv(limits: FormulaLimits): FormulaEnv {
  const context = appContext();
  const startedAt = context.clock.now();
  const connection = formulaConnection(context.stores.document);
  const token = connection.token;
  return {
    cache: context.cache,
    clock: context.clock,
    startedAt,
    limits,
    breaker: token ? new CircuitBreaker(context.cache, connectionScope(connection.baseUrl, token)) : null,
    connect: token ? ({ budgetMs }) => context.formulaClient({ retry: { budgetMs } }) : null,
  };
}

export function COMPANY_LOOKUP(domain: unknown, fields?: unknown, withHeader?: unknown): FormulaResult {
  return companyLookup(domain, fields, withHeader, formulaEnv(CUSTOM_FUNCTION_LIMITS));
}

export function SIMILAR(domain: unknown, limit?: unknown, filters?: unknown): FormulaResult {
  return similarCompanies(domain, limit, filters, formulaEnv(CUSTOM_FUNCTION_LIMITS));
}

export function COMPANY_SEARCH(query: unknown, limit?: unknown, filters?: unknown): FormulaResult {
  return companySearch(query, limit, filters, formulaEnv(CUSTOM_FUNCTION_LIMITS));
}

/** Menu: Formulas > Freeze formulas to values. */
export function freezeFormulasToValues(): void {
  toast(freezeMessage(freezeSelection(activeFormulaBook())));
}

/** Menu: Formulas > Refresh pending lookups. */
export function refreshPendingLookups(): void {
  const env = formulaEnv(MENU_LIMITS);
  if (!env.connect) {
    toast(
      'Formulas have no token: in Extensions > Sheet Scout > Settings, tick "Let formulas in this spreadsheet use my token"',
    );
    return;
  }
  toast(refreshMessage(refreshPending(activeFormulaBook(), env)));
}
