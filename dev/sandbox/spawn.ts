// Starts the sandbox in a child process (forked with tsx, or the test run's bundle of it) on a free port and waits for
// its listening line. Tests and the Apps Script emulator must use a child process: the emulator blocks its own thread
// with Atomics.wait during synchronous HTTP calls, so a server on the same thread would deadlock.
import { fork } from 'node:child_process';
import { resolve } from 'node:path';

export interface SpawnOptions {
  speed?: number;
  clock?: 'real' | 'manual';
  args?: string[];
}

export interface SpawnedSandbox {
  url: string;
  stop(): Promise<void>;
}

const PROJECT_ROOT = resolve(__dirname, '..', '..');
const CLI = resolve(__dirname, 'cli.ts');
const START_TIMEOUT_MS = 30_000;

export function spawnSandbox(options: SpawnOptions = {}): Promise<SpawnedSandbox> {
  const args = ['--port', '0'];
  if (options.speed !== undefined) args.push('--speed', String(options.speed));
  if (options.clock !== undefined) args.push('--clock', options.clock);
  args.push(...(options.args ?? []));
  // The test run's bundled sandbox (test/setup/sandbox-bundle.js) when there is one: the same code, without tsx.
  const bundled = process.env.SANDBOX_CLI;
  const child = fork(bundled ?? CLI, args, {
    cwd: PROJECT_ROOT,
    execArgv: bundled ? [] : ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const forced = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(forced);
  };
  return new Promise((resolveStart, rejectStart) => {
    let output = '';
    let errors = '';
    const timer = setTimeout(() => {
      void stop();
      rejectStart(new Error(`sandbox did not start within ${START_TIMEOUT_MS} ms: ${errors}`));
    }, START_TIMEOUT_MS);
    child.stderr?.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        child.stdout?.removeAllListeners('data');
        child.stdout?.resume();
        // The parent may exit without calling stop(): nothing here keeps it alive, and the child stops itself
        // when the IPC channel disconnects.
        child.unref();
        child.channel?.unref();
        (child.stdout as unknown as { unref?: () => void } | null)?.unref?.();
        (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
        resolveStart({ url: found[1], stop });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      rejectStart(new Error(`sandbox exited with code ${code} before listening: ${errors}`));
    });
  });
}
