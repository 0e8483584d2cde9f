// Shared helpers of the emulator's own tests: fixture bundles (plain scripts under fixtures/) and the
// fixture HTTP server, which runs in a child process because the emulator blocks its thread on HTTP.
import { ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { createRuntime, GasRuntime, RuntimeOptions } from '../../../dev/gas-runtime';

export const FIXTURES = path.join(__dirname, 'fixtures');

/** A runtime over fixtures/<name>.js (HTML files are read from fixtures/ too). */
export function fixtureRuntime(name: string, options: Omit<RuntimeOptions, 'bundlePath'> = {}): GasRuntime {
  return createRuntime({ bundlePath: path.join(FIXTURES, `${name}.js`), ...options });
}

export interface TestServer {
  base: string;
  stop(): Promise<void>;
}

export async function startHttpServer(): Promise<TestServer> {
  const child: ChildProcess = fork(path.join(FIXTURES, 'http-server.js'), [], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`fixture server exited with ${code}`)));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

/** Runs a function expected to fail and returns the failure message. */
export function failureOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a failure, but the call succeeded');
}
