// Test helper for the sandbox contract tests: starts the sandbox in a child process (manual clock) and calls its /v1
// API as any client would (the pro token unless told otherwise) and its /_sandbox control calls, both through the
// sandbox's one typed client (dev/sandbox/control-client.ts).
/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are arbitrary JSON; the assertions check their shape */
import { spawnSandbox, type SpawnedSandbox } from '../../../dev/sandbox/spawn';
import { SandboxControl, type Reply } from '../../../dev/sandbox/control-client';

export const TOKENS = {
  pro: 'sbx_pro_token',
  pro2: 'sbx_pro2_token',
  solo: 'sbx_solo_token',
  free: 'sbx_free_token',
  low: 'sbx_low_token',
  rival: 'sbx_rival_token',
} as const;

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  /** Raw body text (sent as is, for malformed JSON tests). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export class SandboxClient {
  private readonly client: SandboxControl;

  constructor(
    readonly url: string,
    private readonly process: SpawnedSandbox,
  ) {
    this.client = new SandboxControl(url);
  }

  static async start(options: { speed?: number; clock?: 'real' | 'manual' } = {}): Promise<SandboxClient> {
    const spawned = await spawnSandbox({ clock: options.clock ?? 'manual', speed: options.speed });
    return new SandboxClient(spawned.url, spawned);
  }

  stop(): Promise<void> {
    return this.process.stop();
  }

  call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<Reply<T>> {
    const token = options.token === undefined ? TOKENS.pro : options.token;
    return this.client.request<T>(method, path, { ...options, token: token ?? undefined });
  }

  control<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    return this.client.call<T>(method, `/_sandbox/${path}`, body);
  }

  reset(): Promise<unknown> {
    return this.control('POST', 'reset');
  }

  advance(ms: number): Promise<unknown> {
    return this.control('POST', 'clock/advance', { ms });
  }

  async credits(token: string = TOKENS.pro): Promise<number> {
    return (await this.call('GET', '/v1/user', { token })).body.available_credits;
  }

  async companies(query = ''): Promise<{ id: string | null; domain: string; name: string; enriched: boolean }[]> {
    return this.control('GET', `companies${query}`);
  }

  /** Advances the clock step by step until the task is done or failed; returns the snapshots seen. */
  async runTask(id: string, token: string = TOKENS.pro, stepMs = 1000, maxSteps = 200): Promise<any[]> {
    const seen: any[] = [];
    for (let step = 0; step < maxSteps; step++) {
      const task = (await this.call('GET', `/v1/deep_research_tasks/${id}`, { token })).body;
      seen.push(task);
      if (task.status === 'done' || task.status === 'failed') return seen;
      await this.advance(stepMs);
    }
    throw new Error(`task ${id} did not finish in ${maxSteps} steps`);
  }

  async createTask(body: Record<string, unknown>, token: string = TOKENS.pro): Promise<any> {
    const reply = await this.call('POST', '/v1/deep_research_tasks', { body, token });
    if (reply.status !== 200) throw new Error(`create failed: ${reply.status} ${reply.text}`);
    return reply.body;
  }
}

/**
 * For a contract-test file: starts one sandbox before its tests (stopped after them), resets it before each test,
 * and returns a handle that forwards to it.
 */
export function sandboxPerFile(): SandboxClient {
  let client: SandboxClient | undefined;
  beforeAll(async () => {
    client = await SandboxClient.start();
  });
  afterAll(async () => {
    await client?.stop();
  });
  beforeEach(async () => {
    await client!.reset();
  });
  return new Proxy({} as SandboxClient, {
    get(_target, property) {
      if (!client) throw new Error('the sandbox is not started yet: use it inside tests or hooks');
      const value = Reflect.get(client, property);
      return typeof value === 'function' ? value.bind(client) : value;
    },
  });
}
