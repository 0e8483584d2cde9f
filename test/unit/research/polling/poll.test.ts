import type { Result } from '../../../../src/api/errors';
import type { ListTasksQuery, ResearchTask, TaskStatus } from '../../../../src/api/types';
import {
  cachePollMemory,
  NO_POLL_MEMORY,
  pagesStillNeeded,
  pollTasks,
  type PollMemory,
  type PollOptions,
  type PollTarget,
} from '../../../../src/research/polling/poll';
import type { ResearchClient } from '../../../../src/research/ports';
import { ManualClock, MemoryCache } from '../../../fakes/ports';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 1);

function task(id: string, createdAt: number, status: TaskStatus = 'in_progress', withReport = true): ResearchTask {
  const iso = new Date(createdAt).toISOString();
  return {
    id,
    created_at: iso,
    updated_at: iso,
    status,
    brief: `brief ${id}`,
    depth: 'medium',
    iterations: 1,
    agents: 2,
    sources: 3,
    report:
      status === 'done' && withReport
        ? { kind: 'markdown', markdown: `# ${id}`, sources: [], degradation_reasons: [] }
        : null,
    owner: { id: 'u1', email: 'pro@example.com' },
  } as ResearchTask;
}

/** The account's task list (newest first) as the service pages it; counts requests. */
class ListService implements ResearchClient {
  /** Oldest first, like creation order. */
  tasks: ResearchTask[] = [];
  forbidden = new Set<string>();
  listFails = false;
  pageRounds = 0;
  pages = 0;
  gets: string[] = [];
  constructor(
    private readonly clock?: ManualClock,
    private readonly msPerRound = 0,
  ) {}

  listTasks(query: ListTasksQuery): Result<ResearchTask[]> {
    this.pages += 1;
    if (this.listFails) return { ok: false, error: { kind: 'unavailable', status: 503 }, retries: 0 };
    const newest = this.tasks.filter((t) => !this.forbidden.has(t.id)).reverse();
    const offset = query.offset ?? 0;
    return { ok: true, value: newest.slice(offset, offset + (query.limit ?? 50)), status: 200, retries: 0 };
  }
  listTaskPages(queries: ListTasksQuery[]): Array<Result<ResearchTask[]>> {
    this.pageRounds += 1;
    this.clock?.sleep(this.msPerRound);
    return queries.map((query) => this.listTasks(query));
  }
  getTasks(ids: string[]): Array<Result<ResearchTask>> {
    this.gets.push(...ids);
    return ids.map((id) => {
      if (this.forbidden.has(id)) return { ok: false, error: { kind: 'forbidden' }, retries: 0 };
      const found = this.tasks.find((t) => t.id === id);
      return found
        ? { ok: true, value: found, status: 200, retries: 0 }
        : { ok: false, error: { kind: 'not_found' }, retries: 0 };
    });
  }
  createTasks(): never {
    throw new Error('not used');
  }
  getUser(): never {
    throw new Error('not used');
  }
}

class MapMemory implements PollMemory {
  notes = new Map<string, 'read' | 'forbidden'>();
  recall(taskIds: string[]) {
    return new Map(
      taskIds.filter((id) => this.notes.has(id)).map((id) => [id, this.notes.get(id) as 'read' | 'forbidden']),
    );
  }
  remember(notes: Array<{ taskId: string; note: 'read' | 'forbidden'; forMs: number }>) {
    for (const { taskId, note } of notes) this.notes.set(taskId, note);
  }
}

const options = (clock: ManualClock, overrides: Partial<PollOptions> = {}): PollOptions => ({
  getBatch: 100,
  clockSkewMs: 10 * MINUTE,
  deadline: clock.now() + 60_000,
  ...overrides,
});

/** `count` tasks created one second apart from `start`, ids prefixed. */
function series(prefix: string, count: number, start: number, status: TaskStatus = 'in_progress'): ResearchTask[] {
  return Array.from({ length: count }, (_, i) => task(`${prefix}${i}`, start + i * 1000, status));
}

const targetsOf = (tasks: ResearchTask[]): PollTarget[] =>
  tasks.map((t) => ({ taskId: t.id, sentAt: Date.parse(t.created_at) }));

describe('pollTasks', () => {
  it("reads 300 pending tasks, interleaved with other documents' tasks, from four list pages in two fetchAll rounds", () => {
    const clock = new ManualClock(T0 + 60 * MINUTE);
    const service = new ListService();
    const mine = series('m', 300, T0);
    const others = series('o', 50, T0 + 500);
    service.tasks = [...mine, ...others].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
    const result = pollTasks({ client: service, clock, memory: NO_POLL_MEMORY }, targetsOf(mine), options(clock));
    // ceil(300 / 100) = 3 pages in the first round; the 50 other tasks push 50 of mine onto a fourth page.
    expect(service.pageRounds).toBe(2);
    expect(result.requests).toBe(4);
    expect(service.gets).toEqual([]);
    expect(result.answers.size).toBe(300);
    expect([...result.answers.keys()].filter((id) => id.startsWith('o'))).toEqual([]);
    expect(result).toMatchObject({ partial: false, listError: null });
  });

  it('stops at pages older than the oldest wanted task: a long history costs nothing', () => {
    const clock = new ManualClock(T0 + 600 * MINUTE);
    const service = new ListService();
    const history = series('h', 5000, T0, 'done');
    const pending = series('p', 30, T0 + 500 * MINUTE);
    service.tasks = [...history, ...pending];
    const result = pollTasks({ client: service, clock, memory: NO_POLL_MEMORY }, targetsOf(pending), options(clock));
    expect(result.requests).toBe(1);
    expect(result.answers.size).toBe(30);
  });

  it('GETs only finished tasks whose list item has no report', () => {
    const clock = new ManualClock(T0 + 60 * MINUTE);
    const service = new ListService();
    service.tasks = [task('a', T0, 'done'), task('b', T0 + 1000, 'done', false), task('c', T0 + 2000, 'in_progress')];
    const result = pollTasks(
      { client: service, clock, memory: NO_POLL_MEMORY },
      targetsOf(service.tasks),
      options(clock),
    );
    expect(service.gets).toEqual(['b']);
    expect(result.requests).toBe(2);
    const answer = result.answers.get('a');
    expect(answer?.ok && answer.value.report?.kind).toBe('markdown');
    expect(result.answers.get('b')?.ok).toBe(true);
  });

  it('reads every task the list does not show, remembers 403s and does not re-read them every tick', () => {
    const clock = new ManualClock(T0 + 60 * MINUTE);
    const service = new ListService();
    const foreign = series('f', 12, T0);
    service.tasks = [...foreign, ...series('m', 3, T0 + 5000)];
    for (const t of foreign) service.forbidden.add(t.id);
    const memory = new MapMemory();
    const targets = targetsOf(service.tasks);
    const first = pollTasks({ client: service, clock, memory }, targets, options(clock));
    expect(service.gets).toHaveLength(12);
    expect(first.unreadable.size).toBe(12);
    expect(first.answers.size).toBe(3 + 12);
    const second = pollTasks({ client: service, clock, memory }, targets, options(clock));
    expect(service.gets).toHaveLength(12);
    expect(second.unreadable.size).toBe(12);
    expect(second.requests).toBe(1);
  });

  it('reaches pending tasks behind thousands of newer ones: every one is read, by pages while they are cheaper', () => {
    const clock = new ManualClock(T0 + 600 * MINUTE);
    const service = new ListService();
    const mine = series('m', 600, T0);
    // Four thousand tasks made since by other documents and tools, a thousand older ones before.
    service.tasks = [...series('h', 1000, T0 - 2000 * 1000, 'done'), ...mine, ...series('o', 4000, T0 + 700_000)];
    const result = pollTasks({ client: service, clock, memory: new MapMemory() }, targetsOf(mine), options(clock));
    expect(result.answers.size).toBe(600);
    expect(service.gets).toEqual([]);
    // 46 pages reach them (4,000 newer + 600 mine); a round estimated from the density may read a page or two more,
    // and no page of the older history is read.
    expect(result.pages).toBeGreaterThanOrEqual(46);
    expect(result.pages).toBeLessThanOrEqual(48);
    expect(result.requests).toBe(result.pages);
    expect(result.partial).toBe(false);
  });

  it('reads a few pending tasks behind a long list on their own: a GET each costs less than the pages', () => {
    const clock = new ManualClock(T0 + 600 * MINUTE);
    const service = new ListService();
    const mine = series('m', 8, T0);
    service.tasks = [...mine, ...series('o', 5000, T0 + 100_000)];
    const memory = cachePollMemory(new MemoryCache(clock));
    const result = pollTasks({ client: service, clock, memory }, targetsOf(mine), options(clock));
    expect(result.answers.size).toBe(8);
    expect(result.pages).toBe(1);
    expect([...service.gets].sort()).toEqual(mine.map((t) => t.id).sort());
    expect(result.requests).toBe(9);
    // Read on their own, they wait a while before the next read (a quarter of their age, at most 30 minutes): a tick
    // with none due sends nothing.
    const again = pollTasks({ client: service, clock, memory }, targetsOf(mine), options(clock));
    expect(again.requests).toBe(0);
    clock.advance(31 * MINUTE);
    expect(pollTasks({ client: service, clock, memory }, targetsOf(mine), options(clock)).requests).toBe(9);
  });

  it('estimates the pages still needed from the density of the pages read', () => {
    const targets = [{ taskId: 'a', sentAt: 0 }];
    // 200 items read over 200 s: one a second; the target is 1,000 s older than the oldest read: 10 pages.
    expect(pagesStillNeeded(targets, { items: 200, newest: 1_200_000, oldest: 1_000_000 })).toBe(10);
    // At least a page per 100 targets, whatever the density.
    const many = Array.from({ length: 250 }, (_, i) => ({ taskId: `t${i}`, sentAt: 999_000 }));
    expect(pagesStillNeeded(many, { items: 100, newest: 1_100_000, oldest: 1_000_000 })).toBe(3);
    expect(pagesStillNeeded([], { items: 100, newest: 1, oldest: 0 })).toBe(0);
  });

  it('a task deleted by the service is reported not found', () => {
    const clock = new ManualClock(T0 + 60 * MINUTE);
    const service = new ListService();
    service.tasks = [task('a', T0)];
    const result = pollTasks(
      { client: service, clock, memory: NO_POLL_MEMORY },
      [{ taskId: 'gone', sentAt: T0 }, ...targetsOf(service.tasks)],
      options(clock),
    );
    const answer = result.answers.get('gone');
    expect(answer && !answer.ok && answer.error.kind).toBe('not_found');
  });

  it('reads nothing else when the list cannot be read', () => {
    const clock = new ManualClock(T0 + 60 * MINUTE);
    const service = new ListService();
    service.tasks = series('m', 10, T0);
    service.listFails = true;
    const result = pollTasks(
      { client: service, clock, memory: NO_POLL_MEMORY },
      [...targetsOf(service.tasks), { taskId: 'x', sentAt: T0 }],
      options(clock),
    );
    expect(result.listError?.kind).toBe('unavailable');
    expect(service.gets).toEqual([]);
    expect(result.answers.size).toBe(0);
  });

  it('stops starting rounds at the deadline and does not read unseen tasks after a cut-short scan', () => {
    const clock = new ManualClock(T0 + 60 * MINUTE);
    const service = new ListService(clock, 2000);
    const mine = series('m', 150, T0);
    service.tasks = [...mine, ...series('o', 200, T0 + 200_000)];
    const result = pollTasks(
      { client: service, clock, memory: NO_POLL_MEMORY },
      targetsOf(mine),
      options(clock, { deadline: clock.now() + 1000 }),
    );
    expect(result.partial).toBe(true);
    expect(service.pageRounds).toBe(1);
    expect(service.gets).toEqual([]);
  });

  it('sends nothing when there is nothing to poll', () => {
    const clock = new ManualClock();
    const service = new ListService();
    expect(pollTasks({ client: service, clock, memory: NO_POLL_MEMORY }, [], options(clock)).requests).toBe(0);
    expect(service.pages).toBe(0);
  });
});

describe('cachePollMemory', () => {
  it('keeps each note until its expiry, one putAll per expiry', () => {
    const cache = new MemoryCache();
    const memory = cachePollMemory(cache);
    memory.remember([
      { taskId: 'a', note: 'forbidden', forMs: 30 * MINUTE },
      { taskId: 'b', note: 'read', forMs: 90_000 },
      { taskId: 'c', note: 'forbidden', forMs: 30 * MINUTE },
    ]);
    expect(cache.puts).toBe(2);
    expect(new Set([...cache.entries.values()].map((entry) => entry.ttl))).toEqual(new Set([1800, 90]));
    expect(memory.recall(['a', 'b', 'c', 'd'])).toEqual(
      new Map([
        ['a', 'forbidden'],
        ['b', 'read'],
        ['c', 'forbidden'],
      ]),
    );
  });
});
