// The Tasks tab: this sheet's research records (polled every 15 s while the panel is open: progress, the daily request
// budget, what stopped in the timer's runs, unreadable records, the two answers to a lost create, the credits badge
// read again when tasks finish, the watch read again when it changed), and the history a page at a time.
import { FINISHED_KEPT_DAYS, type ResearchStatusDto } from '../../src/research/contract';
import { errorText, server } from '../bridge';
import { followWatchChanges, loadWatch, watchState } from './watch-section';
import { h, message } from '../ui/dom';
import { createPollLoop } from './poll-loop';
import { refreshCredits } from '../ui/credits-badge';
import { output, render, state } from './state';
import { damagedNotice, lostNotice } from './ledger-notices';
import { forgetQuestionCount } from './question-count';

const POLL_MS = 15000;

// Takes a poll's answer: one that did not tick leaves out the request budget and the timer's state (kept from the last).
function takeStatus(next: ResearchStatusDto): void {
  const previous = state.status;
  state.status = {
    ...next,
    requests: next.requests ?? previous?.requests ?? null,
    timer: next.timer ?? previous?.timer ?? null,
  };
  // Tasks finished: the service gave back what they reserved and did not use; the badge shows the account as it is,
  // and the offer of earlier results (they are among them now) is counted again.
  if (previous && next.pending < previous.pending) void refreshCredits().then(forgetQuestionCount, forgetQuestionCount);
  // Nothing pending any more: the launch's answer under the button ("Queued 5 tasks") says they have finished.
  const launched = state.launched;
  if (
    launched &&
    launched.kind !== 'error' &&
    launched.rows.length > 0 &&
    previous &&
    previous.pending > 0 &&
    next.pending === 0
  ) {
    const count = launched.rows.length;
    state.launched = {
      ...launched,
      kind: 'ok',
      text: `The ${count} launched task${count === 1 ? ' has' : 's have'} finished: results are in their rows.`,
      details: [],
    };
  }
}

/**
 * One poll (through pollLoop only; a failed one is tried again at the next interval): the ledger's state shows at
 * once; when a tick is due the panel asks for it next and shows what it brought, and an active watch's runs again.
 */
async function fetchStatus(): Promise<void> {
  const polled = await server.pollResearch();
  takeStatus(polled);
  if (state.tab === 'tasks') render();
  await followWatchChanges(polled.watchesChangedAt);
  if (!polled.tickDue) return;
  takeStatus(await server.tickResearch());
  if (state.tab === 'tasks') render();
  if (watchState.answer?.watch?.status === 'active') await loadWatch(true);
}

export const pollLoop = createPollLoop({
  poll: fetchStatus,
  setTimer: (run, ms) => setTimeout(run, ms),
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  intervalMs: POLL_MS,
});

/** How long ago, as "just now", "3 min ago", "2 h ago". */
function ago(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  if (minutes < 1) return 'just now';
  return minutes < 60 ? `${minutes} min ago` : `${Math.floor(minutes / 60)} h ago`;
}

/** "Requests today: N of M", and the warning or refusal once 90 % of the daily budget is used. */
function requestBudgetLine(requests: NonNullable<ResearchStatusDto['requests']>): HTMLElement {
  return h(
    'div',
    { id: 'request-budget' },
    h(
      'div',
      { class: 'muted' },
      `Requests today: ${requests.used.toLocaleString('en-US')} of ${requests.limit.toLocaleString('en-US')}`,
    ),
    requests.message ? message(requests.spent ? 'error' : 'warn', requests.message) : null,
  );
}

export async function loadHistory(page: number): Promise<void> {
  try {
    const result = await server.listResearchHistory(page);
    state.history = result;
  } catch (error) {
    state.history = { page, items: [], hasMore: false, error: errorText(error) };
  }
  render();
}

async function writeToRow(taskId: string, confirmed = { otherCompany: false, taskOutput: false }): Promise<void> {
  try {
    const answer = await server.writeTaskToSelectedRow({ taskId, output: output(), ...confirmed });
    state.written = { taskId, answer, confirmed };
  } catch (error) {
    state.written = { taskId, answer: { ok: false, message: errorText(error), ask: null }, confirmed };
  }
  render();
  // One of the two is shown: the answer, or the question to confirm.
  inView('write-answer');
  inView('write-question');
}

/** Brings an answer or a question just rendered into view (a confirmation below the fold goes unseen). */
function inView(id: string): void {
  document.getElementById(id)?.scrollIntoView({ block: 'nearest' });
}

/** The answer of "Write to selected row" in the task's entry: done, refused, or its question with a button. */
function writeAnswer(taskId: string): HTMLElement | null {
  const written = state.written;
  if (!written || written.taskId !== taskId) return null;
  const { answer, confirmed } = written;
  if (!answer.ask) {
    const shown = message(answer.ok ? 'ok' : 'error', answer.message);
    shown.id = 'write-answer';
    return shown;
  }
  const ask = answer.ask;
  const again = ask.kind === 'company' ? { ...confirmed, otherCompany: true } : { ...confirmed, taskOutput: true };
  return h(
    'div',
    { class: 'message warn', id: 'write-question' },
    ask.question,
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', class: 'primary', onclick: () => void writeToRow(taskId, again) }, ask.confirm),
      h(
        'button',
        {
          type: 'button',
          onclick: () => {
            state.written = null;
            render();
          },
        },
        'Cancel',
      ),
    ),
  );
}

/** "Check again" or "Send anyway" on unconfirmed creates; the answer shows in the notice, the list refreshes. */
async function actOnUnconfirmed(action: 'check' | 'send', entryId: string): Promise<void> {
  state.confirmingSend = null;
  try {
    const result =
      action === 'check'
        ? await server.checkUnconfirmedResearch([entryId])
        : await server.sendUnconfirmedResearchAnyway([entryId]);
    state.notice = { kind: result.ok ? 'ok' : 'error', text: result.message };
    takeStatus(await server.pollResearch());
  } catch (error) {
    state.notice = { kind: 'error', text: errorText(error) };
  }
  render();
}

/** The actions of a create whose answer was lost: look again, or send it again knowing it may be paid twice. */
function unconfirmedActions(row: ResearchStatusDto['rows'][number]): HTMLElement {
  const cost = state.context?.reservations[row.depth] ?? 0;
  if (state.confirmingSend === row.entryId) {
    return h(
      'div',
      { class: 'message warn', id: 'send-again-question' },
      `If the first send did start a task, this pays for a second one: up to ${cost} credits.`,
      h(
        'div',
        { class: 'row' },
        h(
          'button',
          { type: 'button', class: 'primary', onclick: () => void actOnUnconfirmed('send', row.entryId) },
          'Send again',
        ),
        h(
          'button',
          {
            type: 'button',
            onclick: () => {
              state.confirmingSend = null;
              render();
            },
          },
          'Cancel',
        ),
      ),
    );
  }
  return h(
    'div',
    { class: 'row' },
    h('button', { type: 'button', onclick: () => void actOnUnconfirmed('check', row.entryId) }, 'Check again'),
    h(
      'button',
      {
        type: 'button',
        onclick: () => {
          state.confirmingSend = row.entryId;
          render();
          inView('send-again-question');
        },
      },
      `Send anyway (up to ${cost} credits)`,
    ),
  );
}

async function viewTask(taskId: string): Promise<void> {
  state.tab = 'report';
  state.report = null;
  render();
  try {
    state.report = await server.getTaskReport(taskId);
  } catch (error) {
    state.report = {
      found: false,
      message: errorText(error),
      row: null,
      taskId,
      status: null,
      brief: null,
      report: null,
      error: null,
      detached: false,
    };
  }
  render();
}

/** Where a record's result goes: "row 9", or "rows 9, 14 and 3 more" for a question several rows ask. */
function rowsLabel(rows: number[]): string {
  if (rows.length <= 1) return `row ${rows[0]}`;
  const shown = rows.slice(0, 2).join(', ');
  return rows.length > 2 ? `rows ${shown} and ${rows.length - 2} more` : `rows ${shown}`;
}

/** One record of this sheet: its brief, row and status, progress while researching, and its actions. */
function sheetTask(row: ResearchStatusDto['rows'][number]): HTMLElement {
  return h(
    'div',
    { class: 'task' },
    h('div', { class: 'brief' }, row.brief),
    h(
      'div',
      { class: 'meta' },
      `${row.detached || row.row === null ? 'row changed or deleted' : rowsLabel(row.rows)} · ${row.status}`,
    ),
    row.progress !== null && row.progress < 1
      ? h(
          'div',
          { class: 'progress', title: 'Research agents finished, out of the most this depth runs' },
          h('div', { style: `width: ${Math.round(row.progress * 100)}%` }),
        )
      : null,
    row.taskId && (row.state === 'done' || row.state === 'failed')
      ? h('button', { type: 'button', onclick: () => void viewTask(row.taskId as string) }, 'View report')
      : null,
    row.state === 'unconfirmed' ? unconfirmedActions(row) : null,
  );
}

/** One task of the account's history, with "View report" and "Write to selected row" once done. */
function historyTask(item: NonNullable<typeof state.history>['items'][number]): HTMLElement {
  return h(
    'div',
    { class: 'task' },
    h('div', { class: 'brief' }, item.brief),
    h(
      'div',
      { class: 'meta' },
      `${item.status.replace('_', ' ')} · ${item.depth} · ${item.iterations} iteration${item.iterations === 1 ? '' : 's'}, ${item.agents} agent${item.agents === 1 ? '' : 's'}, ${item.sources} source${item.sources === 1 ? '' : 's'}${item.status === 'done' ? ` · ${item.cost} credits` : ''} · ${item.createdAt.slice(0, 16).replace('T', ' ')}`,
    ),
    item.failureReason ? h('div', { class: 'inline-error' }, item.failureReason) : null,
    item.status === 'done'
      ? h(
          'div',
          { class: 'row' },
          h('button', { type: 'button', onclick: () => void viewTask(item.id) }, 'View report'),
          h('button', { type: 'button', onclick: () => void writeToRow(item.id) }, 'Write to selected row'),
        )
      : null,
    writeAnswer(item.id),
  );
}

function historyPager(): HTMLElement {
  const history = state.history;
  return h(
    'div',
    { class: 'row' },
    history && history.page > 0
      ? h('button', { type: 'button', onclick: () => void loadHistory(history.page - 1) }, 'Newer')
      : null,
    history?.hasMore
      ? h('button', { type: 'button', onclick: () => void loadHistory(history.page + 1) }, 'Older')
      : null,
    h('button', { type: 'button', onclick: () => void loadHistory(history?.page ?? 0) }, 'Refresh'),
  );
}

export function tasksTab(): HTMLElement {
  const status = state.status;
  const history = state.history;
  return h(
    'section',
    {},
    h('h2', {}, 'This sheet'),
    status
      ? h(
          'div',
          { class: 'muted', id: 'pending' },
          `${status.pending} task${status.pending === 1 ? '' : 's'} pending${status.busy ? ' (updating…)' : ''}` +
            (status.checkedSecondsAgo === null ? '' : `; last checked ${ago(status.checkedSecondsAgo)}`) +
            ' (while this panel is open: every 15 s, less often for tasks behind many newer ones)',
        )
      : h('div', { class: 'muted' }, 'Loading…'),
    status?.requests ? requestBudgetLine(status.requests) : null,
    status?.timer?.problem
      ? h(
          'div',
          { class: 'message warn', id: 'timer-problem', role: 'alert' },
          `Research here continues only while this panel is open. ${status.timer.problem}`,
        )
      : null,
    ...(status?.timerStopped ?? []).map((line) => h('div', { class: 'message warn', role: 'alert' }, line)),
    status && status.damaged.length > 0 ? damagedNotice(status.damaged) : null,
    status && status.lost > 0 ? lostNotice(status.lost) : null,
    ...(status?.rows ?? []).map(sheetTask),
    h(
      'div',
      { class: 'muted', id: 'retention' },
      `Finished research leaves this list ${FINISHED_KEPT_DAYS} days after it finished; what it wrote stays in its ` +
        'rows, and every task stays in the list below.',
    ),
    h('h2', {}, 'All tasks of the account'),
    history?.error ? message('error', history.error) : null,
    ...(history?.items ?? []).map(historyTask),
    historyPager(),
  );
}
