// Server functions of the company search panel (google.script.run targets, exposed as globals by main.ts): each builds
// the feature's ports (context.ts) and delegates to service.ts or lookalike-service.ts.
import { searchContext } from './context';
import {
  excludeDomainsFrom,
  excludeSummary,
  panelState,
  previewSearch,
  runAgain,
  sheetColumns,
  writeResults,
  type ExcludeSource,
  type Failure,
  type ExcludeSummaryRequest,
  type PreviewAnswer,
  type SearchPanelState,
  type SheetColumns,
  type WriteAnswer,
  type WriteRequest,
} from './service';
import type { DomainList, ExcludeSummary } from './exclude-domains';
import type { SearchSpec } from './spec';
import { checkedRequest } from '../shared/request-check';
import {
  lookalikeReferences,
  runLookalikeList,
  type LookalikeAnswer,
  type LookalikeListRequest,
  type ReferenceList,
} from './lookalikes/lookalike-service';
import {
  EXCLUDE_SOURCE,
  EXCLUDE_SUMMARY_REQUEST,
  LOOKALIKE_LIST_REQUEST,
  SEARCH_SPEC,
  SHEET_ID,
  WRITE_REQUEST,
} from './requests';
import { showPanel } from '../platform/panels';

/** Opens the company search sidebar. */
export function showSearchPanel(): void {
  showPanel('Search', 'Company search');
}

export function getSearchPanelState(): SearchPanelState {
  return panelState(searchContext());
}

export function getSearchSheetColumns(sheetId: number): SheetColumns | Failure {
  return sheetColumns(searchContext(), checkedRequest<number>(SHEET_ID, sheetId, 'sheet id'));
}

export function getSearchExcludeDomains(source: ExcludeSource): DomainList | Failure {
  return excludeDomainsFrom(searchContext(), checkedRequest<ExcludeSource>(EXCLUDE_SOURCE, source, 'exclude source'));
}

/** Pure (no spreadsheet or service access): the panel calls it as the user edits the pasted list. */
export function summarizeSearchExcludeDomains(request: ExcludeSummaryRequest): ExcludeSummary {
  return excludeSummary(checkedRequest<ExcludeSummaryRequest>(EXCLUDE_SUMMARY_REQUEST, request, 'exclude list'));
}

export function previewCompanySearch(spec: SearchSpec): PreviewAnswer {
  return previewSearch(searchContext(), checkedRequest<SearchSpec>(SEARCH_SPEC, spec, 'search'));
}

export function writeCompanySearch(request: WriteRequest): WriteAnswer {
  return writeResults(searchContext(), checkedRequest<WriteRequest>(WRITE_REQUEST, request, 'write request'));
}

export function runCompanySearchAgain(sheetId: number): WriteAnswer {
  return runAgain(searchContext(), checkedRequest<number>(SHEET_ID, sheetId, 'sheet id'));
}

/** "Similar to a list": the reference domains of the selected cells. */
export function getLookalikeReferences(): ReferenceList {
  return lookalikeReferences(searchContext());
}

/** "Similar to a list": runs every reference's lookalike search, merges them and writes the top N into a new sheet. */
export function runLookalikeSearch(request: LookalikeListRequest): LookalikeAnswer {
  return runLookalikeList(
    searchContext(),
    checkedRequest<LookalikeListRequest>(LOOKALIKE_LIST_REQUEST, request, 'lookalike request'),
  );
}
