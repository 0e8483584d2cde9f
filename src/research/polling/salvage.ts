// Tasks whose ledger records were changed outside Sheet Scout (their rows fail their seal): nothing is sent, written or
// given back for such a record, but its task, created and paid for, is still settled in the spending history by what
// the service says. Who launched each task, under which launch and for which record, is kept in the sealed task index
// when its create is answered (records/task-index.ts), so the history settles it by what the add-in keeps, never by
// the changed row: the account that launched it polls it (its token may read it), and once it is final its run is
// settled, once. A record whose claims (task, record) the index does not bear out is lost (stores.ts, settleMissing).
// Pure.
import type { Result } from '../../api/errors';
import type { ResearchTask } from '../../api/types';
import type { RecordOutcome } from '../../spending-history/history';
import { taskCost } from '../spending/depth';
import type { JobDeps } from './jobs';
import type { PollResult } from './poll';

/** A task to settle: its id, and the launch and record (and its place) the add-in kept for it. */
export interface Salvage {
  taskId: string;
  launch: string;
  record: string;
  ordinal: number | null;
}

/**
 * The tasks of the changed rows the last load found that this execution's account launched, which the task index
 * knows for the record the changed row claims, and which that record's run still waits for. `account`: the acting
 * account (asked of the service only when any changed row names a task).
 */
export function salvageTargets(deps: JobDeps, account: () => string | null): Salvage[] {
  const claimed = deps.ledger.damaged().filter((record) => record.changed && record.taskId !== '');
  if (claimed.length === 0) return [];
  const owners = deps.permits.launchers();
  const candidates = claimed.flatMap((record) => {
    const owner = owners.taskOwner(record.taskId);
    return owner && owner.record === record.entryId ? [owner] : [];
  });
  if (candidates.length === 0) return [];
  const me = account();
  const waiting = new Set(deps.ledger.unsettledRecords(candidates));
  return candidates
    .filter((candidate) => candidate.payer === me && waiting.has(candidate.record))
    .map(({ taskId, launch, record, ordinal }) => ({ taskId, launch, record, ordinal }));
}

/** What a final answer settles of a salvaged task (null while it runs, or when the answer says nothing). */
function salvagedOutcome(target: Salvage, answer: Result<ResearchTask> | undefined): RecordOutcome | null {
  if (!answer) return null;
  const base = { launch: target.launch, record: target.record, ordinal: target.ordinal };
  if (!answer.ok) return answer.error.kind === 'not_found' ? { ...base, outcome: 'failed', charged: 0 } : null;
  // Its result goes to no row (nothing is written for a changed record): the run counts it as not collected.
  if (answer.value.status === 'done')
    return { ...base, outcome: 'done', charged: taskCost('done', answer.value.agents), uncollected: true };
  if (answer.value.status === 'failed') return { ...base, outcome: 'failed', charged: 0 };
  return null;
}

/** Settles the salvaged tasks the poll found final (the others are polled again by a later tick). */
export function settleSalvaged(deps: JobDeps, salvage: readonly Salvage[], answers: PollResult['answers']): void {
  const outcomes = salvage.map((target) => salvagedOutcome(target, answers.get(target.taskId)));
  deps.ledger.settleOutcomes(outcomes.flatMap((outcome) => outcome ?? []));
}
