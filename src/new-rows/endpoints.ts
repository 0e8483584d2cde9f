// Server functions of the Enrich panel's "Keep enriching new rows" section (called via google.script.run): each builds
// the ports (context.ts), checks what the page sent, and delegates to service.ts or research-service.ts.
import { checkedRequest } from '../shared/request-check';
import { newRowsContext } from './context';
import { changeNewRows, newRowsState } from './service';
import { saveNewRowsResearch as saveResearch, stopNewRowsResearch as stopResearch } from './research-service';
import { NEW_ROWS_REQUEST, NEW_ROWS_RESEARCH_REQUEST } from './requests';
import { OUTPUT_REQUEST } from '../research/requests';
import { restoreResearchTimer } from './research-runs';
import type { NewRowsAnswer, NewRowsRequest, NewRowsResearchAnswer, NewRowsResearchRequest } from './contract';

/**
 * The active sheet's "Keep enriching new rows": on or off, what it fills, its last and next check (the timer of research
 * on new rows made again when its payer opens the panel and it is gone).
 */
export function getNewRows(): NewRowsAnswer {
  const deps = newRowsContext();
  const problem = restoreResearchTimer(deps);
  const answer = newRowsState(deps);
  return problem && answer.ok ? { ...answer, timerNote: answer.timerNote ?? problem } : answer;
}

export function setNewRows(input: NewRowsRequest): NewRowsAnswer {
  return changeNewRows(newRowsContext(), checkedRequest<NewRowsRequest>(NEW_ROWS_REQUEST, input, 'request'));
}

/** Research on the active sheet's new rows: answered with the figures to confirm, then saved once they are. */
export function saveNewRowsResearch(input: NewRowsResearchRequest): NewRowsResearchAnswer {
  const request = checkedRequest<NewRowsResearchRequest>(NEW_ROWS_RESEARCH_REQUEST, input, 'research');
  checkedRequest(OUTPUT_REQUEST, request.output, 'output');
  return saveResearch(newRowsContext(), request);
}

export function stopNewRowsResearch(): NewRowsResearchAnswer {
  return stopResearch(newRowsContext());
}
