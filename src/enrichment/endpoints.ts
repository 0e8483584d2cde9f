// Server functions of the "Enrich selected domains" panel (called via google.script.run) and its menu handler: each
// builds the job's ports (context.ts), checks what the page sent, and delegates to service.ts or refresh.ts.
import * as job from './job/service';
import { cancelEnrichment as cancelJob, resumeEnrichment as resumeJob } from './job/job-control';
import { runChunk, startAndRun } from './job/run';
import { currentProgress } from './job/progress';
import { previewRefresh, refreshChanges, runRefreshChunk as refreshChunk } from './refresh/refresh';
import { enrichmentContext, refreshContext } from './context';
import { checkedRequest } from '../shared/request-check';
import { ENRICH_OPTIONS, REFRESH_CHANGES_DAYS, REFRESH_REQUEST, REFRESH_SCHEDULE_REQUEST } from './requests';
import { changeRefreshSchedule, refreshSchedule } from './refresh/schedule-service';
import type {
  EnrichOptions,
  EnrichPreview,
  EnrichProgress,
  RefreshChangesAnswer,
  RefreshChunkResult,
  RefreshPreview,
  RefreshRequest,
  RefreshScheduleAnswer,
  RefreshScheduleRequest,
  StartResult,
} from './contract';
import { showPanel } from '../platform/panels';

/** A refresh chunk from the sidebar works this long, so progress shows while it goes on. */
const REFRESH_CHUNK_BUDGET_MS = 25_000;

/** Options from the page, checked: a column number, field keys and a flag, nothing else read. */
function options(input: unknown): EnrichOptions {
  const raw = checkedRequest<EnrichOptions>(ENRICH_OPTIONS, input ?? {}, 'options');
  const result: EnrichOptions = { overwrite: raw.overwrite === true };
  if (raw.domainColumn !== undefined) result.domainColumn = raw.domainColumn;
  if (raw.fields !== undefined) result.fields = raw.fields;
  return result;
}

/** Menu: Extensions > Sheet Scout > Enrich selected domains... */
export function showEnrichPanel(): void {
  showPanel('Enrich', 'Enrich domains');
}

export function getEnrichmentPreview(input?: EnrichOptions): EnrichPreview {
  return job.previewEnrichment(enrichmentContext(), options(input));
}

/** Starts the job and goes on with it in the same execution (the panel follows it with getEnrichmentProgress). */
export function startEnrichment(input: EnrichOptions): StartResult {
  return startAndRun(enrichmentContext(), options(input));
}

export function runEnrichmentChunk(): EnrichProgress | null {
  return runChunk(enrichmentContext(), 'sidebar');
}

export function getEnrichmentProgress(): EnrichProgress | null {
  return currentProgress(enrichmentContext());
}

export function cancelEnrichment(): EnrichProgress | null {
  return cancelJob(enrichmentContext());
}

export function resumeEnrichment(): EnrichProgress | null {
  return resumeJob(enrichmentContext());
}

export function getRefreshPreview(input: RefreshRequest): RefreshPreview {
  return previewRefresh(refreshContext(), checkedRequest<RefreshRequest>(REFRESH_REQUEST, input, 'refresh'));
}

export function runRefreshChunk(input: RefreshRequest): RefreshChunkResult {
  return refreshChunk(
    refreshContext(),
    checkedRequest<RefreshRequest>(REFRESH_REQUEST, input, 'refresh'),
    REFRESH_CHUNK_BUDGET_MS,
  );
}

/** The active sheet's refresh schedule (run by the document's timer with the panels closed). */
export function getRefreshSchedule(): RefreshScheduleAnswer {
  return refreshSchedule();
}

export function setRefreshSchedule(input: RefreshScheduleRequest): RefreshScheduleAnswer {
  return changeRefreshSchedule(checkedRequest<RefreshScheduleRequest>(REFRESH_SCHEDULE_REQUEST, input, 'schedule'));
}

/** The active sheet's cells changed by refreshes in the last `days` days. */
export function getRefreshChanges(days: number): RefreshChangesAnswer {
  return refreshChanges(refreshContext(), checkedRequest<number>(REFRESH_CHANGES_DAYS, days, 'days'));
}
