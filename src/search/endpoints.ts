// Server functions of the company search panel (google.script.run targets, exposed as globals by main.ts): each builds
// the feature's ports from the Apps Script context and delegates to panel-service.ts.
import { userConnection } from '../account/settings';
import { appContext } from '../platform/app-context';
import { createSheetAdapter } from '../platform/sheets/search';
import {
  excludeDomainsFrom,
  excludeSummary,
  panelState,
  previewSearch,
  runAgain,
  sheetColumns,
  writeResults,
  type ExcludeSource,
  type ExcludeSummaryRequest,
  type PreviewAnswer,
  type SearchDeps,
  type SearchPanelState,
  type SheetColumns,
  type WriteAnswer,
  type WriteRequest,
} from './panel-service';
import type { DomainList, ExcludeSummary } from './exclude-domains';
import type { SearchSpec } from './spec';
import { checkedRequest } from '../shared/request-check';
import {
  lookalikeReferences,
  runLookalikeList,
  type LookalikeAnswer,
  type LookalikeDeps,
  type LookalikeListRequest,
  type ReferenceList,
} from './lookalike-service';
import {
  EXCLUDE_SOURCE,
  EXCLUDE_SUMMARY_REQUEST,
  LOOKALIKE_LIST_REQUEST,
  SEARCH_SPEC,
  SHEET_ID,
  WRITE_REQUEST,
} from './requests';
import { showPanel } from '../platform/panels';
import { newId } from '../platform/ids';

/** The ports of one execution; the user's full client serves both the search and the lookalike-list runs. */
function deps(): SearchDeps & LookalikeDeps {
  const context = appContext();
  const connected = Boolean(userConnection(context.stores).token);
  return {
    sheets: createSheetAdapter(),
    client: connected ? context.userClient() : null,
    cache: context.cache,
    userStore: context.stores.user,
    clock: context.clock,
    lock: context.documentLock(),
    newId,
  };
}

/** Opens the company search sidebar. */
export function showSearchPanel(): void {
  showPanel('Search', 'Company search');
}

export function getSearchPanelState(): SearchPanelState {
  return panelState(deps());
}

export function getSearchSheetColumns(sheetId: number): SheetColumns {
  return sheetColumns(deps(), checkedRequest<number>(SHEET_ID, sheetId, 'sheet id'));
}

export function getSearchExcludeDomains(source: ExcludeSource): DomainList {
  return excludeDomainsFrom(deps(), checkedRequest<ExcludeSource>(EXCLUDE_SOURCE, source, 'exclude source'));
}

/** Pure (no spreadsheet or service access): the panel calls it as the user edits the pasted list. */
export function summarizeSearchExcludeDomains(request: ExcludeSummaryRequest): ExcludeSummary {
  return excludeSummary(checkedRequest<ExcludeSummaryRequest>(EXCLUDE_SUMMARY_REQUEST, request, 'exclude list'));
}

export function previewCompanySearch(spec: SearchSpec): PreviewAnswer {
  return previewSearch(deps(), checkedRequest<SearchSpec>(SEARCH_SPEC, spec, 'search'));
}

export function writeCompanySearch(request: WriteRequest): WriteAnswer {
  return writeResults(deps(), checkedRequest<WriteRequest>(WRITE_REQUEST, request, 'write request'));
}

export function runCompanySearchAgain(sheetId: number): WriteAnswer {
  return runAgain(deps(), checkedRequest<number>(SHEET_ID, sheetId, 'sheet id'));
}

/** "Similar to a list": the reference domains of the selected cells. */
export function getLookalikeReferences(): ReferenceList {
  return lookalikeReferences(deps());
}

/** "Similar to a list": runs every reference's lookalike search, merges them and writes the top N into a new sheet. */
export function runLookalikeSearch(request: LookalikeListRequest): LookalikeAnswer {
  return runLookalikeList(
    deps(),
    checkedRequest<LookalikeListRequest>(LOOKALIKE_LIST_REQUEST, request, 'lookalike request'),
  );
}
