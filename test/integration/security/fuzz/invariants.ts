// What must hold after any money-fuzzer sequence (issue 45), against the sandbox's own record of tasks and money:
// every task an account was charged for is one it confirmed (its brief, depth and output kind; a watch's at most once a
// period), and no confirmed row more often than confirmed; every finished task's result is in its row, or superseded
// by a later task of that row, or listed with its reason in the panels (changed or lost records); each account's runs
// in the spending history agree with the service's figures (where the history holds every record: otherwise they
// stay within them); no digest post and no request carries anything an editor typed into a hidden sheet; and no
// server function or timer run ended in a raw exception.
import type { SpendingHistoryDto } from '../../../../src/spending-history/contract';
import { SHEET } from '../../research/harness';
import { ACCOUNTS, EDITORS, MARKER, TOKENS } from './actions';
import { panels, taskKey, type Sequence } from './sequence';

/** A weekly watch starts a run at least 80% of a week after the last (src/research/watch/watch-runs.ts). */
const RUN_GAP = 0.8 * 7 * 24 * 3_600_000;

interface ServiceTask {
  id: string;
  brief: string;
  depth: string;
  status: string;
  output_schema: unknown;
  created_at: string;
}

/** Tasks charged beyond what the account confirmed (by brief, depth and output kind). */
function unconfirmed(seq: Sequence, editor: number, tasks: ServiceTask[], end: number): string[] {
  const counts = new Map<string, number>();
  for (const task of tasks) {
    const key = taskKey(task.brief, task.depth, task.output_schema ? 'fields' : 'report');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const { launched, watched } = seq.confirmed[editor];
  const out: string[] = [];
  for (const [key, count] of counts) {
    const [brief, depth, kind] = key.split('|');
    const periods = watched
      .filter((watch) => watch.briefs.includes(brief))
      .reduce((sum, watch) => sum + Math.floor((end - watch.since) / RUN_GAP) + 1, 0);
    const allowed = kind === 'report' ? (launched.get(key) ?? 0) : depth === 'medium' ? periods : 0;
    if (count > allowed) out.push(`${EDITORS[editor]} was charged ${count} x "${key}", confirmed ${allowed}`);
    if (brief.includes(MARKER)) out.push(`${EDITORS[editor]}'s task carries an editor's text: ${brief.slice(0, 80)}`);
  }
  return out;
}

/** Finished tasks whose result is neither in its row, nor superseded, nor named in a panel. */
function uncollected(seq: Sequence, all: ServiceTask[]): string[] {
  const values = seq.doc.spreadsheet.sheet(SHEET).getDisplayValues();
  const [domain, status] = ['Domain', 'Status'].map((header) => values[0].indexOf(header));
  const shown = panels(seq);
  const named = new Set(shown.flatMap((panel) => panel?.damaged.map((record) => record.taskId) ?? []));
  const lost = shown.some((panel) => (panel?.lost ?? 0) > 0);
  return all
    .filter((task) => task.status === 'done')
    .filter((task) => {
      // Rows repeat companies: the result is in one of the rows asking the question (those launched).
      const written =
        status >= 0 &&
        values.some((cells) => `Research ${cells[domain]}` === task.brief && /^Done/.test(cells[status]));
      // The service lists tasks in the order they were created (two may share a millisecond of the manual clock).
      const later = all.slice(all.indexOf(task) + 1).some((other) => other.brief === task.brief);
      return !written && !later && !named.has(task.id) && !lost;
    })
    .map((task) => `task ${task.id} (${task.brief}) finished, and its result is nowhere a user looks`);
}

/** Each account's runs against what the service reserved, charged and gave back for that account. */
async function historyDisagrees(seq: Sequence): Promise<string[]> {
  const history = seq.doc.run<SpendingHistoryDto>('getSpendingHistory', [], { kind: 'sidebar', user: EDITORS[0] });
  const out: string[] = [];
  for (const [editor, token] of TOKENS.entries()) {
    const ledger = await seq.control.ledger(token);
    const account = ACCOUNTS[editor];
    const service = ledger.days.reduce(
      (sum, day) => ({
        reserved: sum.reserved + day.reserved,
        charged: sum.charged + day.charged,
        givenBack: sum.givenBack + day.refunded,
      }),
      { reserved: 0, charged: 0, givenBack: 0 },
    );
    const runs = history.runs.filter((run) => run.startedBy === account);
    const sum = (pick: (run: (typeof runs)[number]) => number) => runs.reduce((total, run) => total + pick(run), 0);
    const listed = {
      reserved: sum((run) => run.reserved),
      charged: sum((run) => run.charged),
      givenBack: sum((run) => run.givenBack),
    };
    const whole = runs.every((run) => run.open === 0 && run.lost === 0);
    const agrees = whole
      ? listed.reserved === service.reserved &&
        listed.charged === service.charged &&
        listed.givenBack === service.givenBack
      : listed.charged <= service.charged && listed.reserved <= service.reserved;
    if (!agrees) out.push(`${account}'s runs say ${JSON.stringify(listed)}, the service ${JSON.stringify(service)}`);
  }
  return out;
}

/** Every violation of the sequence's end state (none when it holds). */
export async function violations(seq: Sequence): Promise<string[]> {
  const end = seq.clock.now();
  // Every task the service holds, and whose account each was charged to (its money record, by token).
  const all = await seq.control.call<ServiceTask[]>('GET', '/_sandbox/tasks');
  const owned = await Promise.all(
    TOKENS.map(
      async (token) => new Set((await seq.control.ledger(token)).days.flatMap((day) => day.tasks.map((t) => t.id))),
    ),
  );
  const tasks = owned.map((ids) => all.filter((task) => ids.has(task.id)));
  const found = [...seq.failures];
  tasks.forEach((mine, editor) => found.push(...unconfirmed(seq, editor, mine, end)));
  found.push(...uncollected(seq, all));
  found.push(...(await historyDisagrees(seq)));
  for (const post of await seq.control.webhookPosts())
    if (post.text.includes(MARKER)) found.push(`a digest post carries an editor's text: ${post.text.slice(0, 120)}`);
  return found;
}
