// `npm start`: builds dist/ (build/build.js), starts the sandbox in a child process, loads dist/Code.js into the
// emulator with the demo spreadsheet, and serves the playground page until Ctrl+C. It prints one line of what runs
// and ends with the playground's address; `--verbose` also prints the build's details (bundle sizes, the scopes of
// its service calls) and the sandbox's address. `--no-build` serves the dist/ already built (the browser tests').
import { execFileSync } from 'child_process';
import * as path from 'path';
import { spawnSandbox } from '../sandbox/spawn';
import { startPlayground } from './server';

const ROOT = path.resolve(__dirname, '../..');

/** Runs the build; its output is shown with --verbose, or when it fails. */
function build(verbose: boolean): void {
  const args = [path.join(ROOT, 'build/build.js'), ...(verbose ? ['--verbose'] : [])];
  try {
    execFileSync(process.execPath, args, { cwd: ROOT, stdio: verbose ? 'inherit' : 'pipe' });
  } catch (error) {
    const failed = error as { stdout?: Buffer; stderr?: Buffer };
    process.stderr.write(`${failed.stdout?.toString() ?? ''}${failed.stderr?.toString() ?? ''}`);
    throw new Error('The build failed (above).', { cause: error });
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const verbose = args.includes('--verbose');
  const port = Number(process.env.PORT ?? 8080);
  if (!args.includes('--no-build')) build(verbose);
  const sandbox = await spawnSandbox({ clock: 'real' });
  if (verbose) console.log(`sandbox listening on ${sandbox.url}`);
  const playground = await startPlayground({ sandboxUrl: sandbox.url, port });
  console.log('Sandbox service and playground running (account sandbox-pro); Ctrl+C stops them.');
  console.log(`Sheet Scout playground: ${playground.url}`);
  const stop = async () => {
    await playground.close();
    await sandbox.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
