// Adaptive throughput of the service client, the one batch sizer every bulk path goes through (the executor sends
// each fetchAll round through it): how many requests one round sends, and how soon the next may start.
// - The batch grows while rounds are healthy (four times after the first, then twice: a larger round that takes no
//   longer shows the platform runs them all at once), up to a ceiling, and halves at once on a 429 or a 5xx.
// - A round larger than any known to be fast that takes over 1.2 times the healthy round time sent more parallel
//   requests than the platform or the service really runs at once (Apps Script runs a fetchAll's requests in waves of
//   its effective concurrency: a round one request over a wave takes a wave longer). The next rounds look halfway
//   between the largest round known to be fast and the smallest found slow until the two meet, and the ceiling is the
//   largest fast one: a whole number of waves, every request slot used. Every 10 healthy full rounds at the ceiling
//   raise it by one, so a ceiling learned in a bad moment recovers; each probe that proves slow again doubles that
//   interval (up to 80 rounds), as a slow probe costs a whole round. When a size already known to be fast takes over
//   1.5 times the healthy time, the size is not the cause (the service or the machine is slower for every size): the
//   healthy round time follows it instead, so a busy moment does not ratchet the ceiling down round after round.
// - After a 429 the rounds are paced at a learned request rate. The first estimate assumes the usual token bucket
//   (a burst of one second's requests, then that many a second): what was accepted since the first round over
//   (1 s + the time it took), at least what the refused round got through. Each later 429 lowers the rate by a
//   fifth; each healthy round sent at the rate (started no later than a tenth after its paced moment) raises it by a
//   twentieth, up to 95 % of the rate last refused, where it holds: the client settles just under the limit instead
//   of meeting it every few rounds. After 10 healthy rounds at that cap it probes a twentieth higher, so a limit that
//   was raised is found again. A round sent slower than the rate proves nothing about it, so it does not raise it
//   (else slow rounds would let the rate drift far above the limit, to be met in a burst once rounds are fast).
//   A round of n requests starts n / rate seconds after the service's bucket is taken to be empty: when the last
//   round started, or when it ended if the service refused some of it (the bucket ran dry during it). The batch is
//   not halved for a 429 while paced: the rate already slows the rounds. Retry-After itself is honoured by the
//   executor (or by a bulk caller that queues the refused calls).
// The state is small and plain so a document can keep it between executions (src/platform/throughput-store.ts);
// it includes when the bucket was last taken to be empty, so the pacing goes on across executions (a new job does
// not burst into a service whose allowance the previous one used up).

export interface ThroughputState {
  /** Requests per round now. */
  batch: number;
  /** Largest batch worth trying (lowered when a larger one was slow). */
  ceiling: number;
  /** Requests per second the service accepts, once a 429 was seen; null while none was. */
  ratePerSecond: number | null;
  /** The paced rate at which the service last refused requests (the rate holds just under it); null before. */
  refusedRate: number | null;
  /** Healthy paced rounds held at the cap under `refusedRate` since it last moved (10 lift it a twentieth). */
  rateStreak: number;
  /** The healthy round time, in ms (slowly follows the service), or null before the first round. */
  roundMs: number | null;
  /** The largest full round that was fast and healthy. */
  healthyMax: number;
  /** Healthy full rounds at the ceiling since it last moved (the ceiling is raised by one every `probeEvery`). */
  streak: number;
  /** Healthy full rounds at the ceiling before it is probed one higher: 10, doubled by each slow probe, up to 80. */
  probeEvery: number;
  /** While the ceiling is searched for: the smallest round found slow (absent or null otherwise). */
  slowMin?: number | null;
  /** When the service's bucket is taken to be empty (the last round's start, or its end if some of it was refused),
   * so pacing goes on across executions; null before the first round. */
  bucketEmptyAtMs: number | null;
  /**
   * The slowest recent round, in ms: the longest duration met, less a tenth for each later round (so one bad moment
   * fades); what a caller with a hard time limit expects a round may take. Absent before the first round.
   */
  slowestRoundMs?: number;
}

export interface ThroughputLimits {
  minBatch: number;
  initialBatch: number;
  maxBatch: number;
}

/** Apps Script documents no cap per fetchAll; practitioners see 10-20 effective parallel fetches, so start at 25. */
export const THROUGHPUT_LIMITS: ThroughputLimits = { minBatch: 4, initialBatch: 25, maxBatch: 100 };

/** What one round met: how many requests it sent, how long it took, and how many were refused or failed. */
export interface RoundReport {
  size: number;
  startedMs: number;
  durationMs: number;
  /** Answers 429. */
  rateLimited: number;
  /** Answers 5xx and failures without an answer. */
  failed: number;
}

const SLOW_ROUND_FACTOR = 1.5;
/** A round larger than any known to be fast is slow past this factor of the healthy round time (a wave more). */
const GROWTH_SLOW_FACTOR = 1.2;
const RATE_DECREASE = 0.8;
const RATE_INCREASE = 1.05;
/** The paced rate holds at this share of the rate last refused. */
const RATE_CAP = 0.95;
const ROUND_MS_DRIFT = 1.05;
const PROBE_EVERY = 10;
const PROBE_EVERY_MAX = 80;
/** A round started within this factor of its paced interval after the last one was sent at the learned rate. */
const PACED_TOLERANCE = 1.1;
/** Each round lowers the slowest round remembered by this share of it (unless it is slower still). */
const SLOWEST_FADE = 0.9;

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

export class AdaptiveThroughput {
  private current: ThroughputState;
  /** Requests accepted by the service since this instance's first round, and when that round started. */
  private accepted = { count: 0, sinceMs: null as number | null };

  constructor(
    saved: ThroughputState | null = null,
    private readonly limits: ThroughputLimits = THROUGHPUT_LIMITS,
    private readonly onChange: (state: ThroughputState) => void = () => undefined,
    /** How many requests of one fetchAll Google runs at once, where Check this installation measured it. */
    private readonly width: number | null = null,
  ) {
    this.current = saved
      ? this.sane(saved)
      : {
          batch: limits.initialBatch,
          ceiling: limits.maxBatch,
          ratePerSecond: null,
          refusedRate: null,
          rateStreak: 0,
          roundMs: null,
          healthyMax: 0,
          streak: 0,
          probeEvery: PROBE_EVERY,
          bucketEmptyAtMs: null,
        };
  }

  state(): ThroughputState {
    return { ...this.current };
  }

  /** The slowest recent round (see ThroughputState.slowestRoundMs), or null before the first round. */
  slowestRoundMs(): number | null {
    return this.current.slowestRoundMs ?? null;
  }

  /**
   * Requests the next round should send (never more than `wanted`): with fetchAll's width known, a round the batch
   * caps is a whole number of the waves Google runs (a partial last wave costs a full one).
   */
  batchSize(wanted = Infinity): number {
    const byRate = this.current.ratePerSecond === null ? Infinity : Math.max(1, Math.floor(this.current.ratePerSecond));
    const size = Math.max(1, Math.min(wanted, this.current.batch, byRate));
    const width = this.width ?? 0;
    return size < wanted && width > 0 && size > width ? size - (size % width) : size;
  }

  /** Milliseconds to wait before a round of `size` starts at `nowMs`, so the learned rate is kept. */
  delayBefore(nowMs: number, size: number): number {
    const earliest = this.pacedStart(size);
    return earliest === null ? 0 : Math.max(0, Math.ceil(earliest - nowMs));
  }

  /** The earliest start of a round of `size` at the learned rate; null while nothing paces the rounds. */
  private pacedStart(size: number): number | null {
    const { ratePerSecond: rate, bucketEmptyAtMs } = this.current;
    if (rate === null || bucketEmptyAtMs === null) return null;
    return bucketEmptyAtMs + (size / rate) * 1000;
  }

  record(round: RoundReport): void {
    if (round.size <= 0) return;
    const before = JSON.stringify(this.current);
    const sentAtRate = this.sentAtRate(round);
    this.current.bucketEmptyAtMs = round.startedMs + (round.rateLimited > 0 ? round.durationMs : 0);
    this.accepted.sinceMs ??= round.startedMs;
    this.accepted.count += round.size - round.rateLimited;
    this.current.slowestRoundMs = Math.round(
      Math.max(round.durationMs, (this.current.slowestRoundMs ?? 0) * SLOWEST_FADE),
    );
    if (round.rateLimited > 0) this.rateLimited(round);
    else if (round.failed > 0) this.shrink();
    else this.healthy(round, sentAtRate);
    if (JSON.stringify(this.current) !== before) this.onChange(this.state());
  }

  /** Whether a round started as soon after the last one as the learned rate lets it. */
  private sentAtRate(round: RoundReport): boolean {
    const { bucketEmptyAtMs } = this.current;
    const earliest = this.pacedStart(round.size);
    if (earliest === null || bucketEmptyAtMs === null) return false;
    return round.startedMs - bucketEmptyAtMs <= (earliest - bucketEmptyAtMs) * PACED_TOLERANCE;
  }

  private rateLimited(round: RoundReport): void {
    if (this.current.ratePerSecond !== null) {
      this.current.refusedRate = this.current.ratePerSecond;
      this.current.rateStreak = 0;
      this.current.ratePerSecond = Math.max(1, this.current.ratePerSecond * RATE_DECREASE);
      return;
    }
    const elapsedSeconds = (round.startedMs + round.durationMs - (this.accepted.sinceMs ?? round.startedMs)) / 1000;
    const sinceFirstRound = this.accepted.count / (1 + elapsedSeconds);
    this.current.ratePerSecond = Math.max(1, round.size - round.rateLimited, sinceFirstRound);
    this.shrink();
  }

  private shrink(): void {
    this.current.batch = Math.max(this.limits.minBatch, Math.floor(this.current.batch / 2));
  }

  private healthy(round: RoundReport, sentAtRate: boolean): void {
    const { roundMs } = this.current;
    const full = round.size >= this.current.batch;
    const growing = round.size > this.current.healthyMax;
    const factor = growing ? GROWTH_SLOW_FACTOR : SLOW_ROUND_FACTOR;
    const slow = roundMs !== null && full && round.durationMs > factor * roundMs;
    if (slow && growing) {
      this.slow(round.size);
      return;
    }
    if (slow) this.current.roundMs = round.durationMs;
    else
      this.current.roundMs = roundMs === null ? round.durationMs : Math.min(roundMs * ROUND_MS_DRIFT, round.durationMs);
    if (this.current.ratePerSecond !== null && sentAtRate) this.raiseRate(this.current.ratePerSecond);
    if (!full) return;
    const first = this.current.healthyMax === 0;
    if (round.size > this.current.healthyMax) this.current.probeEvery = PROBE_EVERY;
    this.current.healthyMax = Math.max(this.current.healthyMax, round.size);
    if (this.current.batch >= this.current.ceiling && ++this.current.streak >= this.current.probeEvery) {
      this.current.ceiling = Math.min(this.limits.maxBatch, this.current.ceiling + 1);
      this.current.streak = 0;
    }
    const slowMin = this.current.slowMin ?? null;
    // The first round only sets the healthy time: the next is four times as large, then each twice the last.
    if (slowMin === null) this.current.batch = Math.min(this.current.ceiling, this.current.batch * (first ? 4 : 2));
    else this.search(slowMin);
  }

  /** The next round between the largest round known fast and the smallest found slow; settles when they meet. */
  private search(slowMin: number): void {
    const fast = Math.max(this.limits.minBatch, this.current.healthyMax);
    if (slowMin - fast > 1) {
      this.current.slowMin = slowMin;
      this.current.ceiling = slowMin - 1;
      this.current.batch = Math.floor((fast + slowMin) / 2);
      return;
    }
    this.current.slowMin = null;
    this.current.ceiling = Math.min(this.current.ceiling, fast);
    this.current.batch = this.current.ceiling;
  }

  /** Raises the paced rate a twentieth, up to its cap under the last refused rate; lifts the cap after a while. */
  private raiseRate(rate: number): void {
    const { refusedRate } = this.current;
    const cap = refusedRate === null ? Infinity : refusedRate * RATE_CAP;
    if (rate * RATE_INCREASE <= cap) {
      this.current.ratePerSecond = rate * RATE_INCREASE;
      return;
    }
    this.current.ratePerSecond = Math.max(rate, cap);
    if (refusedRate !== null && ++this.current.rateStreak >= PROBE_EVERY) {
      this.current.refusedRate = refusedRate * RATE_INCREASE;
      this.current.rateStreak = 0;
    }
  }

  private slow(size: number): void {
    if (size === this.current.healthyMax + 1)
      this.current.probeEvery = Math.min(PROBE_EVERY_MAX, this.current.probeEvery * 2);
    this.current.streak = 0;
    this.search(size);
  }

  private sane(saved: ThroughputState): ThroughputState {
    const { minBatch, maxBatch } = this.limits;
    const number = (value: unknown, fallback: number) =>
      typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
    const ceiling = clamp(Math.floor(number(saved.ceiling, maxBatch)), minBatch, maxBatch);
    return {
      batch: clamp(Math.floor(number(saved.batch, this.limits.initialBatch)), minBatch, ceiling),
      ceiling,
      ratePerSecond: saved.ratePerSecond === null ? null : number(saved.ratePerSecond, 0) || null,
      refusedRate: number(saved.refusedRate, 0) || null,
      rateStreak: 0,
      roundMs: saved.roundMs === null ? null : number(saved.roundMs, 0) || null,
      healthyMax: clamp(Math.floor(number(saved.healthyMax, 0)), 0, ceiling),
      streak: 0,
      probeEvery: clamp(Math.floor(number(saved.probeEvery, PROBE_EVERY)), PROBE_EVERY, PROBE_EVERY_MAX),
      slowMin: number(saved.slowMin, 0) > ceiling ? Math.floor(number(saved.slowMin, 0)) : null,
      bucketEmptyAtMs: Number.isFinite(saved.bucketEmptyAtMs) ? saved.bucketEmptyAtMs : null,
      ...(number(saved.slowestRoundMs, 0) > 0 ? { slowestRoundMs: number(saved.slowestRoundMs, 0) } : {}),
    };
  }
}
