// Adaptive throughput of the service client, the one batch sizer every bulk path goes through (the executor sends
// each fetchAll round through it): how many requests one round sends, and how soon the next may start.
// - The batch grows by half while rounds are healthy, up to a ceiling, and halves at once on a 429 or a 5xx.
// - A round that takes over 1.5 times the healthy round time sent more parallel requests than the platform or the
//   service really runs at once: the ceiling drops to the largest round known to be fast (at least three quarters
//   of the slow one, and below it). Every 10 healthy full rounds at the ceiling raise it by one, so a ceiling
//   learned in a bad moment recovers; each probe that proves slow again doubles that interval (up to 80 rounds), as
//   a slow probe costs a whole round.
// - After a 429 the rounds are paced at a learned request rate. The first estimate assumes the usual token bucket
//   (a burst of one second's requests, then that many a second): what was accepted since the first round over
//   (1 s + the time it took), at least what the refused round got through. Each later 429 lowers the rate by a
//   fifth; each healthy round raises it by a twentieth, so the client settles just under the limit instead of
//   meeting it every round. The batch is not halved for a 429 while paced: the rate already slows the rounds.
//   Retry-After itself is honoured by the executor (or by a bulk caller that queues the refused calls).
// The state is small and plain so a document can keep it between executions (src/platform/throughput-store.ts);
// it includes the last round, so the pacing goes on across executions (a new job does not burst into a service
// whose allowance the previous one used up).

export interface ThroughputState {
  /** Requests per round now. */
  batch: number;
  /** Largest batch worth trying (lowered when a larger one was slow). */
  ceiling: number;
  /** Requests per second the service accepts, once a 429 was seen; null while none was. */
  ratePerSecond: number | null;
  /** The healthy round time, in ms (slowly follows the service), or null before the first round. */
  roundMs: number | null;
  /** The largest full round that was fast and healthy. */
  healthyMax: number;
  /** Healthy full rounds at the ceiling since it last moved (the ceiling is raised by one every `probeEvery`). */
  streak: number;
  /** Healthy full rounds at the ceiling before it is probed one higher: 10, doubled by each slow probe, up to 80. */
  probeEvery: number;
  /** The last round (start time and size), so pacing goes on across executions; null before the first. */
  lastRound: { startedMs: number; size: number } | null;
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
const RATE_DECREASE = 0.8;
const RATE_INCREASE = 1.05;
const ROUND_MS_DRIFT = 1.05;
const PROBE_EVERY = 10;
const PROBE_EVERY_MAX = 80;

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
  ) {
    this.current = saved
      ? this.sane(saved)
      : {
          batch: limits.initialBatch,
          ceiling: limits.maxBatch,
          ratePerSecond: null,
          roundMs: null,
          healthyMax: 0,
          streak: 0,
          probeEvery: PROBE_EVERY,
          lastRound: null,
        };
  }

  state(): ThroughputState {
    return { ...this.current, lastRound: this.current.lastRound && { ...this.current.lastRound } };
  }

  /** Requests the next round should send (never more than `wanted`). */
  batchSize(wanted = Infinity): number {
    const byRate = this.current.ratePerSecond === null ? Infinity : Math.max(1, Math.floor(this.current.ratePerSecond));
    return Math.max(1, Math.min(wanted, this.current.batch, byRate));
  }

  /** Milliseconds to wait before a round of `size` starts at `nowMs`, so the learned rate is kept. */
  delayBefore(nowMs: number): number {
    const { ratePerSecond: rate, lastRound } = this.current;
    if (rate === null || !lastRound) return 0;
    const earliest = lastRound.startedMs + (lastRound.size / rate) * 1000;
    return Math.max(0, Math.ceil(earliest - nowMs));
  }

  record(round: RoundReport): void {
    if (round.size <= 0) return;
    const before = JSON.stringify(this.current);
    this.current.lastRound = { startedMs: round.startedMs, size: round.size };
    this.accepted.sinceMs ??= round.startedMs;
    this.accepted.count += round.size - round.rateLimited;
    if (round.rateLimited > 0) this.rateLimited(round);
    else if (round.failed > 0) this.shrink();
    else this.healthy(round);
    if (JSON.stringify(this.current) !== before) this.onChange(this.state());
  }

  private rateLimited(round: RoundReport): void {
    if (this.current.ratePerSecond !== null) {
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

  private healthy(round: RoundReport): void {
    const { roundMs } = this.current;
    const full = round.size >= this.current.batch;
    if (roundMs !== null && full && round.durationMs > SLOW_ROUND_FACTOR * roundMs) {
      this.slow(round.size);
      return;
    }
    this.current.roundMs = roundMs === null ? round.durationMs : Math.min(roundMs * ROUND_MS_DRIFT, round.durationMs);
    if (this.current.ratePerSecond !== null) this.current.ratePerSecond *= RATE_INCREASE;
    if (!full) return;
    if (round.size > this.current.healthyMax) this.current.probeEvery = PROBE_EVERY;
    this.current.healthyMax = Math.max(this.current.healthyMax, round.size);
    if (this.current.batch >= this.current.ceiling && ++this.current.streak >= this.current.probeEvery) {
      this.current.ceiling = Math.min(this.limits.maxBatch, this.current.ceiling + 1);
      this.current.streak = 0;
    }
    this.current.batch = Math.min(this.current.ceiling, Math.ceil(this.current.batch * 1.5));
  }

  private slow(size: number): void {
    if (size === this.current.healthyMax + 1)
      this.current.probeEvery = Math.min(PROBE_EVERY_MAX, this.current.probeEvery * 2);
    const fastEnough = Math.max(this.current.healthyMax, Math.floor(size * 0.75));
    this.current.ceiling = Math.max(this.limits.minBatch, Math.min(size - 1, fastEnough));
    this.current.healthyMax = Math.min(this.current.healthyMax, this.current.ceiling);
    this.current.batch = this.current.ceiling;
    this.current.streak = 0;
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
      roundMs: saved.roundMs === null ? null : number(saved.roundMs, 0) || null,
      healthyMax: clamp(Math.floor(number(saved.healthyMax, 0)), 0, ceiling),
      streak: 0,
      probeEvery: clamp(Math.floor(number(saved.probeEvery, PROBE_EVERY)), PROBE_EVERY, PROBE_EVERY_MAX),
      lastRound: this.savedRound(saved.lastRound),
    };
  }

  private savedRound(round: unknown): ThroughputState['lastRound'] {
    if (round === null || typeof round !== 'object') return null;
    const { startedMs, size } = round as Record<string, unknown>;
    return typeof startedMs === 'number' && typeof size === 'number' && size > 0 ? { startedMs, size } : null;
  }
}
