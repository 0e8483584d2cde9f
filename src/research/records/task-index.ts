// Who launched each task the add-in created, and under which launch and record: one sealed row per task in a hidden
// sheet of its own (a sealed TablePort), written when the task's create is answered. The record's own ledger row says
// the same, but a row changed outside Sheet Scout fails its seal: the task of such a row is then settled in the
// spending history by what this index says of it (polling/tick-read.ts), never by what the changed row claims. Kept out
// of the document's properties, which would need some 25 bytes a task; a row of this index is never rewritten (what
// it says of a task does not change), and rows go when the ledger is compacted, once no row of the ledger names their task any more. An
// editor who changes or deletes rows here too only makes their tasks lost (counted as not collected). Pure.
import type { TablePort } from '../../ports';

/** The index's columns: the task, its launch, the record's place in it, the record, and the account that paid. */
export const TASK_INDEX_HEADERS = ['task_id', 'launch', 'ordinal', 'record', 'payer'];

/** Who launched a task, under which launch and for which record, as the add-in wrote it when its create was answered. */
export interface TaskOwner {
  taskId: string;
  /** The account that launched it (its Sheet Scout e-mail), or null when not known. */
  payer: string | null;
  launch: string;
  /** The record's place in its launch (null: a record of an earlier version, known by its id). */
  ordinal: number | null;
  record: string;
}

export class TaskIndex {
  constructor(private readonly table: TablePort) {}

  /** Notes the owners of tasks whose creates were just answered (one write). */
  add(owners: readonly TaskOwner[]): void {
    if (owners.length === 0) return;
    this.table.appendRows(
      owners.map((owner) => [owner.taskId, owner.launch, owner.ordinal ?? '', owner.record, owner.payer || '']),
    );
  }

  /** Every task's owner, by task id, as the rows whose seals hold say (one read of the index). */
  owners(): Map<string, TaskOwner> {
    const found = new Map<string, TaskOwner>();
    for (const row of this.table.readAll().rows) {
      const [taskId, launch, ordinal, record, payer] = row.map((cell) => String(cell ?? ''));
      // A row the seal refused reads as blank; an ordinal cell left empty is a record of an earlier version.
      if (taskId && launch && record)
        found.set(taskId, {
          taskId,
          launch,
          ordinal: ordinal === '' ? null : Number(ordinal),
          record,
          payer: payer || null,
        });
    }
    return found;
  }

  /** Removes the rows of tasks not in `known` (the tasks the ledger's rows name, readable or not). */
  retain(known: ReadonlySet<string>): void {
    const rows = this.table.readKeys().flatMap((key, at) => (known.has(key) ? [] : [at]));
    if (rows.length > 0) this.table.deleteRows(rows);
  }
}
