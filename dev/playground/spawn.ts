// Starts the playground as `npm start` runs it (start.ts: its own sandbox, the given arguments) in a child process on
// a free port, and waits for the line with its address. Tests use it where the playground must not share their thread:
// an execution waiting for the answer to an alert blocks the playground's process, and a test driving the page from
// that same thread could never click the answer. `output` is everything it printed so far.
import { fork } from 'node:child_process';
import { resolve } from 'node:path';

export interface SpawnedPlayground {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

const START = resolve(__dirname, 'start.ts');
const START_TIMEOUT_MS = 60_000;
const ADDRESS = /Sheet Scout playground: (http:\/\/127\.0\.0\.1:\d+\/)/;

export function spawnPlayground(args: string[] = []): Promise<SpawnedPlayground> {
  const child = fork(START, args, {
    cwd: resolve(__dirname, '..', '..'),
    env: { ...process.env, PORT: '0' },
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const forced = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(forced);
  };
  return new Promise((resolveStart, rejectStart) => {
    const timer = setTimeout(() => {
      void stop();
      rejectStart(new Error(`The playground did not start within ${START_TIMEOUT_MS} ms: ${output}`));
    }, START_TIMEOUT_MS);
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const url = ADDRESS.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolveStart({ url, output: () => output, stop });
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.once('exit', (code) => {
      clearTimeout(timer);
      rejectStart(new Error(`The playground exited with code ${code} before it listened: ${output}`));
    });
  });
}
