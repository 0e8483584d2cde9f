// The one door from "Keep enriching new rows" into bulk enrichment (src/enrichment): what a sheet was enriched with
// (its domain column, fields and the columns finished jobs filled), the lookups of a batch of domains (the shared
// profile cache first), the cells an outcome puts in a row and the batched writes of them, and the fingerprint the
// enrichment dates keep of what was written (so Keep data fresh later refreshes the new rows and keeps hand edits).
// Every other file of src/new-rows reaches enrichment through here only.
export {
  locateColumns,
  normalizeHeader,
  detectDomainColumn,
  planTargetColumns,
  type Area,
  type EnrichedColumns,
  type EnrichedList,
} from '../enrichment/sheet/layout';
export { chosenFields, filledColumns } from '../enrichment/job/sheet-choices';
export { isEmptyOrMark, outcomeCells, type RowOutcome } from '../enrichment/sheet/rows';
export { cellWrites, setUpdate, type CellUpdates } from '../enrichment/sheet/cell-writes';
export {
  openLookupCache,
  resolveDomains,
  storeLookups,
  type DomainResolution,
  type LookupCacheSession,
  type LookupClient,
} from '../enrichment/job/lookups';
export { PERMANENT_ERRORS } from '../enrichment/job/limits';
export { writtenFingerprint } from '../enrichment/sheet/refresh-changes';
export type { EnrichSheet, EnrichmentDates, SheetAccess } from '../enrichment/ports';
export { DATES_HEADERS, tableEnrichmentDates } from '../enrichment/sheet/dates-store';
