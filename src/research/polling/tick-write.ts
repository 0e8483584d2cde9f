// What a tick writes, once, after it decided everything, in the order a tick killed in between needs: the finished
// reports (the rows are written from them, so a kill after leaves nothing the next tick cannot write again), the rows
// (write-back.ts: each sheet read just before it is written, so results land in the right row after any sort or
// insert meanwhile; a watch's signals to the digest's outbox), then the ledger's side (what the salvaged tasks settle
// in the spending history, every record the tick changed in one save, the runs' records the ledger lost settled),
// then what the saved ledger frees: row tags no record needs, and what the permits keep for records that no longer
// run.
import type { TaskReport } from '../../api/types';
import type { RecordOutcome } from '../../spending-history/history';
import { isPending, needsRow, type LedgerEntry } from '../records/ledger';
import { releaseRowTags, rowNeedsWrite, writeRows } from '../rows/write-back';
import type { JobDeps } from './jobs';
import type { Salvage } from './tick-read';

/** What the tick decided, for its write. */
export interface TickWrite {
  /** Every record as the tick holds it now, by id (the write puts the records whose rows it wrote in it)... */
  latest: Map<string, LedgerEntry>;
  /** ...and those the ledger does not hold yet (the write saves them). */
  unsaved: Map<string, LedgerEntry>;
  /** Reports of tasks found done, by task id. */
  fresh: Map<string, TaskReport>;
  /** Records changed outside Sheet Scout whose tasks were looked at (not lost), and what their answers settle. */
  salvage: readonly Salvage[];
  outcomes: RecordOutcome[];
}

/** The tick's write (see the file's header). */
export function writeTick(deps: JobDeps, tick: TickWrite): void {
  const { latest, unsaved, fresh, salvage, outcomes } = tick;
  if (fresh.size > 0) deps.reports.putAll([...fresh].map(([taskId, report]) => ({ taskId, report })));
  // Rows to write: anything whose status text changed, and final records not yet written (a killed tick's leftovers).
  const written = writeRows(deps, [...latest.values()].filter(rowNeedsWrite), fresh);
  for (const entry of written) {
    latest.set(entry.id, entry);
    unsaved.set(entry.id, entry);
  }
  deps.ledger.settleOutcomes(outcomes);
  deps.ledger.save([...unsaved.values()]);
  deps.ledger.settleMissing(salvage);
  releaseRowTags(
    deps,
    written.filter((entry) => !isPending(entry)).map((entry) => entry.row.sheetId),
  );
  // A launch's permits are kept while a record of it is open (who launched it: a re-run over its rows asks them
  // first); so is a task's give-back.
  deps.permits.keepOpen([...latest.values()].filter(needsRow));
}
