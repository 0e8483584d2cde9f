// Sending queued creates (a tick's, and a launch's right after it saved its records): which queued records this
// execution sends (those granted a create, create-permits.ts, that the acting account launched, since a create is paid
// by the account whose token sends it), the creates whose answer was lost settled through the task list
// (reconcile.ts), then the creates in small parallel batches until the deadline. Its one deliberate write before
// sending: each batch is written to the ledger as `sending` before its requests go out (with the answers of the batch
// before and what was decided so far), so a tick killed while the requests are out leaves `sending` records, which the
// task list settles, and nothing is ever sent twice. The last answers are written when the sends end, and the permits
// hear, in one write, what was sent, answered and given back. What the answers make of the records is answers.ts's.
import { byId, type LedgerEntry } from '../records/ledger';
import { ungranted } from '../spending/create-permits';
import { answeredCreate } from './answers';
import { limitsOf, type JobDeps } from './jobs';
import { reconcileSending } from './reconcile';
import { adoptEarlierPermits, sendReads, type TickRead } from './tick-read';

/** What the sends start from: the records as the caller holds them, and what it read (tick-read.ts). */
export type SendInput = Omit<TickRead, 'salvage'>;

export interface SendOutcome {
  /** The records the sends changed (lost creates settled, creates sent and answered), last version. */
  changed: LedgerEntry[];
  /**
   * Whether the sends wrote the ledger (they did when they sent a create): it then holds `changed`.
   * Otherwise the caller writes `changed` (lost creates found, queued records no grant allows: the next tick would
   * find them again).
   */
  written: boolean;
  /** Queued records another account launched: that account's ticks send them (it pays for them). */
  waiting: Set<string>;
}

/**
 * The queued records whose creates this execution sends (`queue`, each taking its grant) and those another account
 * launched (`waiting`; when the service cannot say who is acting, they wait for a later tick of this timer). Records
 * of earlier versions, whose launcher is not known, are sent by any tick (adopted before: tick-read.ts,
 * adoptEarlierPermits). `decided`: the queued records no grant allows (looked for in the task list, never sent).
 */
function sendQueue(
  deps: JobDeps,
  input: SendInput,
): { queue: LedgerEntry[]; waiting: Set<string>; decided: LedgerEntry[] } {
  const queuedNow = input.records.filter((entry) => entry.state === 'queued');
  const known = queuedNow.filter((entry) => input.launchers.launcherOf(entry) !== null);
  const me = known.length > 0 ? input.account() : null;
  const others = new Set(known.filter((entry) => input.launchers.launcherOf(entry) !== me).map((entry) => entry.id));
  const own = queuedNow.filter((entry) => !others.has(entry.id));
  const queue = deps.permits.take(own);
  return { queue, waiting: me === null ? new Set() : others, decided: ungranted(own, queue, deps.clock.now()) };
}

/**
 * Settles the creates whose answer was lost (the records read as `sending`; `settleLost`, a tick's) through the task
 * list, then sends the creates of the queued records this execution may send (sendQueue) in batches until done or
 * `deadline`, each batch written ahead as `sending`; a batch whose answers were lost is settled through the task list
 * before the next one.
 */
export function sendQueued(deps: JobDeps, input: SendInput, deadline: number, settleLost = true): SendOutcome {
  const limits = limitsOf(deps);
  const { queue, waiting, decided } = sendQueue(deps, input);
  // The lost creates as read (not the queued records no grant allows, decided just now: the next tick looks for them).
  const found = settleLost ? reconcileSending(deps, input.records, limits, input.knownTaskIds) : [];
  const changed = byId([...decided, ...found]);
  const unsaved = new Map(changed);
  // The permits hear what was sent, created and given back once, at the end (a kill before leaves them taken: sent
  // records never are queued again by the add-in, and created tasks that were not noted only give back nothing, the
  // safe side).
  const sent: LedgerEntry[] = [];
  const answered: LedgerEntry[] = [];
  const givenBack: LedgerEntry[] = [];
  // Refused creates give back their reservation without the permits (each is refused once).
  const write = () => {
    const refused = new Set(answered.filter((entry) => entry.state === 'error').map((entry) => entry.id));
    if (unsaved.size > 0) deps.ledger.save([...unsaved.values()], refused);
    unsaved.clear();
  };
  const note = (entry: LedgerEntry) => {
    changed.set(entry.id, entry);
    unsaved.set(entry.id, entry);
  };
  let sentUpTo = 0;
  for (let start = 0; start < queue.length; start += limits.createBatch) {
    if (deps.clock.now() >= deadline) break;
    const now = deps.clock.now();
    const batch = queue
      .slice(start, start + limits.createBatch)
      .map((entry) => ({ ...entry, state: 'sending' as const, sentAt: now, updatedAt: now }));
    sentUpTo = start + batch.length;
    batch.forEach(note);
    // The write ahead: this batch as `sending` (with the last batch's answers) before its requests go out.
    write();
    sent.push(...batch);
    const results = deps.client.createTasks(
      batch.map((entry) => ({
        brief: entry.brief,
        depth: entry.depth,
        ...(entry.schema ? { output_schema: entry.schema } : {}),
      })),
    );
    const after = deps.clock.now();
    const answers = batch.map((entry, i) => answeredCreate(entry, results[i], after));
    for (const answer of answers) {
      if (!answer) continue;
      // Queued again: nothing was created (its create stays authorised).
      (answer.state === 'queued' ? givenBack : answered).push(answer);
      note(answer);
    }
    // Lost answers: the task list says which of the batch's creates started (kept until the next write).
    if (answers.includes(null)) {
      const current = byId([...input.records, ...changed.values()]);
      reconcileSending(deps, [...current.values()], limits, input.knownTaskIds).forEach(note);
    }
  }
  // What was sent is written before anything else is asked of the service (the tick's poll).
  const written = sent.length > 0;
  if (written) write();
  // Creates not sent before the deadline stay authorised for the next tick.
  deps.permits.settle({ sending: sent, answered, givenBack: [...givenBack, ...queue.slice(sentUpTo)] });
  return { changed: [...changed.values()], written, waiting };
}

/**
 * The sends of a launch that has just saved its records (spend.ts): over the ledger as it holds them now, once an
 * earlier version's permits are adopted (tick-read.ts). Earlier creates whose answer was lost are left to the ticks.
 */
export function createQueued(deps: JobDeps, deadline: number): void {
  const records = adoptEarlierPermits(deps);
  const sends = sendQueued(deps, { records, ...sendReads(deps) }, deadline, false);
  if (!sends.written) deps.ledger.save(sends.changed);
}
