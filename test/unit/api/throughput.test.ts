// The adaptive throughput (src/api/throughput.ts) alone, and through the service client's executor.
import fc from 'fast-check';
import { createServiceClient } from '../../../src/api/client';
import { AdaptiveThroughput, THROUGHPUT_LIMITS, type RoundReport } from '../../../src/api/throughput';
import { ManualClock } from '../../fakes/ports';
import { BASE_URL, ScriptedHttp, TOKEN, profileBody, reply } from './fakes';

const healthy = (size: number, startedMs = 0, durationMs = 200): RoundReport => ({
  size,
  startedMs,
  durationMs,
  rateLimited: 0,
  failed: 0,
});

describe('AdaptiveThroughput', () => {
  it("with fetchAll's width settled, sends rounds the batch caps as whole waves, and a smaller rest as it is", () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 40 }), fc.integer({ min: 1, max: 400 }), (width, wanted) => {
        const throughput = new AdaptiveThroughput(null, THROUGHPUT_LIMITS, () => undefined, width);
        for (let round = 0; round < 3; round++) {
          const size = throughput.batchSize(wanted);
          expect(size).toBeGreaterThanOrEqual(1);
          expect(size).toBeLessThanOrEqual(Math.min(wanted, 100));
          // The rest of what is wanted goes as it is; a round the batch caps is whole waves (or one partial wave).
          expect(size === wanted || size <= width || size % width === 0).toBe(true);
          // Never more than a wave short of what the batch allows.
          expect(Math.min(wanted, throughput.state().batch) - size).toBeLessThan(width);
          throughput.record(healthy(size));
        }
      }),
      { seed: 47 },
    );
  });

  it('starts at 25, then grows four times and twice after that while full rounds stay healthy, up to 100', () => {
    const throughput = new AdaptiveThroughput();
    const sizes: number[] = [];
    for (let round = 0; round < 5; round++) {
      sizes.push(throughput.batchSize());
      throughput.record(healthy(throughput.batchSize()));
    }
    expect(sizes).toEqual([25, 100, 100, 100, 100]);
    expect(throughput.delayBefore(0, 100)).toBe(0);
  });

  it('remembers the slowest recent round, fading a tenth per later round, across executions', () => {
    const throughput = new AdaptiveThroughput();
    expect(throughput.slowestRoundMs()).toBeNull();
    throughput.record(healthy(25, 0, 9_000));
    throughput.record({ ...healthy(25, 9_000, 500), failed: 3 });
    expect(throughput.slowestRoundMs()).toBe(8_100);
    const next = new AdaptiveThroughput(throughput.state());
    expect(next.slowestRoundMs()).toBe(8_100);
    next.record(healthy(25, 20_000, 12_000));
    expect(next.slowestRoundMs()).toBe(12_000);
    expect(new AdaptiveThroughput({ ...next.state(), slowestRoundMs: -1 }).slowestRoundMs()).toBeNull();
  });

  it('does not grow on a round smaller than the batch, and never hands over more than wanted', () => {
    const throughput = new AdaptiveThroughput();
    throughput.record(healthy(10));
    expect(throughput.batchSize()).toBe(25);
    expect(throughput.batchSize(7)).toBe(7);
  });

  /** A round on a platform that runs 64 requests at once: one wave of 200 ms per 64. */
  const inWaves = (size: number): RoundReport => healthy(size, 0, Math.ceil(size / 64) * 200);

  it('finds the platform width: halfway between the largest fast round and the smallest slow one, then probes', () => {
    const throughput = new AdaptiveThroughput();
    const sizes: number[] = [];
    for (let round = 0; round < 10; round++) {
      sizes.push(throughput.batchSize());
      throughput.record(inWaves(throughput.batchSize()));
    }
    // 100 takes a wave more than 25: the search ends at 64, every slot of a wave used.
    expect(sizes).toEqual([25, 100, 62, 81, 71, 66, 64, 65, 64, 64]);
    // The search's last step (65, one over the largest fast round) was slow: like a failed probe, it doubles the wait.
    expect(throughput.state()).toMatchObject({ ceiling: 64, slowMin: null, probeEvery: 20 });
    // After twenty healthy full rounds at the ceiling (the last of the search among them), a probe one higher.
    let rounds = 0;
    while (throughput.batchSize() === 64 && rounds < 20) {
      throughput.record(inWaves(64));
      rounds++;
    }
    expect(throughput.batchSize()).toBe(65);
    expect(rounds).toBeLessThanOrEqual(20);
    throughput.record(inWaves(65));
    expect(throughput.batchSize()).toBe(64);
  });

  it('doubles the rounds between probes each time a probe proves slow again, up to 80, and resets on a fast one', () => {
    const throughput = new AdaptiveThroughput();
    for (let round = 0; round < 9; round++) throughput.record(inWaves(throughput.batchSize()));
    const probeAfter = (): number => {
      for (let round = 1; round <= 200; round++) {
        throughput.record(inWaves(throughput.batchSize()));
        if (throughput.batchSize() === 65) return round;
      }
      return -1;
    };
    const intervals: number[] = [];
    for (let probe = 0; probe < 5; probe++) {
      intervals.push(probeAfter());
      throughput.record(inWaves(65));
    }
    expect(intervals[0]).toBeLessThanOrEqual(20);
    expect(intervals.slice(1)).toEqual([40, 80, 80, 80]);
    expect(probeAfter()).toBe(80);
    throughput.record(healthy(65));
    expect(throughput.state()).toMatchObject({ ceiling: 65, healthyMax: 65, probeEvery: 10 });
  });

  it('keeps the ceiling when a size already known to be fast is slow: the healthy round time follows instead', () => {
    const throughput = new AdaptiveThroughput({
      batch: 20,
      ceiling: 20,
      ratePerSecond: null,
      refusedRate: null,
      rateStreak: 0,
      roundMs: 100,
      healthyMax: 20,
      streak: 0,
      probeEvery: 10,
      bucketEmptyAtMs: null,
    });
    for (let round = 0; round < 5; round++) throughput.record(healthy(20, 0, 400));
    expect(throughput.state()).toMatchObject({ batch: 20, ceiling: 20, healthyMax: 20, roundMs: 400 });
    throughput.record(healthy(20, 0, 150));
    expect(throughput.state().roundMs).toBe(150);
  });

  it('halves the batch on a 5xx round and on the first 429 round; a later 429 only lowers the rate', () => {
    const throughput = new AdaptiveThroughput({
      batch: 60,
      ceiling: 100,
      ratePerSecond: null,
      refusedRate: null,
      rateStreak: 0,
      roundMs: 200,
      healthyMax: 60,
      streak: 0,
      probeEvery: 10,
      bucketEmptyAtMs: null,
    });
    throughput.record({ ...healthy(60), failed: 3 });
    expect(throughput.batchSize()).toBe(30);
    throughput.record({ ...healthy(30), rateLimited: 10 });
    expect(throughput.state().batch).toBe(15);
    const rate = throughput.state().ratePerSecond as number;
    throughput.record({ ...healthy(15), rateLimited: 2 });
    expect(throughput.state()).toMatchObject({ batch: 15, ratePerSecond: rate * 0.8 });
  });

  it('after a 429 paces rounds at the rate the service accepted, lowers it at each 429 and raises it while healthy', () => {
    const throughput = new AdaptiveThroughput();
    throughput.record({ size: 25, startedMs: 1000, durationMs: 200, rateLimited: 5, failed: 0 });
    expect(throughput.state().ratePerSecond).toBe(20);
    expect(throughput.batchSize()).toBe(12);
    // The refused round ran dry at its end (1200 ms); 12 requests at 21 a second wait 571 ms after a round starts.
    throughput.record(healthy(12, 1800));
    expect(throughput.state().ratePerSecond).toBeCloseTo(21);
    expect(throughput.delayBefore(2000, 12)).toBe(Math.ceil(1800 + (12 / 21) * 1000 - 2000));
    expect(throughput.delayBefore(2000, 21)).toBe(800);
    throughput.record({ size: 12, startedMs: 3000, durationMs: 200, rateLimited: 1, failed: 0 });
    expect(throughput.state().ratePerSecond).toBeCloseTo(21 * 0.8);
  });

  it('raises the rate only for a round sent at it, so slow rounds do not let it drift above the limit', () => {
    const throughput = new AdaptiveThroughput({
      batch: 4,
      ceiling: 4,
      ratePerSecond: 20,
      refusedRate: null,
      rateStreak: 0,
      roundMs: 200,
      healthyMax: 4,
      streak: 0,
      probeEvery: 80,
      bucketEmptyAtMs: 0,
    });
    // 4 requests at 20 a second are paced 200 ms apart: a round 400 ms later ran at half the rate.
    throughput.record(healthy(4, 400));
    expect(throughput.state().ratePerSecond).toBe(20);
    throughput.record(healthy(4, 610));
    expect(throughput.state().ratePerSecond).toBeCloseTo(21);
    for (let round = 1; round <= 30; round++) throughput.record(healthy(4, 610 + round * 400));
    expect(throughput.state().ratePerSecond).toBeCloseTo(21);
  });

  it('holds the rate at 95 % of the rate last refused, and probes a twentieth higher after 10 rounds there', () => {
    const throughput = new AdaptiveThroughput();
    throughput.record({ size: 25, startedMs: 0, durationMs: 200, rateLimited: 5, failed: 0 });
    let startedMs = 0;
    const paced = (rateLimited = 0): void => {
      startedMs += throughput.delayBefore(startedMs, throughput.batchSize());
      throughput.record({ size: throughput.batchSize(), startedMs, durationMs: 200, rateLimited, failed: 0 });
    };
    for (let round = 0; round < 5; round++) paced();
    const refusedAt = throughput.state().ratePerSecond as number;
    paced(1);
    expect(throughput.state()).toMatchObject({ refusedRate: refusedAt, ratePerSecond: refusedAt * 0.8 });
    const rates: number[] = [];
    for (let round = 0; round < 14; round++) {
      paced();
      rates.push(throughput.state().ratePerSecond as number);
    }
    // Up by a twentieth a round to the cap (95 % of the refused rate), held there for 10 rounds, then a probe higher.
    expect(Math.max(...rates.slice(0, 13))).toBeCloseTo(refusedAt * 0.95);
    expect(rates.filter((rate) => Math.abs(rate - refusedAt * 0.95) < 1e-9)).toHaveLength(10);
    expect(throughput.state().refusedRate).toBeCloseTo(refusedAt * 1.05);
    expect(rates[13]).toBeGreaterThan(refusedAt * 0.95);
  });

  it('first estimates the rate as a token bucket would give it: accepted since the first round over 1 s + elapsed', () => {
    const throughput = new AdaptiveThroughput();
    throughput.record(healthy(25, 0));
    throughput.record(healthy(38, 200));
    throughput.record(healthy(57, 400));
    throughput.record({ size: 86, startedMs: 600, durationMs: 200, rateLimited: 36, failed: 0 });
    // 170 accepted in 0.8 s: about 94 a second (the refused round alone got 50 through).
    expect(throughput.state().ratePerSecond).toBeCloseTo(170 / 1.8);
  });

  it('never lets a round exceed the learned rate of requests per second', () => {
    const throughput = new AdaptiveThroughput({
      batch: 100,
      ceiling: 100,
      ratePerSecond: 7.5,
      refusedRate: null,
      rateStreak: 0,
      roundMs: 200,
      healthyMax: 100,
      streak: 0,
      probeEvery: 10,
      bucketEmptyAtMs: null,
    });
    expect(throughput.batchSize()).toBe(7);
  });

  it('tells its owner each change, and reads back a saved state within the limits', () => {
    const saved: unknown[] = [];
    const throughput = new AdaptiveThroughput(null, THROUGHPUT_LIMITS, (state) => saved.push(state));
    throughput.record(healthy(25));
    expect(saved).toHaveLength(1);
    const restored = new AdaptiveThroughput({
      batch: 5000,
      ceiling: -3,
      ratePerSecond: Number.NaN,
      refusedRate: -1,
      rateStreak: 7,
      roundMs: null,
      healthyMax: 9,
      streak: 4,
      probeEvery: 0,
      bucketEmptyAtMs: Number.POSITIVE_INFINITY,
    });
    expect(restored.state()).toEqual({
      batch: 100,
      ceiling: 100,
      ratePerSecond: null,
      refusedRate: null,
      rateStreak: 0,
      roundMs: null,
      healthyMax: 9,
      streak: 0,
      probeEvery: 10,
      slowMin: null,
      bucketEmptyAtMs: null,
    });
  });

  it('keeps pacing across executions: a restored state waits for the last round of the previous one', () => {
    const first = new AdaptiveThroughput();
    first.record({ size: 25, startedMs: 1000, durationMs: 200, rateLimited: 5, failed: 0 });
    const next = new AdaptiveThroughput(first.state());
    expect(next.delayBefore(1300, 20)).toBe(Math.ceil(1200 + (20 / 20) * 1000 - 1300));
  });
});

describe('the client with an adaptive throughput', () => {
  it('sends rounds of its size, paces them after a 429, and retries the refused calls after Retry-After', () => {
    const clock = new ManualClock();
    const http = new ScriptedHttp(clock, 200);
    const throughput = new AdaptiveThroughput({
      batch: 4,
      ceiling: 100,
      ratePerSecond: null,
      refusedRate: null,
      rateStreak: 0,
      roundMs: null,
      healthyMax: 0,
      streak: 0,
      probeEvery: 10,
      bucketEmptyAtMs: null,
    });
    const client = createServiceClient({
      http,
      clock,
      settings: { baseUrl: BASE_URL, token: TOKEN },
      random: () => 0,
      throughput,
    });
    const domains = Array.from({ length: 12 }, (_, i) => `d${i}.com`);
    const ok = (i: number) => reply(200, profileBody(`d${i}.com`));
    http.answer(ok(0), ok(1), ok(2), reply(429, { detail: 'slow down' }, { 'retry-after': '1' }));
    for (let i = 4; i < 12; i++) http.answer(ok(i));
    http.answer(ok(3));
    const began = clock.now();
    const results = client.lookupCompanies(domains);
    expect(results.every((result) => result.ok)).toBe(true);
    // 4, then paced rounds of at most the accepted rate (3 a second), then the refused call after its Retry-After.
    expect(http.batches.map((batch) => batch.length)).toEqual([4, 3, 3, 2, 1]);
    expect(client.batchSize()).toBe(3);
    expect(clock.sleeps.some((ms) => ms >= 1000)).toBe(true);
    expect(clock.now() - began).toBeGreaterThanOrEqual(3000);
  });
});

describe('handing 429 answers back to a bulk caller', () => {
  it('returns a refused call at once with its Retry-After, without sleeping, when the policy asks for it', () => {
    const clock = new ManualClock();
    const http = new ScriptedHttp(clock, 200);
    const retry = { handBackRateLimited: true };
    const client = createServiceClient({
      http,
      clock,
      settings: { baseUrl: BASE_URL, token: TOKEN },
      random: () => 0,
      retry,
    });
    http.answer(reply(200, profileBody('a.com')), reply(429, { detail: 'slow down' }, { 'retry-after': '2' }));
    const [first, second] = client.lookupCompanies(['a.com', 'b.com']);
    expect(first.ok).toBe(true);
    expect(second).toMatchObject({ ok: false, error: { kind: 'rate_limited', retryAfterSeconds: 2 } });
    expect(clock.sleeps).toEqual([]);
    expect(http.batches).toHaveLength(1);
  });
});
