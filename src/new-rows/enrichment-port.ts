// The one door from "Keep enriching new rows" into bulk enrichment (src/enrichment): what a sheet was enriched with
// (its domain column, fields and the columns finished jobs filled), the lookups of a batch of domains (the shared
// profile cache first), the cells an outcome puts in a row and the batched writes of them, and the fingerprint the
// enrichment dates keep of what was written (so Keep data fresh later refreshes the new rows and keeps hand edits).
// Every other file of src/new-rows reaches enrichment through here only.
export { locateColumns, normalizeHeader, detectDomainColumn, planTargetColumns, type Area } from '../enrichment/layout';
export { chosenFields, filledColumns } from '../enrichment/job-state';
export {
  addOutcomeUpdates,
  buildBlockWrites,
  dropFormulaCells,
  isEmptyOrMark,
  outcomeCells,
  type CellUpdates,
  type RowOutcome,
} from '../enrichment/rows';
export {
  openLookupCache,
  resolveDomains,
  storeLookups,
  type DomainResolution,
  type LookupCacheSession,
  type LookupClient,
} from '../enrichment/lookups';
export { PERMANENT_ERRORS } from '../enrichment/service';
export { writtenFingerprint } from '../enrichment/refresh-changes';
export type { EnrichSheet, EnrichmentDates, SheetAccess } from '../enrichment/ports';
