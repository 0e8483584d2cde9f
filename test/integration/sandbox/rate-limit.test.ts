// The sandbox's per-token rate limit over HTTP, on the manual clock so every count is exact on any machine: off by
// default; past N requests a second a token gets 429 with Retry-After (another token is not affected); the bucket
// refills as the sandbox clock is advanced, not as real time passes; reset restores the start-up limit; bad settings
// are refused; and `--rate-limit N` sets it from the command line.
import { SandboxClient, TOKENS } from './sandbox-client';
import { spawnSandbox } from '../../../dev/sandbox/spawn';
import { SandboxControl } from '../../../dev/sandbox/control-client';

async function burst(client: SandboxClient, count: number, token: string = TOKENS.pro): Promise<number[]> {
  const replies = await Promise.all(Array.from({ length: count }, () => client.call('GET', '/v1/user', { token })));
  return replies.map((reply) => reply.status);
}

describe('sandbox rate limit', () => {
  let client: SandboxClient;
  beforeAll(async () => {
    client = await SandboxClient.start({ clock: 'manual' });
  });
  afterAll(() => client.stop());
  beforeEach(() => client.reset());

  it('is off by default', async () => {
    expect((await burst(client, 60)).every((status) => status === 200)).toBe(true);
    expect((await client.control('GET', 'config')).rateLimitPerSecond).toBeNull();
  });

  it('answers 429 with Retry-After past the limit, per token, and refills over a second of the sandbox clock', async () => {
    await client.control('POST', 'config', { rateLimitPerSecond: 10 });
    const statuses = await burst(client, 15);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
    const limited = await client.call('GET', '/v1/user');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.body.detail).toMatch(/Rate limit exceeded/);
    expect((await burst(client, 5, TOKENS.pro2)).every((status) => status === 200)).toBe(true);
    // Real time refills nothing: the clock stands still.
    await new Promise((done) => setTimeout(done, 1100));
    expect((await client.call('GET', '/v1/user')).status).toBe(429);
    // Half a second of the sandbox clock refills half the bucket, a whole second all of it (and no more).
    await client.advance(500);
    expect((await burst(client, 6)).filter((status) => status === 200)).toHaveLength(5);
    await client.advance(1000);
    const refilled = await burst(client, 11);
    expect(refilled.filter((status) => status === 200)).toHaveLength(10);
    expect(refilled.filter((status) => status === 429)).toHaveLength(1);
    expect((await client.control<Record<string, number>>('GET', 'stats')).rate_limited).toBe(9);
  });

  it('is cleared by reset and refuses bad settings', async () => {
    await client.control('POST', 'config', { rateLimitPerSecond: 1 });
    await client.reset();
    expect((await burst(client, 20)).every((status) => status === 200)).toBe(true);
    await expect(client.control('POST', 'config', { rateLimitPerSecond: 0 })).rejects.toThrow(/400/);
    await expect(client.control('POST', 'config', { rateLimitPerSecond: 'fast' })).rejects.toThrow(/positive number/);
  });

  it('takes --rate-limit N on the command line, restored by reset', async () => {
    const spawned = await spawnSandbox({ clock: 'manual', args: ['--rate-limit', '5'] });
    try {
      const control = new SandboxControl(spawned.url);
      expect((await control.call<{ rateLimitPerSecond: number }>('GET', '/_sandbox/config')).rateLimitPerSecond).toBe(
        5,
      );
      await control.reset();
      const statuses = await Promise.all(
        Array.from({ length: 8 }, () =>
          fetch(`${spawned.url}/v1/user`, { headers: { authorization: `Bearer ${TOKENS.pro}` } }).then((r) => r.status),
        ),
      );
      expect(statuses.filter((status) => status === 429)).toHaveLength(3);
    } finally {
      await spawned.stop();
    }
  });
});
