// Server functions of the "Enrich selected domains" panel (called via google.script.run), its menu handler, and the
// continuation trigger's handler. Each builds the job's ports from appContext() and delegates to job.ts.
import { appContext } from '../app-context';
import * as job from './job';
import { appsScriptSheets } from './sheet-adapter';
import { appsScriptTriggers } from './trigger-adapter';

export type { EnrichPreview, EnrichProgress, EnrichOptions, StartResult } from './job';

function deps(): job.EnrichDeps {
  const context = appContext();
  if (!context.stores.document) throw new Error('Open Sheet Scout from a spreadsheet to enrich domains.');
  return {
    store: context.stores.document,
    sheets: appsScriptSheets(SpreadsheetApp.getActiveSpreadsheet()),
    cache: context.cache,
    clock: context.clock,
    lock: context.documentLock(),
    triggers: appsScriptTriggers(),
    client: () => context.userClient({ maxParallel: job.LIMITS.batchSize }),
    newId: () => Utilities.getUuid(),
  };
}

/** Options from the page, checked: nothing but a column number, field keys and a flag gets through. */
function options(input: unknown): job.EnrichOptions {
  const raw = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const result: job.EnrichOptions = { overwrite: raw.overwrite === true };
  if (typeof raw.domainColumn === 'number' && Number.isInteger(raw.domainColumn)) result.domainColumn = raw.domainColumn;
  if (Array.isArray(raw.fields)) result.fields = raw.fields.map((key) => String(key)).slice(0, 50);
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

/** Time-driven trigger: continues the job while no sidebar drives it. */
export function continueEnrichmentFromTrigger(): void {
  job.runChunk(deps(), 'trigger');
}
