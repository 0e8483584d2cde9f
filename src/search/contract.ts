// What the Company search panel and the server exchange, and the pure rules both apply (sidebar/ imports only this
// file and src/api/types from src/): the search spec and panel answers, result columns, exclude lists, plan depths,
// and the plan of a lookalike run over a list.
export type { ColumnChoice, Failure, PreviewAnswer, SearchPanelState, WriteAnswer } from './service';
export type { ExcludeEntry, ExcludeSummary } from './exclude-domains';
export type { FilterForm, SearchField, SearchMode, SearchSpec } from './spec';
export type { LookalikeAnswer, ReferenceList } from './lookalikes/lookalike-service';
export type { PreviewRow, ResultColumnKey } from './results/columns';
export type { SavedSearch } from './results/saved-search';
export { EXCLUDE_DOMAIN_LIMIT, FREE_DEPTH, PAID_DEPTH } from './limits';
export { describePlan, MAX_TOP, planLookalikeRun } from './lookalikes/lookalike-plan';
export { columnLetter } from '../shared/a1';
