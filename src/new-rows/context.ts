// Builds the ports of "Keep enriching new rows" for one execution from the app context: the document's properties and
// records sheet, the spreadsheet's sheets and enrichment dates (the enrichment's own adapter and store), the
// shared profile cache, a client that hands 429s back (the domain waits for the next check), the document lock and
// the shared timer.
import { appContext } from '../platform/app-context';
import { appsScriptTimer } from '../scheduler/adapters/triggers';
import { activeSpreadsheet } from '../platform/spreadsheet';
import { appsScriptSheets } from '../enrichment/adapters/sheets';
import { ENRICHMENT_DATES_SHEET } from '../shared/storage/internal-sheets';
import type { SizedStore } from '../ports';
import type { TimerDeps } from '../scheduler/timer';
import { DATES_HEADERS, tableEnrichmentDates, type SheetAccess } from './enrichment-port';
import type { CheckDeps } from './fill';

export interface NewRowsDeps extends CheckDeps {
  /** The document's properties: the settings (state.ts). */
  store: SizedStore;
  sheets: SheetAccess;
  timer: TimerDeps;
}

export function newRowsContext(): NewRowsDeps {
  const context = appContext();
  const store = context.documentStore();
  const spreadsheet = activeSpreadsheet();
  return {
    store,
    records: context.documentRecords().records,
    sheets: appsScriptSheets(spreadsheet),
    dates: tableEnrichmentDates(context.hiddenTable(ENRICHMENT_DATES_SHEET, DATES_HEADERS)),
    cache: context.cache,
    clock: context.clock,
    lock: context.documentLock(),
    client: () => context.userClient({ retry: { handBackRateLimited: true } }),
    timer: appsScriptTimer(store, context.stores.user, context.clock),
  };
}
