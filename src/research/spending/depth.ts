// Research depth and credit arithmetic (spec section 8): what a launch reserves per task (the full depth budget,
// 5/15/25 agents at 2 credits each) and the most it can cost, and the check of a whole launch against the account's
// available credits before anything is spent. Pure; shared by the server and the sidebar.
import type { TaskDepth } from '../../api/types';

/** A count with its noun, singular for one: `1 row`, `2 rows`, `1 iteration`. */
export function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

export const DEPTHS: readonly TaskDepth[] = ['medium', 'high', 'xhigh'];

export const CREDITS_PER_AGENT = 2;

/** Maximum research agents per depth (spec section 8). */
export const AGENT_BUDGET: Readonly<Record<TaskDepth, number>> = { medium: 5, high: 15, xhigh: 25 };

/** Credits reserved when a task of this depth is created; also the most it can cost. */
export function reservationFor(depth: TaskDepth): number {
  return AGENT_BUDGET[depth] * CREDITS_PER_AGENT;
}

/** What a finished task costs: only the agents that ran are billed; a failed task is refunded in full. */
export function taskCost(status: string, agents: number): number {
  if (status !== 'done') return 0;
  return Math.max(0, Math.floor(agents)) * CREDITS_PER_AGENT;
}

/** The depth selector's option: short enough for the 300 px sidebar (the detail goes underneath: depthDetail). */
export function depthLabel(depth: TaskDepth): string {
  return `${depth[0].toUpperCase()}${depth.slice(1)}: up to ${reservationFor(depth)} credits a row`;
}

/** What a depth means, under the selector. */
export function depthDetail(depth: TaskDepth): string {
  return `Up to ${AGENT_BUDGET[depth]} research agents x ${CREDITS_PER_AGENT} credits, reserved when the task starts; only agents that run are billed and a failed task is refunded.`;
}

export interface CreditEstimate {
  depth: TaskDepth;
  /** The rows that ask a question, and the tasks they make (rows asking the same question share one). */
  rows: number;
  tasks: number;
  perTask: number;
  total: number;
  available: number | null;
  /** False when the known available credits do not cover the total reservation. */
  fits: boolean;
  /** The deepest depth whose total fits the available credits, or null (none fits, or credits unknown). */
  suggestedDepth: TaskDepth | null;
  /** How many tasks fit at the chosen depth with the available credits. */
  tasksThatFit: number | null;
}

/**
 * The reservation for `tasks` tasks (asked by `rows` rows) at `depth` against `available` credits (null when
 * unknown). Each task reserves its full budget at creation, so the whole launch needs the sum available at once.
 */
export function estimateCredits(
  depth: TaskDepth,
  tasks: number,
  available: number | null,
  rows: number = tasks,
): CreditEstimate {
  const perTask = reservationFor(depth);
  const total = perTask * tasks;
  const fits = available === null || total <= available;
  let suggestedDepth: TaskDepth | null = null;
  if (!fits && available !== null) {
    for (const candidate of [...DEPTHS].reverse()) {
      if (reservationFor(candidate) * tasks <= available) {
        suggestedDepth = candidate;
        break;
      }
    }
  }
  return {
    depth,
    rows,
    tasks,
    perTask,
    total,
    available,
    fits,
    suggestedDepth,
    tasksThatFit: available === null ? null : Math.min(tasks, Math.floor(available / perTask)),
  };
}

/** "10,000 rows ask 5,000 distinct questions: 5,000 tasks" when rows share questions; "20 rows" when none do. */
export function questionsText(rows: number, tasks: number): string {
  if (rows <= tasks) return counted(rows, 'row');
  return `${counted(rows, 'row')} ask ${counted(tasks, 'distinct question')}: ${counted(tasks, 'task')}`;
}

/** A sentence for the estimate, and for a launch that does not fit: needs, has, and what would fit. */
export function estimateMessage(estimate: CreditEstimate): string {
  const what = questionsText(estimate.rows, estimate.tasks);
  if (estimate.fits) {
    const total = `${what} x ${estimate.perTask} = ${estimate.total} credits reserved`;
    return estimate.available === null ? total : `${total} of ${estimate.available} available`;
  }
  const lower = estimate.suggestedDepth ? ` Try depth ${estimate.suggestedDepth}.` : '';
  const fit = estimate.tasksThatFit;
  const unit = estimate.rows > estimate.tasks ? 'task' : 'row';
  const part = fit ? ` ${counted(fit, unit)} ${fit === 1 ? 'fits' : 'fit'} at ${estimate.depth}.` : '';
  return `Needs ${estimate.total} credits, you have ${estimate.available}.${lower}${part}`;
}
