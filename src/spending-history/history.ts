// The spending history (Settings > Spending): every run that reserved credits from this spreadsheet (a research launch,
// an account watch run, "Send anyway", research on new rows), with who started it, when, its rows, and the credits it
// reserved, was charged and was given back, kept 90 days in the document's properties, where only the add-in writes
// (an editor can change the hidden ledger sheet, not this). Any code that reserves credits opens a run here before it
// sends anything (runLaunch's `run` option), naming its kind; the account that pays is the launch's.
// Figures follow the service's billing: a run reserves its depth's budget for each of its records when it is opened;
// a record whose create the service refused gives that back (nothing was reserved); a finished task is charged 2
// credits per agent that ran and gives back the rest of its reservation; a failed task gives back all of it; a record
// sent again with "Send anyway" leaves its first run (whose create may have started: counted as unknown) for the run
// of the sending again. Each record is settled once: an open run keeps which of its records are still open, by their
// place in the launch (the records' `ordinal`: six records a character, shared/storage/bitmap.ts; runs opened by an
// earlier version keep their records' fingerprints, about 8 bytes a record, until they close), so a settlement is
// idempotent (a tick killed after the history was written and before the ledger was saved settles nothing twice, nor
// does a record an editor puts back to "in progress"), and the history is written before the ledger (see stores.ts).
// Sizing: a closed run is 55 to 65 bytes of JSON (who started it is an index into a list of accounts); the closed
// runs' document is kept under RUNS_BUDGET_BYTES (64 KB of the document's 500 KB, in 8 KB chunks: some 1,000 runs,
// eleven a day for 90 days); past it the oldest go early and the history says how many. An open run adds a character
// per six records (a 10,000-record launch: 1.7 KB, gone when it closes). Runs started more than 90 days ago go
// at the next opening. Pure over the store.
import type { KeyValueStore } from '../ports';
import {
  chunkedGeneration,
  readChunkedJson,
  removeChunked,
  utf8Bytes,
  writeChunked,
} from '../shared/storage/chunked-store';
import { fingerprint } from '../shared/fingerprint';
import { keyIn, readOpen, recordKey, writeOpen, type OpenRun, type RunKeying } from './open-runs';

export type RunKind = 'launch' | 'watch' | 'send-anyway' | 'new-rows';
export const RUN_KINDS: readonly RunKind[] = ['launch', 'watch', 'send-anyway', 'new-rows'];

export const HISTORY_DAYS = 90;
const DAY_MS = 86_400_000;
export const RUNS_KEY = 'sheetscout.spending.runs';
const OPEN_KEY_PREFIX = 'sheetscout.spending.open.';
/** The closed runs' document stays under this (UTF-8 bytes of its JSON). */
export const RUNS_BUDGET_BYTES = 64 * 1024;

/**
 * Who starts a run and why: what the caller that reserves credits says (runLaunch's `run` option, started by the
 * launch's account).
 */
export interface RunStart {
  kind: RunKind;
  /** The Sheet Scout account that pays (its e-mail, from the token: GET /v1/user). */
  startedBy: string;
}

/** A record of a run: its id, and its place in the run's launch (absent in records of earlier versions). */
export interface RunRecordId {
  id: string;
  ordinal?: number;
}

/** A run as it is opened: its launch, the sheet, its records and each record's reservation, and its reused rows. */
export interface RunOpening extends RunStart {
  launch: string;
  at: number;
  sheetId: number;
  reservation: number;
  records: readonly RunRecordId[];
  reused?: number;
}

/** How one record of a run ended (records of runs the history does not know are ignored). */
export interface RecordOutcome {
  launch: string;
  record: string;
  /** The record's place in its launch (absent in records of earlier versions). */
  ordinal?: number | null;
  /** done: charged `charged`; failed: all given back; refused: nothing was reserved; moved: sent again elsewhere. */
  outcome: 'done' | 'failed' | 'refused' | 'moved';
  charged: number;
  /** A finished task whose result no row received (its record changed outside Sheet Scout): counted as lost too. */
  uncollected?: boolean;
}

/** The records of an open run not settled yet: its id and each record's key (keyIn). */
export interface UnsettledRun extends RunKeying {
  run: string;
  keys: string[];
}

/** A run as the history lists it. */
export interface SpendingRun {
  id: string;
  kind: RunKind;
  startedBy: string;
  at: number;
  sheetId: number;
  rows: number;
  reserved: number;
  charged: number;
  givenBack: number;
  /** Records not settled yet (queued, running, or waiting for the user's answer to a lost create). */
  open: number;
  /** Creates whose answer was lost and that were sent again: each may have reserved (and been billed) unseen. */
  unknown: number;
  /**
   * Records changed or deleted outside Sheet Scout in the hidden ledger sheet: not collected. What the service did with
   * them is not known here (their reservation is not counted above), or, for a changed record whose task the add-in
   * settled by what it keeps, it is counted above and its result went to no row.
   */
  lost: number;
  /** Rows given an earlier result of the same question on the user's request (0 credits: counted in no figure above). */
  reused: number;
}

/**
 * A run in the runs document: [id, kind, who (index in people), at, sheet, rows, reservation, R, C, G, U, open, lost,
 * reused] (lost absent in runs of earlier versions, reused in runs that reused nothing).
 */
type StoredRun = [id: string, ...figures: number[]];

interface RunsDocument {
  people: string[];
  runs: StoredRun[];
  /** Runs removed before their 90 days to stay within RUNS_BUDGET_BYTES. */
  dropped: number;
}

/** The run id of a launch: two fingerprints (short, and no two launches of a spreadsheet share one). */
export function runId(launch: string): string {
  return `${fingerprint(launch)}.${fingerprint(`#${launch}`)}`;
}

function emptyDocument(): RunsDocument {
  return { people: [], runs: [], dropped: 0 };
}

function readDocument(store: KeyValueStore): RunsDocument {
  const parsed = readChunkedJson(store, RUNS_KEY) as Partial<RunsDocument> | null;
  if (!parsed || !Array.isArray(parsed.runs) || !Array.isArray(parsed.people)) return emptyDocument();
  return { people: parsed.people, runs: parsed.runs, dropped: Number(parsed.dropped) || 0 };
}

function toRun(stored: StoredRun, people: string[], open: OpenRun | null): SpendingRun {
  const [id, kind, who, at, sheetId, rows, , reserved, charged, givenBack, unknown, openCount, lost, reused] = stored;
  const figures = open ?? { reserved, charged, givenBack, unknown, lost };
  return {
    id,
    kind: RUN_KINDS[kind] ?? 'launch',
    startedBy: people[who] ?? '',
    at,
    sheetId,
    rows,
    reserved: figures.reserved,
    charged: figures.charged,
    givenBack: figures.givenBack,
    unknown: figures.unknown,
    lost: figures.lost ?? 0,
    open: open ? open.records.length : openCount,
    reused: reused || 0,
  };
}

export class SpendingHistory {
  /** The runs document as last read or written, by its generation (saves call open() often: parsed once). */
  private cached: { generation: string | null; document: RunsDocument } | null = null;

  constructor(
    private readonly store: KeyValueStore,
    private readonly now: () => number,
  ) {}

  private document(): RunsDocument {
    const generation = chunkedGeneration(this.store, RUNS_KEY);
    if (this.cached?.generation !== generation) this.cached = { generation, document: readDocument(this.store) };
    return this.cached.document;
  }

  /**
   * Lists a new run, with every record open and the depth's reservation of each counted as reserved, and its reused
   * rows (a run that only reused is listed closed: nothing to settle). Idempotent: a run already listed, or once
   * listed and pruned since, is left as it is.
   */
  open(run: RunOpening): void {
    const reused = run.reused || 0;
    if (run.records.length === 0 && reused === 0) return;
    const id = runId(run.launch);
    const document = this.document();
    if (document.runs.some((entry) => entry[0] === id)) return;
    const byOrdinal = run.records.every((record) => record.ordinal !== undefined);
    const narrow = new Set(run.records.map((record) => recordKey(record.id, false)));
    const wide = !byOrdinal && narrow.size < run.records.length;
    let who = document.people.indexOf(run.startedBy);
    if (who < 0) who = document.people.push(run.startedBy) - 1;
    const count = run.records.length;
    const reserved = run.reservation * count;
    const figures = [run.at, run.sheetId, count, run.reservation, reserved, 0, 0, 0, count];
    const stored: StoredRun = [id, RUN_KINDS.indexOf(run.kind), who, ...figures, ...(reused > 0 ? [0, reused] : [])];
    // The open part first (kept when an interrupted opening wrote it): a run listed open always has it.
    if (run.records.length > 0 && !readOpen(this.store, OPEN_KEY_PREFIX + id))
      this.writeOpen(id, {
        reserved,
        charged: 0,
        givenBack: 0,
        unknown: 0,
        records: run.records.map((record) => keyIn({ wide, byOrdinal }, { ...record, record: record.id }) as string),
        wide,
        byOrdinal,
      });
    this.writeDocument({ ...document, runs: [...document.runs.filter((entry) => entry[0] !== id), stored] });
  }

  /**
   * Settles records: each once, while its run is open (an outcome of a record already settled, or of a run the
   * history does not know, changes nothing). A run whose records are all settled is closed.
   */
  settle(outcomes: readonly RecordOutcome[]): void {
    if (outcomes.length === 0) return;
    const byRun = new Map<string, RecordOutcome[]>();
    for (const outcome of outcomes)
      byRun.set(runId(outcome.launch), [...(byRun.get(runId(outcome.launch)) ?? []), outcome]);
    for (const [id, settled] of byRun) {
      const open = readOpen(this.store, OPEN_KEY_PREFIX + id);
      if (!open) continue;
      const document = this.document();
      const stored = document.runs.find((entry) => entry[0] === id);
      if (!stored) continue;
      if (applyOutcomes(open, settled, stored[6])) this.closeOrKeep(id, open, stored);
    }
  }

  /** Writes an open run's part after a settlement, or closes the run once every record is settled. */
  private closeOrKeep(id: string, open: OpenRun, stored: StoredRun): void {
    if (open.records.length > 0) {
      this.writeOpen(id, open);
      return;
    }
    stored.splice(7, 6, open.reserved, open.charged, open.givenBack, open.unknown, 0, open.lost ?? 0);
    // The closed figures first, then the open part goes (a run listed closed never reads it).
    this.writeDocument(this.document());
    removeChunked(this.store, OPEN_KEY_PREFIX + id);
  }

  /** The records of the open runs not settled yet (the research ledger holds each of them, unless it was edited). */
  unsettled(): UnsettledRun[] {
    return this.document()
      .runs.filter((stored) => stored[11] > 0)
      .flatMap((stored) => {
        const open = readOpen(this.store, OPEN_KEY_PREFIX + stored[0]);
        return open && open.records.length > 0
          ? [{ run: stored[0], keys: open.records.slice(), wide: open.wide, byOrdinal: open.byOrdinal }]
          : [];
      });
  }

  /**
   * Settles records the research ledger no longer holds as the add-in wrote them (deleted, or changed outside Sheet
   * Scout), by their run and key: not collected, what the service did with them not known (counted as lost).
   */
  lose(lost: ReadonlyArray<{ run: string; keys: readonly string[] }>): void {
    for (const { run, keys } of lost) {
      const open = readOpen(this.store, OPEN_KEY_PREFIX + run);
      const stored = this.document().runs.find((entry) => entry[0] === run);
      if (!open || !stored) continue;
      const gone = new Set(keys.filter((key) => open.records.includes(key)));
      if (gone.size === 0) continue;
      open.records = open.records.filter((key) => !gone.has(key));
      open.reserved -= stored[6] * gone.size;
      open.lost = (open.lost ?? 0) + gone.size;
      this.closeOrKeep(run, open, stored);
    }
  }

  /** The runs of the last 90 days, newest first, and how many were removed early to stay within storage. */
  list(): { runs: SpendingRun[]; dropped: number } {
    const document = this.document();
    const since = this.now() - HISTORY_DAYS * DAY_MS;
    const runs = document.runs
      .filter((stored) => stored[3] >= since)
      .map((stored) =>
        toRun(stored, document.people, stored[11] > 0 ? readOpen(this.store, OPEN_KEY_PREFIX + stored[0]) : null),
      )
      .sort((a, b) => b.at - a.at);
    return { runs, dropped: document.dropped };
  }

  private writeOpen(id: string, open: OpenRun): void {
    writeOpen(this.store, OPEN_KEY_PREFIX + id, open);
  }

  /**
   * Writes the runs document without the runs older than 90 days (their open part goes too), and without the oldest
   * closed runs while it is over its budget (counted as dropped).
   */
  private writeDocument(document: RunsDocument): void {
    const since = this.now() - HISTORY_DAYS * DAY_MS;
    const expired = document.runs.filter((stored) => stored[3] < since);
    let runs = document.runs.filter((stored) => stored[3] >= since).sort((a, b) => a[3] - b[3]);
    let dropped = document.dropped;
    const size = (list: StoredRun[]) => utf8Bytes(JSON.stringify({ ...document, runs: list, dropped }));
    while (runs.length > 1 && size(runs) > RUNS_BUDGET_BYTES) {
      const oldest = runs.findIndex((stored) => stored[11] === 0);
      if (oldest < 0) break;
      runs = runs.filter((_, index) => index !== oldest);
      dropped++;
    }
    const used = new Set(runs.map((stored) => stored[2]));
    const people = document.people.map((person, index) => (used.has(index) ? person : ''));
    const written: RunsDocument = { people, runs, dropped };
    writeChunked(this.store, RUNS_KEY, JSON.stringify(written));
    this.cached = { generation: chunkedGeneration(this.store, RUNS_KEY), document: written };
    for (const stored of expired) if (stored[11] > 0) removeChunked(this.store, OPEN_KEY_PREFIX + stored[0]);
  }
}

/** Applies outcomes to an open run whose records each reserved `reservation`; whether anything changed. */
function applyOutcomes(open: OpenRun, outcomes: readonly RecordOutcome[], reservation: number): boolean {
  const waiting = new Set(open.records);
  let changed = false;
  for (const outcome of outcomes) {
    const key = keyIn(open, outcome);
    if (key === null || !waiting.delete(key)) continue;
    changed = true;
    if (outcome.outcome === 'done') {
      const charged = Math.min(reservation, Math.max(0, outcome.charged));
      open.charged += charged;
      open.givenBack += reservation - charged;
      if (outcome.uncollected) open.lost = (open.lost ?? 0) + 1;
    } else if (outcome.outcome === 'failed') open.givenBack += reservation;
    else {
      open.reserved -= reservation;
      if (outcome.outcome === 'moved') open.unknown += 1;
    }
  }
  if (changed) open.records = open.records.filter((key) => waiting.has(key));
  return changed;
}
