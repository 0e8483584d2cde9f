// The document's one shared time-driven trigger ("the timer"). A published editor add-on may have only one
// time-driven trigger per user per document, running at most hourly, so research polling, the enrichment
// continuation and scheduled refreshes share this one: each feature marks itself pending (ensureTimer) or idle (removeTimerIfIdle), and the
// timer's handler runs each feature's slice of work under one time budget (runTimer), then removes the timer once no
// feature has pending work. Apps Script triggers belong to the user who made them, so the document keeps a record of
// which timer serves it (its trigger id): a timer among the current user's own triggers is theirs; another user
// relies on the recorded one until its ticks go stale (unless the feature needs work done as the current user). No
// user identity is needed (Session's would need the userinfo.email scope). Every minute for a script bound to the
// spreadsheet, hourly for a published add-on. Pure: the trigger registry, document store and clock are ports
// (src/platform/timer-triggers.ts adapts them).
import type { ClockPort, KeyValueStore } from '../ports';

export const TIMER_HANDLER = 'sheetScoutTimer';
export const TIMER_RECORD_KEY = 'sheetscout.timer';
const PENDING_KEY_PREFIX = 'sheetscout.timer.pending.';
/** A record whose owner has not ticked for this long is considered gone. */
export const STALE_AFTER_MS = 3 * 60 * 60 * 1000;
/** How often a tick renews the record of whose timer serves the document. */
const RECORD_TICK_EVERY_MS = 30 * 60 * 1000;
/** The timer's whole run, well inside the 6-minute execution limit. */
export const TIMER_BUDGET_MS = 4.5 * 60 * 1000;
/** A feature whose share of the budget is below this waits for the next tick (its pending state is kept). */
export const MIN_SLICE_MS = 10_000;

export type TimerFeature = 'research' | 'enrichment' | 'refresh' | 'watch';
export const TIMER_FEATURES: readonly TimerFeature[] = ['research', 'enrichment', 'refresh', 'watch'];

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
}

export interface TimerDeps {
  triggers: TimerTriggerPort;
  document: KeyValueStore;
  /** The current user's properties (whether Google runs this user's timers without their spreadsheet). */
  user: KeyValueStore;
  clock: ClockPort;
  cadence: TimerCadence;
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

/**
 * Google refused to create the timer: `limit`, the user has 20 triggers of this script already (one per spreadsheet
 * where Sheet Scout has work running; for an add-on, also one time-driven trigger per document); `unsupported`, for
 * any other reason (a test deployment of an add-on runs no installable triggers), with Google's words.
 */
export class TimerUnavailable extends Error {
  constructor(
    readonly reason: 'limit' | 'unsupported' | 'documentless',
    google = '',
  ) {
    super(
      reason === 'limit'
        ? "Sheet Scout could not set up this spreadsheet's timer, which carries on while the panels are closed: " +
            'Google allows 20 per account, and Sheet Scout keeps one in each spreadsheet where research or ' +
            'enrichment is still running. Try again when work in another spreadsheet has finished.'
        : reason === 'documentless'
          ? "Google runs Sheet Scout's timers without their spreadsheet for your account, so a timer can do " +
            'nothing there.'
          : `Google did not let Sheet Scout set up this spreadsheet's timer (${google || 'no reason given'}); a ` +
            'test deployment of the add-on runs no timers.',
    );
    this.name = 'TimerUnavailable';
  }
}

/** User property: when a timer of this user ran without its spreadsheet (Google's behaviour here), ms. */
export const DOCUMENTLESS_KEY = 'sheetscout.timer.documentless';
/** No timer is made for a week after one ran without its spreadsheet; then one is tried again. */
const DOCUMENTLESS_FOR_MS = 7 * 24 * 60 * 60 * 1000;

/** Why no timer serves the document: whether work that must be paid for may still start, and what to tell. */
export interface TimerProblem {
  message: string;
  /** The refusal is a limit that lifts (launch later) rather than how this installation runs (panel-driven). */
  blocksSpending: boolean;
}

export interface EnsureOptions {
  /** Create the current user's own timer even when another user's timer serves the document. */
  ownTimer?: boolean;
}

/**
 * Marks `feature` pending and makes sure one timer serves this document (idempotent: creates it only when absent).
 * Without a feature, only makes sure of the timer.
 */
export function ensureTimer(
  deps: TimerDeps,
  feature?: TimerFeature,
  options: EnsureOptions = {},
): 'exists' | 'created' | 'other_user' {
  const outcome = armTimer(deps, options);
  if (feature && deps.document.get(PENDING_KEY_PREFIX + feature) === null)
    deps.document.set(PENDING_KEY_PREFIX + feature, '1');
  return outcome;
}

/** Makes sure one timer serves this document; throws TimerUnavailable when Google refuses to create it. */
function armTimer(deps: TimerDeps, options: EnsureOptions): 'exists' | 'created' | 'other_user' {
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
  const id = deps.triggers.create(TIMER_HANDLER, deps.cadence);
  deps.document.set(TIMER_RECORD_KEY, JSON.stringify({ id, lastTick: now, createdAt: now }));
  return 'created';
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
    if (error instanceof TimerUnavailable) return { message: error.message, blocksSpending: error.reason === 'limit' };
    throw error;
  }
}

/** Longest wait past a timer's period before it counts as not running (Google fires near the due time). */
const SILENT_GRACE_MS = 10 * 60 * 1000;
const PERIOD_MS: Record<TimerCadence, number> = { minute: 60 * 1000, hourly: 60 * 60 * 1000 };

/**
 * A timer that exists but has not run for two periods since it was made or last ran (a test deployment creates
 * triggers that never fire): research and enrichment then move only while a panel is open.
 */
function silentTimer(deps: TimerDeps): TimerProblem | null {
  const record = readRecord(deps.document);
  if (!record) return null;
  const since = record.ranAt ?? record.createdAt;
  if (since === undefined || deps.clock.now() - since <= 2 * PERIOD_MS[deps.cadence] + SILENT_GRACE_MS) return null;
  const hours = Math.round((deps.clock.now() - since) / (60 * 60 * 1000));
  return {
    message:
      `Sheet Scout's timer has not run for ${hours >= 1 ? `${hours} h` : 'a while'} (Google runs no timers for a test ` +
      'deployment of the add-on).',
    blocksSpending: false,
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

export function hasPendingWork(deps: Pick<TimerDeps, 'document'>): boolean {
  return TIMER_FEATURES.some((feature) => isPending(deps, feature));
}

/** Whether `feature` has pending work in this document (a property already read: no service call). */
export function isPending(deps: Pick<TimerDeps, 'document'>, feature: TimerFeature): boolean {
  return deps.document.get(PENDING_KEY_PREFIX + feature) !== null;
}

/**
 * Marks `feature` idle; when no feature has pending work, removes the current user's timer and the document's record
 * of it. Returns how many triggers were removed.
 */
export function removeTimerIfIdle(deps: TimerDeps, feature?: TimerFeature): number {
  if (feature && deps.document.get(PENDING_KEY_PREFIX + feature) !== null)
    deps.document.remove(PENDING_KEY_PREFIX + feature);
  if (hasPendingWork(deps)) return 0;
  const record = readRecord(deps.document);
  const mine = deps.triggers.list(TIMER_HANDLER, record?.id ?? null);
  for (const id of mine) deps.triggers.remove(id);
  if (record && mine.includes(record.id)) deps.document.remove(TIMER_RECORD_KEY);
  return mine.length;
}

/** One feature's work for the timer: a slice under `budgetMs`, saying whether the feature still has pending work. */
export interface TimerTask {
  feature: TimerFeature;
  runSlice(budgetMs: number): { pending: boolean };
}

export interface TimerRun {
  ran: Array<{ feature: TimerFeature; pending: boolean }>;
  /** The timer was removed: no feature has pending work. */
  removed: boolean;
}

/**
 * The timer's handler body: runs each task in turn, each feature with pending work getting an equal share of what is
 * left of the budget (so a slow feature cannot starve the next one; one without pending work counts as one more
 * while it runs, and returns at once when it has nothing to do), records each feature's pending state, and removes
 * the timer when idle.
 */
export function runTimer(deps: TimerDeps, tasks: TimerTask[], budgetMs: number = TIMER_BUDGET_MS): TimerRun {
  const deadline = deps.clock.now() + budgetMs;
  markTimerRan(deps);
  const ran: TimerRun['ran'] = [];
  const pendingBefore = tasks.map((task) => deps.document.get(PENDING_KEY_PREFIX + task.feature) !== null);
  tasks.forEach((task, index) => {
    const sharing = pendingBefore.slice(index).filter(Boolean).length + (pendingBefore[index] ? 0 : 1);
    const share = Math.floor(Math.max(0, deadline - deps.clock.now()) / sharing);
    const pending =
      share < MIN_SLICE_MS
        ? deps.document.get(PENDING_KEY_PREFIX + task.feature) !== null
        : task.runSlice(share).pending;
    ran.push({ feature: task.feature, pending });
  });
  for (const result of ran) if (!result.pending) deps.document.remove(PENDING_KEY_PREFIX + result.feature);
  if (ran.some((result) => result.pending)) {
    for (const result of ran) if (result.pending) ensureTimer(deps, result.feature);
    recordTick(deps);
    return { ran, removed: false };
  }
  return { ran, removed: removeTimerIfIdle(deps) > 0 };
}
