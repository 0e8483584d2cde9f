// One execution's work on the document's running job: the rows still to pass, in sheet order, from the job's cursor
// (sheet/job-view.ts), the lookups they need in batches of the client's adaptive size (the shared cache first, read
// once; retries of domains the service is still enriching or refused as they fall due), and the frontier: the rows
// whose domains have an outcome (their results go into the next save) or wait for a retry, up to the first row whose
// domain is not looked up yet. It stops when the rows are passed and nothing waits, when its time budget is spent,
// when the job must wait (the daily request budget, a retry due later than it may sleep) or pauses, and saves
// (save.ts) every save interval and when it stops.
import { profileFieldByKey, type ProfileField } from '../../companies/profile-fields';
import type { RowOutcome } from '../sheet/rows';
import { jobRows, type JobRows, type ViewRules } from '../sheet/job-view';
import { normalizeHeader } from '../sheet/layout';
import type { EnrichDeps } from '../ports';
import type { EnrichJob } from './job-state';
import { LIMITS } from './limits';
import { openLookupCache, resolveDomains, type LookupCacheSession, type LookupClient } from './lookups';
import { settleBatch, type BatchItem, type ChunkWork } from './settle';
import { fieldCells, readAddedColumns, type SheetState } from './job-sheet';

export type ChunkMode = 'sidebar' | 'trigger';

export class JobExecution {
  readonly fields: ProfileField[];
  readonly rules: ViewRules;
  rows: JobRows = { todo: [], awaiting: new Map(), counted: new Set() };
  /** Index in rows.todo of the first row not passed, and of the first row not yet looked at for lookups. */
  frontier = 0;
  private scan = 0;
  /** Outcomes of this execution, by domain. */
  readonly results = new Map<string, RowOutcome>();
  /** Rows passed whose results are not written yet (grid indexes). */
  toWrite: number[] = [];
  /** What this execution wrote, by domain (the fingerprints by field), dated as it ends. */
  readonly dated = new Map<string, Record<string, string>>();
  /** When the stop mark was last read. */
  stopCheckedAt: number;
  /** Domains whose results this execution wrote (their dates recorded). */
  readonly written = new Set<string>();
  session: LookupCacheSession | null = null;
  lastSave: number;
  /** A panel asked to stop the job. */
  stopped = false;
  /** A failure no retry fixes (token, settings, quota): the job pauses after saving. */
  fatal: ChunkWork['fatal'] = null;
  private client: LookupClient | null = null;

  constructor(
    readonly deps: EnrichDeps,
    public job: EnrichJob,
    public state: SheetState,
    readonly started: number,
  ) {
    this.fields = job.fields
      .map((key) => profileFieldByKey(key))
      .filter((field): field is ProfileField => field !== undefined);
    this.rules = {
      overwrite: job.overwrite,
      settled: job.headers.map((header) => job.settled.includes(normalizeHeader(header))),
    };
    this.lastSave = started;
    this.stopCheckedAt = started;
  }

  private retrying(): Set<string> {
    return new Set(this.job.retries.map((entry) => entry.d));
  }

  /**
   * Takes the rows from the state: from the job's cursor when `trusted`, else (rows moved) from the top with the
   * domains the job finished (`done`). Returns the rows still needing a value, and how many of them there are.
   */
  view(trusted: boolean, done: ReadonlySet<string> = new Set()): void {
    if (!trusted) readAddedColumns(this.state, this.job);
    this.rows = jobRows(this.state.rowKeys, (index) => fieldCells(this.state, index), this.rules, {
      cursor: trusted ? this.job.cursor : null,
      retrying: this.retrying(),
      done: new Set([...done, ...this.written]),
      marked: new Set(this.job.marked),
    });
    this.frontier = 0;
    this.scan = 0;
    this.toWrite = [];
    this.advance();
  }

  /** Rows that still need a value: not passed, passed and not written, and waiting for a retry. */
  remaining(): number {
    let awaiting = 0;
    for (const rows of this.rows.awaiting.values()) awaiting += rows.length;
    return this.rows.todo.length - this.frontier + this.toWrite.length + awaiting;
  }

  /** Lookups this execution may send: the domains of the rows not passed, and the retries. */
  lookupsAhead(): number {
    const domains = new Set(this.job.retries.map((entry) => entry.d));
    for (let i = this.frontier; i < this.rows.todo.length; i++) {
      const key = this.state.rowKeys[this.rows.todo[i]];
      if (key.kind === 'domain' && !this.rows.counted.has(key.domain)) domains.add(key.domain);
    }
    return domains.size;
  }

  /** Grid index of the first row neither written nor waiting for a retry (the job's cursor). */
  cursor(): number {
    return Math.min(this.rows.todo[this.frontier] ?? this.state.keys.length, ...this.toWrite);
  }

  finished(): boolean {
    return this.frontier >= this.rows.todo.length && this.job.retries.length === 0;
  }

  /** Passes the rows whose domain has an outcome or waits for a retry, up to the first that needs a lookup. */
  advance(): void {
    const waiting = this.retrying();
    while (this.frontier < this.rows.todo.length) {
      const index = this.rows.todo[this.frontier];
      const key = this.state.rowKeys[index];
      if (key.kind === 'domain' && !this.results.has(key.domain)) {
        if (!waiting.has(key.domain)) break;
        const rows = this.rows.awaiting.get(key.domain);
        if (rows) rows.push(index);
        else this.rows.awaiting.set(key.domain, [index]);
      } else this.toWrite.push(index);
      this.frontier++;
    }
  }

  /** The outcome of a domain: its rows waiting for it go into the next save; counted once per job. */
  private resolve(domain: string, outcome: RowOutcome, fromCache: boolean): void {
    this.results.set(domain, outcome);
    const awaiting = this.rows.awaiting.get(domain);
    if (awaiting) {
      this.toWrite.push(...awaiting);
      this.rows.awaiting.delete(domain);
    }
    if (outcome.kind === 'enriching' || outcome.kind === 'failed')
      this.job.marked = [...this.job.marked, domain].slice(-LIMITS.maxMarkedDomains);
    if (this.rows.counted.has(domain)) return;
    this.rows.counted.add(domain);
    this.job.resolvedDomains++;
    if (fromCache) this.job.cacheHits++;
  }

  /** Opens the execution's view of the cache: one read for every domain it may look up. */
  openCache(): void {
    const domains = new Set(this.job.retries.map((entry) => entry.d));
    for (const index of this.rows.todo) {
      const key = this.state.rowKeys[index];
      if (key.kind === 'domain') domains.add(key.domain);
    }
    this.session = openLookupCache(this.deps.cache, [...domains], this.deps.clock.now());
  }

  /**
   * The next domains to look up, in row order from the frontier (up to `count`, within `room` among the retries);
   * cached ones are resolved on the way.
   */
  private nextDomains(count: number, room: number, skip: ReadonlySet<string>): string[] {
    const picked: string[] = [];
    const limit = Math.min(count, room);
    const known = (this.session as LookupCacheSession).known;
    this.scan = Math.max(this.scan, this.frontier);
    for (; this.scan < this.rows.todo.length; this.scan++) {
      const key = this.state.rowKeys[this.rows.todo[this.scan]];
      if (key.kind !== 'domain' || this.results.has(key.domain) || skip.has(key.domain)) continue;
      if (picked.includes(key.domain)) continue;
      const hit = known.get(key.domain);
      if (hit)
        this.resolve(
          key.domain,
          hit.state === 'found' ? { kind: 'profile', values: hit.values } : { kind: 'not_found' },
          true,
        );
      else if (picked.length < limit) picked.push(key.domain);
      else break;
    }
    return picked;
  }

  /** When the retries falling due with the first one (within retryGroupMs) are all due; null when none waits. */
  private retriesDue(now: number): number | null {
    const times = this.job.retries.map((entry) => entry.at);
    if (times.length === 0) return null;
    const first = Math.min(...times);
    return Math.max(now, first, ...times.filter((at) => at <= first + LIMITS.retryGroupMs));
  }

  /**
   * Looks up and passes rows until the budget is spent or nothing can be done now; saves (through `save`) every save
   * interval. Returns when the execution should end.
   */
  work(budgetMs: number, mode: ChunkMode, save: () => void): void {
    const maxWait = mode === 'sidebar' ? LIMITS.sidebarMaxWaitMs : LIMITS.maxWaitMs;
    const { clock } = this.deps;
    this.client ??= this.deps.client();
    for (;;) {
      this.advance();
      let now = clock.now();
      if (now - this.lastSave >= LIMITS.saveIntervalMs) {
        save();
        if (this.stopped || this.job.status !== 'running') return;
      }
      if (now - this.started >= budgetMs || this.finished()) return;
      if (this.job.waitUntil !== null && now < this.job.waitUntil) return;
      this.job.waitUntil = null;
      const batchSize = this.client.batchSize();
      const due = this.job.retries.filter((entry) => entry.at <= now).slice(0, batchSize);
      const waiting = this.retrying();
      const room = Math.max(0, LIMITS.maxWaitingDomains - this.job.retries.length);
      const fresh = this.nextDomains(batchSize - due.length, room, waiting);
      this.advance();
      if (due.length + fresh.length === 0) {
        if (this.finished()) return;
        const until = this.retriesDue(now);
        if (until === null || until - now > maxWait || until - this.started >= budgetMs) return;
        if (until > now) clock.sleep(until - now);
        continue;
      }
      const batch: BatchItem[] = [
        ...due.map((entry) => ({ d: entry.d, retry: entry })),
        ...fresh.map((d) => ({ d, retry: undefined })),
      ];
      // Counted in the request budget ahead, a reservation at a time (one property write each).
      this.deps.requestsAhead.reserve(this.lookupsAhead());
      const resolved = resolveDomains(
        batch.map((item) => item.d),
        {
          session: this.session as LookupCacheSession,
          client: this.client,
          deadline: this.started + budgetMs,
          now: () => clock.now(),
        },
      );
      this.job.lookups += batch.length - resolved.cacheHits;
      this.job.requests += resolved.requests;
      now = clock.now();
      const dueSet = new Set(due.map((entry) => entry.d));
      this.job.retries = this.job.retries.filter((entry) => !dueSet.has(entry.d));
      const work: ChunkWork = { outcomes: new Map(), fatal: null, budgetUntil: null };
      settleBatch(this.job, work, batch, resolved.results, now);
      for (const [domain, outcome] of work.outcomes) this.resolve(domain, outcome, false);
      if (work.fatal) {
        this.fatal = work.fatal;
        return;
      }
      if (work.budgetUntil) {
        this.job.waitUntil = work.budgetUntil;
        return;
      }
    }
  }
}
