// The map of server functions the sidebars call through google.script.run (typed for gas-client). Each feature's
// endpoints module is listed once (of the formulas', the one panel call); main.ts exposes the same functions as globals.
import type * as accountEndpoints from './account/endpoints';
import type * as functionsEndpoints from './functions/endpoints';
import type * as enrichmentEndpoints from './enrichment/endpoints';
import type * as newRowsEndpoints from './new-rows/endpoints';
import type * as searchEndpoints from './search/endpoints';
import type * as tablesEndpoints from './tables/endpoints';
import type * as researchEndpoints from './research/endpoints';
import type * as spendingEndpoints from './spending-history/endpoints';
import type * as digestEndpoints from './digest/endpoints';
import type * as checkEndpoints from './check/endpoints';
import type * as backgroundEndpoints from './background/endpoints';

export type ServerFunctions = typeof accountEndpoints &
  Pick<typeof functionsEndpoints, 'setFormulaTokenSharing'> &
  typeof enrichmentEndpoints &
  typeof newRowsEndpoints &
  typeof searchEndpoints &
  typeof tablesEndpoints &
  typeof researchEndpoints &
  typeof spendingEndpoints &
  typeof digestEndpoints &
  typeof checkEndpoints &
  typeof backgroundEndpoints;
