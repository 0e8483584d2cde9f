// Builds a formula execution's ports from the app context: the document cache, the clock and the time budget, the
// circuit breaker of the formula connection, and a client factory on that connection (null when no token is shared
// with this spreadsheet's formulas).
import { formulaConnection } from '../shared/connection';
import { appContext } from '../platform/app-context';
import { CircuitBreaker, connectionScope } from './breaker';
import type { FormulaEnv, FormulaLimits } from './ports';

/** `countAsUser`: a menu action, whose requests count as the user's own work (custom functions' count apart). */
export function formulaContext(limits: FormulaLimits, countAsUser = false): FormulaEnv {
  const context = appContext();
  const startedAt = context.clock.now();
  const connection = formulaConnection(context.stores.document);
  const token = connection.token;
  return {
    cache: context.cache,
    clock: context.clock,
    startedAt,
    limits,
    slowestRoundMs: context.throughput('formulas').slowestRoundMs(),
    breaker: token ? new CircuitBreaker(context.cache, connectionScope(connection.baseUrl, token)) : null,
    connect: token ? ({ budgetMs }) => context.formulaClient({ retry: { budgetMs }, countAsUser }) : null,
  };
}
