// Builds the enrichment job's ports for one execution from the app context: the document's stores and sheets, the
// enrichment dates, the continuation over the shared timer, and a client that hands 429s back to the job (it queues
// those domains for after their Retry-After and goes on with the others).
import { appContext } from '../platform/app-context';
import { appsScriptTimer } from '../scheduler/adapters/triggers';
import type { TimerDeps } from '../scheduler/timer';
import type { EnrichDeps } from './ports';
import type { RefreshDeps } from './refresh/refresh';
import { appsScriptSheets } from './adapters/sheets';
import { DATES_HEADERS, tableEnrichmentDates } from './sheet/dates-store';
import { ENRICHMENT_DATES_SHEET, REFRESH_CHANGES_SHEET } from '../shared/storage/internal-sheets';
import { timerContinuation } from './job/trigger-adapter';
import { newId } from '../platform/ids';
import { ChangeLog, CHANGE_LOG_HEADERS } from './refresh/change-log';
import { activeSpreadsheet, formatInSpreadsheetZone } from '../platform/spreadsheet';

export function enrichmentContext(): EnrichDeps & { timer: TimerDeps } {
  const context = appContext();
  const document = context.documentStore();
  const timer = appsScriptTimer(document, context.stores.user, context.clock);
  const spreadsheet = activeSpreadsheet();
  return {
    timer,
    store: document,
    sheets: appsScriptSheets(spreadsheet),
    dates: tableEnrichmentDates(context.hiddenTable(ENRICHMENT_DATES_SHEET, DATES_HEADERS)),
    cache: context.cache,
    cacheWrites: context.cacheWrites,
    clock: context.clock,
    lock: context.documentLock(),
    continuation: timerContinuation(timer),
    client: () => context.userClient({ retry: { handBackRateLimited: true } }),
    newId,
    requests: () => context.requestBudget.status(),
    requestsAhead: {
      reserve: (count) => context.requestBudget.reserveAhead(count),
      release: () => context.requestBudget.releaseAhead(),
    },
  };
}

/** The refresh's ports, with the request budget and the timer (for scheduled refreshes). */
export function refreshContext(): RefreshDeps & Pick<EnrichDeps, 'requests' | 'store'> & { timer: TimerDeps } {
  const deps = enrichmentContext();
  return {
    ...deps,
    today: () => formatInSpreadsheetZone(deps.clock.now(), 'yyyy-MM-dd'),
    changes: new ChangeLog(appContext().hiddenTable(REFRESH_CHANGES_SHEET, CHANGE_LOG_HEADERS)),
  };
}
