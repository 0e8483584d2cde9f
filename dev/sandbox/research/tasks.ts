// Deep research tasks: creation (credit reservation), the run driven by the sandbox clock (planning, waves of research
// agents, analysis steps with follow-up questions, report composition), billing on completion (2 credits per agent
// that ran, the rest of the reservation released), refunds on failure, the record of those credit movements per token
// and UTC day (the money oracle of GET /_sandbox/ledger), visibility rules, and the task JSON of 2.1.
import { canReadTaskOf, type Account, type Accounts } from '../accounts';
import { isoTime } from '../clock';
import type { Company, CompanyIndex } from '../companies/company-index';
import type { CompanyRanking } from '../companies/company-search';
import { EventQueue } from '../event-queue';
import { createRng, hashString, unitHash, uuidFromRng } from '../random';
import { runAgent } from './research-agents';
import {
  DEPTH_BUDGET,
  WAVE_SIZE,
  type Depth,
  type ResearchPlan,
  type ResearchPlanner,
  type SubQuestion,
} from './research-planner';
import { composeMarkdownReport, type FinishedAgent, type MarkdownReport } from './report-markdown';
import { composeSchemaReport, type SchemaReport } from './report-schema';

export const CREDITS_PER_AGENT = 2;
export type TaskStatus = 'created' | 'in_progress' | 'done' | 'failed';
export type MidRunFailure = 'credits' | 'internal';

/** Step durations at speed 1: one wave of agents takes 10-12 s in all, two waves (a full medium budget) about 18 s. */
export const BASE_TIMINGS = { planMs: 3500, agentMinMs: 3000, agentSpreadMs: 2000, analysisMs: 1500, composeMs: 2000 };

/** Credits moved for research: reserved at creation, charged (2 per agent that ran) and refunded when a task ends. */
export interface CreditMovements {
  reserved: number;
  charged: number;
  refunded: number;
}

/** One UTC day of a token's research credits: the day's totals and each task's share of them, in first-move order. */
export interface LedgerDay extends CreditMovements {
  /** YYYY-MM-DD, by the sandbox clock in UTC. */
  day: string;
  tasks: Array<CreditMovements & { id: string }>;
}

/** What every token's research reserved, charged and refunded, per UTC day of the sandbox clock. */
export class CreditLedger {
  private readonly byToken = new Map<string, Map<string, LedgerDay>>();

  record(task: Task, at: number, moved: Partial<CreditMovements>): void {
    const day = isoTime(at).slice(0, 10);
    let days = this.byToken.get(task.owner.token);
    if (!days) this.byToken.set(task.owner.token, (days = new Map()));
    let entry = days.get(day);
    if (!entry) days.set(day, (entry = { day, reserved: 0, charged: 0, refunded: 0, tasks: [] }));
    let share = entry.tasks.find((item) => item.id === task.id);
    if (!share) entry.tasks.push((share = { id: task.id, reserved: 0, charged: 0, refunded: 0 }));
    for (const key of ['reserved', 'charged', 'refunded'] as const) {
      entry[key] += moved[key] ?? 0;
      share[key] += moved[key] ?? 0;
    }
  }

  /** The token's days with any movement, oldest first. */
  days(token: string): LedgerDay[] {
    return [...(this.byToken.get(token)?.values() ?? [])].sort((a, b) => a.day.localeCompare(b.day));
  }

  tokens(): string[] {
    return [...this.byToken.keys()];
  }

  clear(): void {
    this.byToken.clear();
  }
}

/** An agent of the current wave, with the companies it found for follow-up questions. */
interface WaveAgent extends FinishedAgent {
  discovered: Company[];
}

interface Task {
  id: string;
  owner: Account;
  createdAt: number;
  updatedAt: number;
  status: TaskStatus;
  brief: string;
  depth: Depth;
  outputSchema: Record<string, unknown> | null;
  failureReason: string | null;
  iterations: number;
  agents: number;
  sources: Set<string>;
  report: MarkdownReport | SchemaReport | null;
  reservedCredits: number;
  /** Multiplier on this task's progress (the engine's pace when it was created). */
  speed: number;
  plan?: ResearchPlan;
  queue: SubQuestion[];
  wave: SubQuestion[];
  waveFinished: WaveAgent[];
  finished: FinishedAgent[];
  startedAgents: number;
  covered: Set<Company>;
  degradations: string[];
}

type TaskEvent =
  | { kind: 'plan'; taskId: string }
  | { kind: 'agent'; taskId: string; question: SubQuestion }
  | { kind: 'analysis'; taskId: string }
  | { kind: 'compose'; taskId: string };

export interface TaskEngineDeps {
  accounts: Accounts;
  index: CompanyIndex;
  ranking: CompanyRanking;
  planner: ResearchPlanner;
  seed: number;
  /** Multiplier on task progress: 2 runs twice as fast as the default timings. */
  speed: number;
}

export class TaskEngine {
  private tasks = new Map<string, Task>();
  /** Tasks in creation order; the sandbox clock never goes back (except on reset, which clears tasks). */
  private readonly createdOrder: Task[] = [];
  private sequence = 0;
  private readonly events = new EventQueue<TaskEvent>();
  readonly ledger = new CreditLedger();

  /** Multiplier on the progress of the tasks created from now on (deps.speed until set). */
  private speed: number;

  constructor(private readonly deps: TaskEngineDeps) {
    this.speed = deps.speed;
  }

  /** Research pace of the tasks created from now on (each task keeps the pace it was created at). */
  setSpeed(speed: number): void {
    this.speed = speed;
  }

  get currentSpeed(): number {
    return this.speed;
  }

  reset(): void {
    this.speed = this.deps.speed;
    this.tasks.clear();
    this.createdOrder.length = 0;
    this.sequence = 0;
    this.events.clear();
    this.ledger.clear();
  }

  /** Creates a task, reserving the full depth budget; the caller has checked plan and credits. */
  create(owner: Account, brief: string, depth: Depth, outputSchema: Record<string, unknown> | null, now: number): Task {
    this.sequence += 1;
    const id = uuidFromRng(createRng(hashString(`${this.deps.seed}:task:${this.sequence}`)));
    const reservedCredits = DEPTH_BUDGET[depth] * CREDITS_PER_AGENT;
    owner.credits -= reservedCredits;
    const task: Task = {
      id,
      owner,
      createdAt: now,
      updatedAt: now,
      status: 'created',
      brief,
      depth,
      outputSchema,
      failureReason: null,
      iterations: 0,
      agents: 0,
      sources: new Set(),
      report: null,
      reservedCredits,
      speed: this.speed,
      queue: [],
      wave: [],
      waveFinished: [],
      finished: [],
      startedAgents: 0,
      covered: new Set(),
      degradations: [],
    };
    this.tasks.set(id, task);
    this.createdOrder.push(task);
    this.ledger.record(task, now, { reserved: reservedCredits });
    this.events.push(now + this.duration(task, BASE_TIMINGS.planMs), { kind: 'plan', taskId: id });
    return task;
  }

  get(id: string): Task | undefined {
    return this.tasks.get(id.toLowerCase());
  }

  canRead(reader: Account, task: Task): boolean {
    return canReadTaskOf(reader, task.owner);
  }

  /** Tasks the reader may see (own and same organization), newest first. */
  listVisible(reader: Account, offset: number, limit: number): Task[] {
    const page: Task[] = [];
    let skipped = 0;
    for (let index = this.createdOrder.length - 1; index >= 0 && page.length < limit; index--) {
      const task = this.createdOrder[index];
      if (!this.canRead(reader, task)) continue;
      if (skipped < offset) skipped += 1;
      else page.push(task);
    }
    return page;
  }

  all(): Task[] {
    return [...this.createdOrder];
  }

  /**
   * Adds `count` finished tasks of `owner` made elsewhere (another tool, another spreadsheet), created `spacingMs`
   * apart and the newest at `newestAt`, each in its place in the creation order. They are history: nothing is
   * reserved or charged, and each carries a short markdown report. Returns their ids, oldest first.
   */
  seedFinished(owner: Account, count: number, newestAt: number, spacingMs: number): string[] {
    const ids: string[] = [];
    for (let i = count - 1; i >= 0; i--) {
      this.sequence += 1;
      const id = uuidFromRng(createRng(hashString(`${this.deps.seed}:task:${this.sequence}`)));
      const createdAt = newestAt - i * spacingMs;
      const task: Task = {
        id,
        owner,
        createdAt,
        updatedAt: createdAt,
        status: 'done',
        brief: `Earlier research ${this.sequence} (made elsewhere)`,
        depth: 'medium',
        outputSchema: null,
        failureReason: null,
        iterations: 1,
        agents: 1,
        sources: new Set(),
        report: {
          kind: 'markdown',
          markdown: `# Earlier research ${this.sequence}`,
          sources: [],
          degradation_reasons: [],
        },
        reservedCredits: 0,
        speed: this.speed,
        queue: [],
        wave: [],
        waveFinished: [],
        finished: [],
        startedAgents: 1,
        covered: new Set(),
        degradations: [],
      };
      this.tasks.set(id, task);
      let at = this.createdOrder.length;
      while (at > 0 && this.createdOrder[at - 1].createdAt > createdAt) at--;
      this.createdOrder.splice(at, 0, task);
      ids.push(id);
    }
    return ids;
  }

  /** Ends a running task as failed (control API); false when it had already finished. */
  failMidRun(task: Task, reason: MidRunFailure, now: number): boolean {
    if (task.status === 'done' || task.status === 'failed') return false;
    this.fail(
      task,
      reason === 'credits'
        ? 'Insufficient credits mid-run: the account ran out of credits while research agents were running. All charges for this task were refunded; add credits or choose a lower depth, then retry.'
        : 'Internal error: the research run stopped unexpectedly. All charges for this task were refunded; retry the task.',
      now,
    );
    return true;
  }

  /** Processes every task event due at or before `now`, in time order. */
  processUntil(now: number): void {
    for (let due = this.events.popDue(now); due; due = this.events.popDue(now)) {
      const task = this.tasks.get(due.event.taskId);
      if (!task || task.status === 'done' || task.status === 'failed') continue;
      this.handle(task, due.event, due.at);
    }
  }

  private duration(task: Task, baseMs: number): number {
    return Math.max(1, Math.round(baseMs / task.speed));
  }

  private handle(task: Task, event: TaskEvent, at: number): void {
    if (event.kind === 'plan') this.planTask(task, at);
    else if (event.kind === 'agent') this.finishAgent(task, event.question, at);
    else if (event.kind === 'analysis') this.analyze(task, at);
    else this.compose(task, at);
  }

  private planTask(task: Task, at: number): void {
    const outcome = this.deps.planner.plan(task.brief, task.depth, task.outputSchema, at);
    if (!outcome.ok) {
      this.fail(task, outcome.reason, at);
      return;
    }
    task.plan = outcome.plan;
    task.queue = [...outcome.plan.initial];
    if (outcome.plan.target.kind === 'company') {
      task.covered.add(outcome.plan.target.primary);
      for (const other of outcome.plan.target.others) task.covered.add(other);
    }
    task.status = 'in_progress';
    task.updatedAt = at;
    this.startWave(task, at);
  }

  private startWave(task: Task, at: number): void {
    const plan = task.plan as ResearchPlan;
    const size = Math.min(WAVE_SIZE[task.depth], plan.budget - task.startedAgents, task.queue.length);
    task.wave = task.queue.splice(0, size);
    task.waveFinished = [];
    for (const question of task.wave) {
      const agentNumber = task.startedAgents++;
      const agentMs =
        BASE_TIMINGS.agentMinMs + unitHash(`${task.id}:agent:${agentNumber}`) * BASE_TIMINGS.agentSpreadMs;
      this.events.push(at + this.duration(task, agentMs), { kind: 'agent', taskId: task.id, question });
    }
  }

  private finishAgent(task: Task, question: SubQuestion, at: number): void {
    const plan = task.plan as ResearchPlan;
    const outcome = runAgent(question, plan, this.deps.index, this.deps.ranking, at);
    const finished: WaveAgent = {
      question,
      ok: outcome.ok,
      evidence: outcome.evidence,
      discovered: outcome.discovered,
    };
    task.waveFinished.push(finished);
    task.finished.push(finished);
    task.agents += 1;
    for (const evidence of outcome.evidence) for (const url of evidence.sources) task.sources.add(url);
    if (!outcome.ok && outcome.failure) task.degradations.push(outcome.failure);
    if (question.company) task.covered.add(question.company);
    for (const member of question.companies ?? []) task.covered.add(member);
    task.updatedAt = at;
    if (task.waveFinished.length === task.wave.length)
      this.events.push(at + this.duration(task, BASE_TIMINGS.analysisMs), { kind: 'analysis', taskId: task.id });
  }

  private analyze(task: Task, at: number): void {
    const plan = task.plan as ResearchPlan;
    task.iterations += 1;
    task.updatedAt = at;
    for (const finished of task.waveFinished) {
      const free = plan.budget - task.startedAgents - task.queue.length;
      const followUps = this.deps.planner.followUps(plan, finished.question, finished.discovered, task.covered, free);
      for (const question of followUps) {
        if (question.company) task.covered.add(question.company);
        for (const member of question.companies ?? []) task.covered.add(member);
      }
      task.queue.push(...followUps);
    }
    if (task.queue.length > 0 && task.startedAgents < plan.budget) {
      this.startWave(task, at);
      return;
    }
    if (task.queue.length > 0) {
      const left = task.queue.map((question) => question.question);
      task.degradations.push(
        `Finalized early: the depth budget of ${plan.budget} research agents was used up with ${left.length} planned sub-question${left.length === 1 ? '' : 's'} left unresearched ` +
          `(${left.slice(0, 3).join(' ')}${left.length > 3 ? ' …' : ''}).${task.depth === 'xhigh' ? '' : ' A higher depth would cover them.'}`,
      );
      task.queue = [];
    }
    this.events.push(at + this.duration(task, BASE_TIMINGS.composeMs), { kind: 'compose', taskId: task.id });
  }

  private compose(task: Task, at: number): void {
    const plan = task.plan as ResearchPlan;
    if (task.outputSchema) {
      const outcome = composeSchemaReport(task.outputSchema, plan, task.finished, task.degradations);
      if (!outcome.ok) {
        this.fail(
          task,
          `Internal error: ${outcome.error}. All charges for this task were refunded; simplify the schema's constraints and retry.`,
          at,
        );
        return;
      }
      task.report = outcome.report;
    } else {
      task.report = composeMarkdownReport(plan, task.finished, task.brief, task.degradations);
    }
    task.status = 'done';
    task.updatedAt = at;
    const charged = task.agents * CREDITS_PER_AGENT;
    task.owner.credits += task.reservedCredits - charged;
    this.ledger.record(task, at, { charged, refunded: task.reservedCredits - charged });
  }

  private fail(task: Task, reason: string, at: number): void {
    task.status = 'failed';
    task.failureReason = reason;
    task.updatedAt = at;
    task.owner.credits += task.reservedCredits;
    this.ledger.record(task, at, { refunded: task.reservedCredits });
  }
}

/** The task object of spec 2.1. */
export function taskObject(task: Task): Record<string, unknown> {
  return {
    id: task.id,
    created_at: isoTime(task.createdAt),
    updated_at: isoTime(task.updatedAt),
    status: task.status,
    brief: task.brief,
    depth: task.depth,
    output_schema: task.outputSchema,
    failure_reason: task.failureReason,
    iterations: task.iterations,
    agents: task.agents,
    sources: task.sources.size,
    report: task.report,
    owner: { id: task.owner.userId, email: task.owner.email },
  };
}

export type { Task };
