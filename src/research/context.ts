// Builds the research ports for one execution (the active spreadsheet's grid, the hidden ledger and reports, the
// user's client, the shared timer) and the steps research entry points share: work under the document lock, one
// polling tick (and, outside the timer, the timer kept armed while tasks are pending), and the payer's timer made
// again when it is gone.
import { appContext, type AppContext } from '../platform/app-context';
import type { LockPort, SizedStore } from '../ports';
import { runTick } from './polling/tick';
import { type JobDeps } from './polling/jobs';
import { documentSpendJournal } from './spending/spend-journal';
import { capCalendar } from './spending/calendar';
import { documentCreatePermits } from './spending/create-permits';
import { LEDGER_HEADERS } from './records/ledger';
import { SheetGrid } from './adapters/sheets';
import { LEDGER_SHEET, REPORTS_SHEET, TASKS_SHEET } from '../shared/storage/internal-sheets';
import { LedgerStore, type LedgerView } from './records/stores';
import { REPORT_HEADERS, ReportStore } from './records/report-store';
import { TASK_INDEX_HEADERS, TaskIndex } from './records/task-index';
import {
  myTimers,
  recordTick,
  removeTimerIfIdle,
  reserveTimer,
  type TimerDeps,
  type TimerProblem,
} from '../scheduler/timer';
import type { TimerFeature } from '../scheduler/features';
import { appsScriptTimer } from '../scheduler/adapters/triggers';
import { timerRuntimeBudget, timerRuntimeMessage } from '../scheduler/runtime-budget';
import { readAccountKind } from '../platform/request-budget';
import { cachePollMemory } from './polling/poll';
import { newId } from '../platform/ids';
import { activeSpreadsheet, flushWrites, type Spreadsheet } from '../platform/spreadsheet';
import { tickNoteText } from './polling/tick-pacing';
import type { RecordStores } from '../shared/storage/record-sheet';
import { SpendingHistory } from '../spending-history/history';
import { recordingHistory } from '../spending-history/recording';
import { digestOutbox } from '../shared/storage/digest-outbox';

/** The last research tick of this document (any user's panel or timer): when it started, the requests it sent. */
export const LAST_TICK_KEY = 'sheetscout.research.lastTick';

export interface Research {
  context: AppContext;
  spreadsheet: Spreadsheet;
  /** The document's properties (500 KB, shared by every feature): the spending cap, when the last tick ran. */
  document: SizedStore;
  /** The document's records sheet: the panel's saved launch settings. */
  records: RecordStores;
  deps: JobDeps;
  lock: LockPort;
  trigger: TimerDeps;
}

export function researchContext(budgetMs?: number): Research {
  const context = appContext();
  const spreadsheet = activeSpreadsheet();
  const document = context.documentStore();
  // Made on first use: the client reads the learned throughput from the cache, which a poll that only shows the
  // ledger never needs.
  let client: JobDeps['client'] | null = null;
  const permits = documentCreatePermits(document, new TaskIndex(context.hiddenTable(TASKS_SHEET, TASK_INDEX_HEADERS)));
  const now = () => context.clock.now();
  const spending = recordingHistory(new SpendingHistory(document, now), document, now);
  const deps: JobDeps = {
    get client() {
      return (client ??= context.userClient());
    },
    grid: new SheetGrid(spreadsheet),
    ledger: new LedgerStore(
      context.hiddenTable(LEDGER_SHEET, LEDGER_HEADERS),
      documentSpendJournal(document, capCalendar(document), now),
      permits,
      spending,
    ),
    permits,
    reports: new ReportStore(context.hiddenTable(REPORTS_SHEET, REPORT_HEADERS)),
    clock: context.clock,
    newId,
    limits: budgetMs ? { budgetMs } : undefined,
    pollMemory: cachePollMemory(context.userCache),
    digest: digestOutbox(context.hiddenTable, document, now),
  };
  return {
    context,
    spreadsheet,
    document,
    records: context.documentRecords(),
    deps,
    lock: context.documentLock(),
    trigger: appsScriptTimer(document, context.stores.user, context.clock),
  };
}

export function withLock<T>(r: Research, waitMs: number, busy: () => T, work: () => T): T {
  if (!r.lock.tryLock(waitMs)) return busy();
  try {
    const result = work();
    flushWrites();
    return result;
  } finally {
    r.lock.release();
  }
}

/**
 * Research saved to run on a timer (an account watch, research on new rows) is paid from the account that saved it,
 * so only that account's timer runs it. Of the `orphaned` (saved work whose timer is not among this user's), those
 * this user saved (`savedBy`) get the user's timer, made again under the lock (when free): `adopt` saves them with it.
 * One request (who the token is) only when any is orphaned. Why no timer can run them, or null.
 */
export function restoreSaversTimer<T>(
  open: () => Research,
  feature: TimerFeature,
  orphaned: readonly T[],
  savedBy: (item: T) => string | undefined,
  adopt: (own: T[], timer: string | null, problem: TimerProblem | null) => void,
): TimerProblem | null {
  if (orphaned.length === 0) return null;
  const r = open();
  const user = r.deps.client.getUser();
  if (!user.ok) return null;
  const own = orphaned.filter((item) => savedBy(item) === user.value.email);
  if (own.length === 0) return null;
  return withLock(
    r,
    1000,
    () => null,
    () => {
      const problem = reserveTimer(r.trigger, feature, { ownTimer: true });
      adopt(own, myTimers(r.trigger)[0] ?? null, problem);
      return problem;
    },
  );
}

/**
 * One research tick (polling/tick.ts: reading the ledger's open records, and `view`'s), and its note for the panels'
 * pacing (when it ran, the requests it sent). Tasks this user may not read (another organization's) and creates
 * another account launched are left to their payers' timers (`leftToOthers`): they keep the document's research
 * pending, not this user's timer.
 */
export function researchTick(r: Research, view?: LedgerView): { pending: number; leftToOthers: boolean } {
  const sentBefore = r.context.requestBudget.sentHere();
  const summary = runTick(r.deps, { view });
  // Noted when the tick ends: what it showed is that fresh from then on.
  const at = r.context.clock.now();
  r.document.set(LAST_TICK_KEY, tickNoteText({ at, requests: r.context.requestBudget.sentHere() - sentBefore }));
  return { pending: summary.pending, leftToOthers: summary.unreadable > 0 || summary.waiting > 0 };
}

/**
 * A tick outside the timer (a panel's, or after the user's Check again or Send anyway), then the timer: removed when
 * nothing is pending, else kept (or set up again). `timerProblem` says why no timer could be set up: the tasks are
 * paid for, so the panel keeps polling and says so. (The timer's own ticks leave this to the timer: timer-slice.ts.)
 */
export function tickOnce(
  r: Research,
  view?: LedgerView,
): { pending: number; leftToOthers: boolean; timerProblem: string | null } {
  const { pending, leftToOthers } = researchTick(r, view);
  if (pending === 0) {
    removeTimerIfIdle(r.trigger, 'research', { leftToOthers });
    return { pending: 0, leftToOthers, timerProblem: null };
  }
  const timerProblem = reserveTimer(r.trigger, 'research')?.message ?? null;
  if (!timerProblem) recordTick(r.trigger);
  // The timer is there, but today's share of trigger runtime may be spent: the panel says when it resumes.
  const now = r.context.clock.now();
  const runtimeNote = timerRuntimeMessage(
    timerRuntimeBudget(r.trigger.user, now, readAccountKind(r.trigger.user)),
    now,
  );
  return { pending, leftToOthers, timerProblem: timerProblem ?? runtimeNote };
}
