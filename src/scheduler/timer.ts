// The document's one shared time-driven trigger ("the timer"): a published editor add-on may have one time-driven
// trigger per user per document, at most hourly (every minute for a bound script), so every feature's background work
// shares it. A feature marks itself pending with when its work is next due (ensureTimer) or idle (removeTimerIfIdle);
// the handler runs each due feature's slice under one time budget (timer-run.ts), a tick with nothing due only notes
// that it ran (idleTick), and the timer goes once nothing is pending. Triggers belong to the user who made them: the
// document records which timer serves it (its trigger id), and another user relies on it until its ticks go stale,
// with no user identity needed. The user's timers are listed in the registry of the spreadsheets that hold them
// (timer-registry.ts), which names them when Google allows no more. Pure over ports (adapters/triggers.ts).
import type { CachePort, ClockPort, KeyValueStore, LockPort } from '../ports';
import { TIMER_FEATURES, type TimerFeature } from './features';
import { changeHolders, holderEntry, readHolders, withHolder, withoutHolders } from './timer-registry';
import type { SpreadsheetIdentity } from './timer-registry';
import { DOCUMENTLESS_FOR_MS, DOCUMENTLESS_KEY, TimerUnavailable, type TimerProblem } from './timer-unavailable';
import { silentTimerMessage } from './timer-unavailable';

export type { TimerProblem };

export const TIMER_HANDLER = 'sheetScoutTimer';
export const TIMER_RECORD_KEY = 'sheetscout.timer';
const PENDING_KEY_PREFIX = 'sheetscout.timer.pending.';
/** A pending mark for work due now (otherwise the mark holds the time it is next due, in ms). */
export const DUE_NOW = '1';
/** A record whose owner has not ticked for this long is considered gone. */
export const STALE_AFTER_MS = 3 * 60 * 60 * 1000;
/** How often a tick renews the record of whose timer serves the document. */
const RECORD_TICK_EVERY_MS = 30 * 60 * 1000;
/** The timer's whole run, well inside the 6-minute execution limit. */
export const TIMER_BUDGET_MS = 4.5 * 60 * 1000;
/** A feature whose share of the budget is below this waits for the next tick (its pending state is kept). */
export const MIN_SLICE_MS = 10_000;

export type TimerCadence = 'minute' | 'hourly';

export interface TimerTriggerPort {
  /**
   * The current user's triggers of this document that run `handler`: their ids. `recordedId` is the timer the
   * document records, found among the user's triggers of the whole project too (Google does not say whether a
   * bound script's getUserTriggers(spreadsheet) lists its time-driven triggers).
   */
  list(handler: string, recordedId: string | null): string[];
  /** Creates the trigger; throws TimerUnavailable when Google refuses another one. */
  create(handler: string, cadence: TimerCadence): string;
  remove(id: string): void;
  /** The ids of all the current user's triggers of this script, in every document. */
  allIds(): string[];
}

export interface TimerDeps {
  triggers: TimerTriggerPort;
  document: KeyValueStore;
  /** The current user's properties (whether Google runs this user's timers without their spreadsheet). */
  user: KeyValueStore;
  /** The current user's lock: their timers of other spreadsheets write the same user properties. */
  userLock: LockPort;
  /** The spreadsheet this execution serves (read when its timer is made or changes what keeps it). */
  spreadsheet: () => SpreadsheetIdentity;
  clock: ClockPort;
  cadence: TimerCadence;
  /** The document's cache: what stopped in a run is noted there when the properties take no write (timer-run.ts). */
  notes?: CachePort;
}

/** The timer that serves the document: its trigger id (owned by whoever made it) and its owner's last tick. */
interface TimerRecord {
  id: string;
  lastTick: number;
  /** When it was made, and when it last ran (absent in records of earlier versions). */
  createdAt?: number;
  ranAt?: number;
}

function readRecord(store: KeyValueStore): TimerRecord | null {
  const text = store.get(TIMER_RECORD_KEY);
  if (!text) return null;
  try {
    const record = JSON.parse(text) as TimerRecord;
    return typeof record.id === 'string' && typeof record.lastTick === 'number' ? record : null;
  } catch {
    return null;
  }
}

/** The current user's timers of this document (the recorded one included when it is theirs). */
export function myTimers(deps: Pick<TimerDeps, 'triggers' | 'document'>): string[] {
  return deps.triggers.list(TIMER_HANDLER, readRecord(deps.document)?.id ?? null);
}

/** The trigger id of the timer the document records as serving it (no listing of triggers), or null. */
export function recordedTimer(deps: Pick<TimerDeps, 'document'>): string | null {
  return readRecord(deps.document)?.id ?? null;
}

export interface EnsureOptions {
  /** Create the current user's own timer even when another user's timer serves the document. */
  ownTimer?: boolean;
}

/**
 * Marks `feature` pending (due now) and makes sure one timer serves this document (idempotent: creates it only when
 * absent). Without a feature, only makes sure of the timer.
 */
export function ensureTimer(
  deps: TimerDeps,
  feature?: TimerFeature,
  options: EnsureOptions = {},
): 'exists' | 'created' | 'other_user' {
  const outcome = armTimer(deps, options);
  const marked = feature !== undefined && setMark(deps, feature, DUE_NOW);
  if (outcome === 'created' || marked) noteHolder(deps);
  return outcome;
}

/**
 * Sets when `feature`'s work is next due (a schedule's or a watch's next run; null: now) and keeps the user's registry
 * entry for this spreadsheet current. The timer must already serve the document (reserveTimer).
 */
export function wakeTimerAt(deps: TimerDeps, feature: TimerFeature, wakeAt: number | null): void {
  setMark(deps, feature, wakeAt !== null && wakeAt > deps.clock.now() ? String(wakeAt) : DUE_NOW);
  noteHolder(deps);
}

/** Sets `feature`'s pending mark (null: none); whether it changed. */
export function setMark(deps: Pick<TimerDeps, 'document'>, feature: TimerFeature, value: string | null): boolean {
  const key = PENDING_KEY_PREFIX + feature;
  if (deps.document.get(key) === value) return false;
  if (value === null) deps.document.remove(key);
  else deps.document.set(key, value);
  return true;
}

/** Makes sure one timer serves this document; throws TimerUnavailable when Google refuses to create it. */
export function armTimer(deps: TimerDeps, options: EnsureOptions): 'exists' | 'created' | 'other_user' {
  // Google ran this user's timer without its spreadsheet lately: no timer of theirs can work (nor can the recorded one).
  if (deps.clock.now() - Number(deps.user.get(DOCUMENTLESS_KEY) ?? -Infinity) < DOCUMENTLESS_FOR_MS)
    throw new TimerUnavailable('documentless');
  const record = readRecord(deps.document);
  const mine = deps.triggers.list(TIMER_HANDLER, record?.id ?? null);
  for (const extra of mine.slice(1)) deps.triggers.remove(extra);
  const now = deps.clock.now();
  if (mine.length > 0) {
    if (record?.id !== mine[0])
      deps.document.set(TIMER_RECORD_KEY, JSON.stringify({ id: mine[0], lastTick: now, createdAt: now }));
    return 'exists';
  }
  // A recorded timer that is not among this user's triggers is another user's.
  if (!options.ownTimer && record && now - record.lastTick < STALE_AFTER_MS) return 'other_user';
  let id: string;
  try {
    id = deps.triggers.create(TIMER_HANDLER, deps.cadence);
  } catch (error) {
    if (!(error instanceof TimerUnavailable) || error.reason !== 'limit') throw error;
    // Name the spreadsheets that hold the user's timers (those whose trigger still exists).
    const existing = new Set(deps.triggers.allIds());
    const holders = readHolders(deps.user, true).filter((holder) => existing.has(holder.trigger));
    throw new TimerUnavailable('limit', '', holders);
  }
  deps.document.set(TIMER_RECORD_KEY, JSON.stringify({ id, lastTick: now, createdAt: now }));
  return 'created';
}

/** Whether the timer that serves this document is another editor's (their timer runs its work). */
export function servedByOtherEditor(deps: TimerDeps): boolean {
  const record = readRecord(deps.document);
  return record !== null && myRecordedTimer(deps) === null && deps.clock.now() - record.lastTick < STALE_AFTER_MS;
}

/** The user's own timer of this document, when the document records one of theirs. */
function myRecordedTimer(deps: TimerDeps): string | null {
  const record = readRecord(deps.document);
  return record && deps.triggers.list(TIMER_HANDLER, record.id).includes(record.id) ? record.id : null;
}

/** Sets this spreadsheet's entry in the user's registry of timers, when its timer is theirs (holderEntry). */
export function noteHolder(deps: TimerDeps): void {
  const trigger = myRecordedTimer(deps);
  if (!trigger) return;
  const record = readRecord(deps.document);
  const wakes = TIMER_FEATURES.map((feature) => [feature, featureWake(deps, feature)] as const);
  const timer = { trigger, cadence: deps.cadence, madeAt: record?.createdAt ?? null };
  const entry = holderEntry(deps.spreadsheet(), timer, wakes, deps.clock.now());
  changeHolders(deps.user, deps.userLock, (holders) => withHolder(holders, entry));
}

/**
 * ensureTimer for work that is about to be paid for: why no timer can serve this document, or null. A limit that
 * lifts (`blocksSpending`) refuses the work, so nothing is spent on results no timer would collect with the panels
 * closed; an installation that runs no timers at all lets it run while a panel is open.
 */
export function reserveTimer(deps: TimerDeps, feature: TimerFeature, options: EnsureOptions = {}): TimerProblem | null {
  try {
    ensureTimer(deps, feature, options);
    return silentTimer(deps);
  } catch (error) {
    if (error instanceof TimerUnavailable)
      return {
        message: error.message,
        blocksSpending: error.reason === 'limit',
        closedPanelsOnly: error.reason !== 'unsupported',
      };
    throw error;
  }
}

/** Longest wait past a timer's period before it counts as not running (Google fires near the due time). */
const SILENT_GRACE_MS = 10 * 60 * 1000;
const PERIOD_MS: Record<TimerCadence, number> = { minute: 60 * 1000, hourly: 60 * 60 * 1000 };

/**
 * A timer that exists but has not run for two periods since it was made or last ran (a test deployment creates
 * triggers that never fire; the user's daily trigger time may be spent): work then moves only while a panel is open.
 */
function silentTimer(deps: TimerDeps): TimerProblem | null {
  const record = readRecord(deps.document);
  if (!record) return null;
  const since = record.ranAt ?? record.createdAt;
  if (since === undefined || deps.clock.now() - since <= 2 * PERIOD_MS[deps.cadence] + SILENT_GRACE_MS) return null;
  const hours = Math.round((deps.clock.now() - since) / (60 * 60 * 1000));
  return {
    message: silentTimerMessage(hours),
    blocksSpending: false,
    closedPanelsOnly: false,
  };
}

/** How often the timer renews its note that it ran (each note is a property write). */
const RAN_NOTE_EVERY_MS = 5 * 60 * 1000;

/** Notes that the timer ran (its handler calls it first), which tells a timer that runs from one that never does. */
export function markTimerRan(deps: TimerDeps): void {
  const record = readRecord(deps.document);
  const now = deps.clock.now();
  if (record && (record.ranAt === undefined || now - record.ranAt >= RAN_NOTE_EVERY_MS))
    deps.document.set(TIMER_RECORD_KEY, JSON.stringify({ ...record, ranAt: now }));
}

/**
 * Notes a tick by the current user (so other users do not add a second timer), at most every RECORD_TICK_EVERY_MS:
 * the note only has to stay well inside STALE_AFTER_MS, and each write is a call against the daily property quota.
 */
export function recordTick(deps: TimerDeps): void {
  const record = readRecord(deps.document);
  if (!record || deps.clock.now() - record.lastTick < RECORD_TICK_EVERY_MS) return;
  if (deps.triggers.list(TIMER_HANDLER, record.id).includes(record.id)) {
    deps.document.set(TIMER_RECORD_KEY, JSON.stringify({ ...record, lastTick: deps.clock.now() }));
  }
}

/** Whether `feature` has pending work in this document (a property already read: no service call). */
export function isPending(deps: Pick<TimerDeps, 'document'>, feature: TimerFeature): boolean {
  return deps.document.get(PENDING_KEY_PREFIX + feature) !== null;
}

/** When `feature`'s work is next due (ms; a time in the past: due now), or null when it has none. */
export function featureWake(deps: Pick<TimerDeps, 'document'>, feature: TimerFeature): number | null {
  const value = deps.document.get(PENDING_KEY_PREFIX + feature);
  return value === null ? null : Number(value) || 0;
}

/**
 * A tick of the document's recorded timer with nothing due: notes that it ran (so other editors and the panels know it
 * runs) and says there is nothing more to do. Its cost is the document's properties, read once, and one write.
 */
export function idleTick(deps: Pick<TimerDeps, 'document' | 'clock'>, triggerUid: string | undefined): boolean {
  const record = readRecord(deps.document);
  if (!record || record.id !== triggerUid) return false;
  const now = deps.clock.now();
  const wakes = TIMER_FEATURES.map((feature) => featureWake(deps, feature)).filter((wake) => wake !== null);
  if (wakes.length === 0 || wakes.some((wake) => wake <= now)) return false;
  try {
    deps.document.set(TIMER_RECORD_KEY, JSON.stringify({ ...record, ranAt: now, lastTick: now }));
  } catch {
    // Nothing is due: a note the store refuses (full, or the day's quota spent) waits for the next tick.
  }
  return true;
}

/**
 * Marks `feature` idle; when no feature has pending work, removes the current user's timer, the document's record
 * of it and its entry in the user's registry. Returns how many triggers were removed. `leftToOthers`: what is left of
 * the feature's work only other users' timers can do (another account's tasks): its mark stays, for them.
 */
export function removeTimerIfIdle(deps: TimerDeps, feature?: TimerFeature, options = { leftToOthers: false }): number {
  if (feature && !options.leftToOthers) setMark(deps, feature, null);
  const keeping = TIMER_FEATURES.filter((pending) => !(options.leftToOthers && pending === feature));
  if (keeping.some((pending) => isPending(deps, pending))) return 0;
  const record = readRecord(deps.document);
  const mine = deps.triggers.list(TIMER_HANDLER, record?.id ?? null);
  for (const id of mine) deps.triggers.remove(id);
  if (record && mine.includes(record.id)) deps.document.remove(TIMER_RECORD_KEY);
  if (mine.length > 0)
    changeHolders(deps.user, deps.userLock, (holders) =>
      withoutHolders(holders, (holder) => mine.includes(holder.trigger)),
    );
  return mine.length;
}
