// Builds the enrichment job's ports for one execution from the app context: the document's stores and sheets, the
// enrichment dates, the continuation over the shared timer, and a client that hands 429s back to the job (it queues
// those domains for after their Retry-After and goes on with the others).
import { appContext } from '../app-context';
import { appsScriptTimer } from '../scheduler/apps-script';
import type { EnrichDeps } from './job';
import type { RefreshDeps } from './refresh';
import { appsScriptEnrichmentDates, appsScriptSheets } from './sheet-adapter';
import { timerTriggers } from './trigger-adapter';

export function enrichmentDeps(): EnrichDeps & { user: string } {
  const context = appContext();
  if (!context.stores.document) throw new Error('Open Sheet Scout from a spreadsheet to enrich domains.');
  const timer = appsScriptTimer(context.stores.document, context.clock);
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  return {
    user: timer.user,
    store: context.stores.document,
    sheets: appsScriptSheets(spreadsheet),
    dates: appsScriptEnrichmentDates(spreadsheet),
    cache: context.cache,
    clock: context.clock,
    lock: context.documentLock(),
    triggers: timerTriggers(timer),
    client: () => context.userClient({ retry: { handBackRateLimited: true } }),
    newId: () => Utilities.getUuid(),
  };
}

export function refreshDeps(): RefreshDeps {
  const deps = enrichmentDeps();
  const zone = SpreadsheetApp.getActiveSpreadsheet().getSpreadsheetTimeZone();
  return { ...deps, today: () => Utilities.formatDate(new Date(deps.clock.now()), zone, 'yyyy-MM-dd') };
}
