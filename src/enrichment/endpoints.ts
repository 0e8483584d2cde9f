// Server functions of the "Enrich selected domains" panel (called via google.script.run), its menu handler, and its
// slice of the shared timer (src/scheduler). Each builds the job's ports from appContext() and delegates to job.ts.
import { appContext } from '../app-context';
import * as job from './job';
import { appsScriptSheets } from './sheet-adapter';
import { appsScriptTimer } from '../scheduler/apps-script';
import { readWake, timerTriggers } from './trigger-adapter';
import { checkedRequest } from '../shared/request-check';
import { ENRICH_OPTIONS } from './requests';

export type { EnrichPreview, EnrichProgress, EnrichOptions, StartResult } from './job';

function deps(): job.EnrichDeps & { user: string } {
  const context = appContext();
  if (!context.stores.document) throw new Error('Open Sheet Scout from a spreadsheet to enrich domains.');
  const timer = appsScriptTimer(context.stores.document, context.clock);
  return {
    user: timer.user,
    store: context.stores.document,
    sheets: appsScriptSheets(SpreadsheetApp.getActiveSpreadsheet()),
    cache: context.cache,
    clock: context.clock,
    lock: context.documentLock(),
    triggers: timerTriggers(timer),
    // A 429 comes back at once (no Retry-After wait inside the batch): the job queues those domains and goes on.
    client: () => context.userClient({ retry: { handBackRateLimited: true } }),
    newId: () => Utilities.getUuid(),
  };
}

/** Options from the page, checked: a column number, field keys and a flag, nothing else read. */
function options(input: unknown): job.EnrichOptions {
  const raw = checkedRequest<job.EnrichOptions>(ENRICH_OPTIONS, input ?? {}, 'options');
  const result: job.EnrichOptions = { overwrite: raw.overwrite === true };
  if (raw.domainColumn !== undefined) result.domainColumn = raw.domainColumn;
  if (raw.fields !== undefined) result.fields = raw.fields;
  return result;
}

/** Menu: Extensions > Sheet Scout > Enrich selected domains... */
export function showEnrichPanel(): void {
  const html = HtmlService.createHtmlOutputFromFile('Enrich').setTitle('Enrich domains');
  SpreadsheetApp.getUi().showSidebar(html);
}

export function getEnrichmentPreview(input?: job.EnrichOptions): job.EnrichPreview {
  return job.previewEnrichment(deps(), options(input));
}

export function startEnrichment(input: job.EnrichOptions): job.StartResult {
  return job.startEnrichment(deps(), options(input));
}

export function runEnrichmentChunk(): job.EnrichProgress | null {
  return job.runChunk(deps(), 'sidebar');
}

export function getEnrichmentProgress(): job.EnrichProgress | null {
  return job.currentProgress(deps());
}

export function cancelEnrichment(): job.EnrichProgress | null {
  return job.cancelEnrichment(deps());
}

export function resumeEnrichment(): job.EnrichProgress | null {
  return job.resumeEnrichment(deps());
}

/**
 * The shared timer's enrichment slice: continues the job within `budgetMs` once its wake time has come (the sidebar
 * pushes that time back while it drives the job). Pending while a continuation is scheduled; a job another user
 * started runs on their token, so their own timer continues it.
 */
export function enrichmentTimerSlice(budgetMs: number): { pending: boolean } {
  const d = deps();
  const wake = readWake(d.store);
  if (!wake) return { pending: false };
  if (wake.user !== d.user || d.clock.now() < wake.at) return { pending: true };
  job.runChunk(d, 'trigger', budgetMs);
  return { pending: readWake(d.store) !== null };
}
