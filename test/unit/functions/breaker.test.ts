import { CircuitBreaker, connectionScope, tripsBreaker } from '../../../src/functions/breaker';
import { MemoryCache } from '../../fakes/ports';

describe('circuit breaker', () => {
  const now = 1_000_000;

  it('opens at the third failing execution within the window, with the cause as the message', () => {
    const breaker = new CircuitBreaker(new MemoryCache(), 'scope');
    breaker.recordFailure({ kind: 'rate_limited' }, now);
    breaker.recordFailure({ kind: 'rate_limited' }, now + 1000);
    expect(breaker.openMessage(now + 1000)).toBeNull();
    breaker.recordFailure({ kind: 'rate_limited' }, now + 2000);
    expect(breaker.openMessage(now + 2000)).toBe('Rate limited, retry later');
    expect(breaker.openMessage(now + 2000 + 60_001)).toBeNull();
  });

  it('keeps a rejected token open for 5 minutes and starts counting again after a success or outside the window', () => {
    const cache = new MemoryCache();
    const breaker = new CircuitBreaker(cache, 'scope');
    for (let i = 0; i < 3; i++) breaker.recordFailure({ kind: 'unauthorized' }, now);
    expect(breaker.openMessage(now + 4 * 60_000)).toBe('Token rejected: check it in Settings');
    expect(breaker.openMessage(now + 5 * 60_000 + 1)).toBeNull();

    const other = new CircuitBreaker(cache, 'other');
    other.recordFailure({ kind: 'unavailable', status: 503 }, now);
    other.recordFailure({ kind: 'unavailable', status: 503 }, now);
    other.recordSuccess();
    other.recordFailure({ kind: 'unavailable', status: 503 }, now);
    expect(other.openMessage(now)).toBeNull();
    other.recordFailure({ kind: 'unavailable', status: 503 }, now + 3 * 60_000);
    other.recordFailure({ kind: 'unavailable', status: 503 }, now + 3 * 60_000);
    expect(other.openMessage(now + 3 * 60_000)).toBeNull();
  });

  it('is keyed per connection without the token in any key or value, and trips only on service-wide errors', () => {
    const cache = new MemoryCache();
    const scope = connectionScope('https://api.example.com', 'tok_secret_123');
    expect(scope).not.toBe(connectionScope('https://api.example.com', 'tok_secret_124'));
    new CircuitBreaker(cache, scope).recordFailure({ kind: 'unauthorized' }, now);
    expect(JSON.stringify([...cache.entries])).not.toContain('tok_secret_123');
    expect(tripsBreaker({ kind: 'not_found' })).toBe(false);
    expect(tripsBreaker({ kind: 'validation', detail: [] })).toBe(false);
    expect(tripsBreaker({ kind: 'network', maybeSent: true, detail: 'x' })).toBe(true);
  });
});
