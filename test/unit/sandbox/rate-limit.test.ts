// Unit tests for the sandbox's token bucket on its manual clock: it refills only as the clock is advanced, up to the
// limit, keeping fractions between requests; a refused request is told Retry-After; tokens are separate;
// configure() empties the history and null lifts the limit.
import { SandboxClock } from '../../../dev/sandbox/clock';
import { RateLimiter } from '../../../dev/sandbox/http/rate-limit';

function takeMany(limiter: RateLimiter, count: number, token = 'a'): boolean[] {
  return Array.from({ length: count }, () => limiter.take(token).allowed);
}

describe('RateLimiter on a manual clock', () => {
  test('a full bucket passes the limit, refills as the clock advances, and never holds more than the limit', () => {
    const clock = new SandboxClock('manual');
    const limiter = new RateLimiter(clock, 4);
    expect(takeMany(limiter, 5)).toEqual([true, true, true, true, false]);
    expect(limiter.take('a').allowed).toBe(false);
    clock.advance(250);
    expect(takeMany(limiter, 2)).toEqual([true, false]);
    clock.advance(60_000);
    expect(takeMany(limiter, 5)).toEqual([true, true, true, true, false]);
    expect(limiter.limitedCount).toBe(4);
  });

  test('a refused request is told to retry after 1 s, and a partly refilled bucket keeps its fraction', () => {
    const clock = new SandboxClock('manual');
    const limiter = new RateLimiter(clock, 4);
    takeMany(limiter, 4);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    clock.advance(100);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    clock.advance(150);
    expect(limiter.take('a')).toEqual({ allowed: true, retryAfterSeconds: 0 });
  });

  test('each token has its own bucket; configure() refills them all and null lifts the limit', () => {
    const clock = new SandboxClock('manual');
    const limiter = new RateLimiter(clock, 2);
    expect(takeMany(limiter, 3, 'a')).toEqual([true, true, false]);
    expect(takeMany(limiter, 2, 'b')).toEqual([true, true]);
    limiter.configure(2);
    expect([limiter.limitedCount, ...takeMany(limiter, 3, 'a')]).toEqual([0, true, true, false]);
    limiter.configure(null);
    expect(takeMany(limiter, 50, 'a').every(Boolean)).toBe(true);
    expect(limiter.perSecond).toBeNull();
  });
});
