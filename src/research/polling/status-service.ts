// What the Research panel shows of this sheet's tasks and how it keeps them moving: the poll (the sheet's records with
// their current rows, and whether a tick is due), the panel's tick (asks the service, then the same), and the two
// answers to an unconfirmed create, "Check again" and "Send anyway".
import { watchesChangedAt } from '../watch/watch';
import { LAST_TICK_KEY, researchContext, tickOnce, withLock, type Research } from '../context';
import { nextPanelTick, readTickNote, type TickNote } from './tick-pacing';
import type { ResearchRowDto, ResearchStatusDto, UnconfirmedActionResponse } from '../contract';
import { AGENT_BUDGET } from '../spending/depth';
import { locateEntries } from '../rows/write-back';
import { recheckUnconfirmed, sendUnconfirmedAnyway, unconfirmedOf } from './jobs';
import { guardRoom, sendAgainProblem } from '../spending/spending-guard';
import { storedCap } from '../spending/guard-service';
import { capCalendar } from '../spending/calendar';
import { isPending, statusText, type LedgerEntry } from '../records/ledger';
import { reserveTimer } from '../../scheduler/timer';
import { readStops, stopLines } from '../../scheduler/timer-stops';
import { activeSheetId, formatInSpreadsheetZone } from '../../platform/spreadsheet';
import { BUSY_MESSAGE } from '../../shared/busy';
import { userMessage } from '../../api/errors';
import { LAUNCH_BUDGET_MS } from '../launch/launch-service';
import { SpendingHistory } from '../../spending-history/history';

const SIDEBAR_TICK_BUDGET_MS = 60 * 1000;
/** The sheet's records the panel lists, newest first. */
const SHOWN_RECORDS = 50;

/** Research agents finished out of the depth's most (0..1) while researching; 1 when done; else null. */
function progressOf(entry: LedgerEntry): number | null {
  if (entry.state === 'done') return 1;
  return entry.state === 'in_progress' ? Math.min(1, entry.agents / AGENT_BUDGET[entry.depth]) : null;
}

function rowDto(entry: LedgerEntry, rows: number[]): ResearchRowDto {
  const row = rows[0] ?? null;
  return {
    entryId: entry.id,
    taskId: entry.taskId,
    row,
    rows,
    state: entry.state,
    status: statusText(entry),
    depth: entry.depth,
    progress: progressOf(entry),
    brief: entry.brief.length > 200 ? `${entry.brief.slice(0, 199)}…` : entry.brief,
    detached: entry.detached || row === null,
    updatedAt: entry.updatedAt,
  };
}

/** What a poll learned beyond the ledger: whether another execution held the lock, and what its tick said. */
interface PollFacts {
  busy: boolean;
  tick: { timerProblem: string | null } | null;
  /** When the service was last asked (this poll's tick, or the last one). */
  checkedAt: number | null;
  /** No tick ran lately: the panel calls tickPanel next. */
  tickDue: boolean;
}

function statusDto(r: Research, entries: LedgerEntry[], sheetId: number, facts: PollFacts): ResearchStatusDto {
  const shown = entries
    .filter((entry) => entry.row.sheetId === sheetId)
    .sort((a, b) => b.launchedAt - a.launchedAt)
    .slice(0, SHOWN_RECORDS);
  // Current rows (after sorts and inserts), found the way results are written.
  const rows =
    shown.length > 0
      ? locateEntries(
          r.deps.grid,
          sheetId,
          shown.filter((entry) => !entry.detached),
        )
      : new Map<string, number[]>();
  return {
    pending: entries.filter(isPending).length,
    busy: facts.busy,
    tickDue: facts.tickDue,
    checkedSecondsAgo:
      facts.checkedAt === null ? null : Math.max(0, Math.round((r.context.clock.now() - facts.checkedAt) / 1000)),
    // Read only by a poll that ticked (it read the user's settings anyway): the others cost no property read.
    requests: facts.tick ? r.context.requestBudget.status() : null,
    timer: facts.tick ? { problem: facts.tick.timerProblem } : null,
    // What stopped in the timer's runs (from the cache where a full store left it: one cache read, no quota).
    timerStopped: stopLines(readStops(r.document, r.context.cache), (ms) =>
      formatInSpreadsheetZone(ms, 'EEE d MMM HH:mm'),
    ),
    damaged: r.deps.ledger.damaged(),
    lost: new SpendingHistory(r.document, () => r.context.clock.now())
      .list()
      .runs.reduce((sum, run) => sum + run.lost, 0),
    watchesChangedAt: watchesChangedAt(r.document),
    rows: shown.map((entry) => rowDto(entry, rows.get(entry.id) ?? [])),
  };
}

/**
 * The last tick of this document (any panel's or the timer's), if the panels must not tick again yet: 15 s after it,
 * or longer after one that sent many requests (tick-pacing.ts), the ledger is shown without calling the service, so
 * open panels (of any number of users) spend little of the day's requests.
 */
function recentTick(r: Research): TickNote | null {
  const note = readTickNote(r.document.get(LAST_TICK_KEY));
  const now = r.context.clock.now();
  return note && note.at <= now && now < nextPanelTick(note) ? note : null;
}

/**
 * The panel's poll (15 s after its previous answer while open): the sheet's records as the ledger holds them, and
 * whether a tick is due (none ran in the last 15 s). It never waits for the service or the lock, so the panel shows
 * its state within a second; when a tick is due the panel then calls `tickPanel`, whose answer follows. Reading the
 * time of the last tick is one property read, so open panels stay well inside the daily quota of property reads.
 */
export function pollStatus(): ResearchStatusDto {
  const r = researchContext(SIDEBAR_TICK_BUDGET_MS);
  const view = { sheetId: activeSheetId(), newest: SHOWN_RECORDS };
  return statusDto(r, r.deps.ledger.loadOpen(view), view.sheetId, {
    busy: false,
    tick: null,
    checkedAt: readTickNote(r.document.get(LAST_TICK_KEY))?.at ?? null,
    tickDue: recentTick(r) === null,
  });
}

/**
 * The panel's tick, called when its poll said one is due: under the document lock (when free), one tick unless
 * another panel or the timer ran one meanwhile, then the sheet's records.
 */
export function tickPanel(): ResearchStatusDto {
  const r = researchContext(SIDEBAR_TICK_BUDGET_MS);
  const view = { sheetId: activeSheetId(), newest: SHOWN_RECORDS };
  const ledgerOnly = (busy: boolean, checkedAt: number | null) =>
    statusDto(r, r.deps.ledger.loadOpen(view), view.sheetId, { busy, tick: null, checkedAt, tickDue: false });
  return withLock(
    r,
    200,
    () => ledgerOnly(true, null),
    () => {
      const again = recentTick(r);
      if (again) return ledgerOnly(false, again.at);
      const checkedAt = r.context.clock.now();
      const tick = tickOnce(r, view);
      return statusDto(r, r.deps.ledger.all(), view.sheetId, { busy: false, tick, checkedAt, tickDue: false });
    },
  );
}

/** "Check again": looks for unconfirmed creates in the service's task list once more (further back than a tick). */
export function checkUnconfirmed(entryIds: string[]): UnconfirmedActionResponse {
  const r = researchContext(SIDEBAR_TICK_BUDGET_MS);
  return withLock<UnconfirmedActionResponse>(
    r,
    30000,
    () => ({ ok: false, message: BUSY_MESSAGE }),
    () => {
      const { found, stillMissing } = recheckUnconfirmed(r.deps, new Set(entryIds));
      if (found.length > 0) tickOnce(r);
      const parts = [];
      if (found.length)
        parts.push(
          `${found.length} found at the service: ${found.length === 1 ? 'it is' : 'they are'} running and will be written as usual`,
        );
      if (stillMissing)
        parts.push(
          `${stillMissing} still not in your task list: may never have started (Send anyway pays again if it did)`,
        );
      return { ok: true, message: parts.join('; ') || 'Nothing to check' };
    },
  );
}

/** "Send anyway": creates the unconfirmed tasks again, on the user's word (the panel showed what it may cost). */
export function sendAnyway(entryIds: string[]): UnconfirmedActionResponse {
  const r = researchContext(LAUNCH_BUDGET_MS);
  return withLock<UnconfirmedActionResponse>(
    r,
    30000,
    () => ({ ok: false, message: BUSY_MESSAGE }),
    () => {
      const unconfirmed = unconfirmedOf(r.deps, new Set(entryIds));
      if (unconfirmed.length === 0)
        return { ok: false, message: 'These rows are no longer unconfirmed: nothing was sent' };
      // Who pays the new creates: this user's account.
      const user = r.deps.client.getUser();
      if (!user.ok) return { ok: false, message: userMessage(user.error) };
      // The timer first (the user's own, which reads their tasks): nothing is paid for that could not be collected
      // with the panels closed.
      const noTimer = reserveTimer(r.trigger, 'research', { ownTimer: true });
      if (noTimer?.blocksSpending) return { ok: false, message: noTimer.message };
      const room = guardRoom(
        storedCap(r.document),
        r.deps.ledger.all(),
        r.context.clock.now(),
        capCalendar(r.document),
        r.deps.ledger.spentByDay(),
      );
      const overCap = sendAgainProblem(room, unconfirmed);
      if (overCap) return { ok: false, message: overCap };
      const requeued = sendUnconfirmedAnyway(r.deps, unconfirmed, user.value.email);
      tickOnce(r);
      return { ok: true, message: `Sent ${requeued.length} again` };
    },
  );
}
