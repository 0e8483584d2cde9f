// `npm start`: builds dist/ (build/build.js), starts the sandbox in a child process, loads dist/Code.js into the
// emulator with the demo spreadsheet, and serves the playground page until Ctrl+C. It prints one line of what runs
// and ends with the playground's address; `--verbose` also prints the build's details (bundle sizes, the scopes of
// its service calls) and the sandbox's address. `--no-build` serves the dist/ already built (the browser tests').
// Nothing outlives the process, and it says so: `--sheets <file>` starts with the sheets the page's "Export sheets"
// saved (keep.ts).
import { execFileSync } from 'child_process';
import * as path from 'path';
import { spawnSandbox } from '../sandbox/spawn';
import { startPlayground } from './server';
import { readKeptSheets } from './keep';

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
  const sheetsAt = args.indexOf('--sheets');
  const sheets = sheetsAt >= 0 ? readKeptSheets(path.resolve(args[sheetsAt + 1] ?? '')) : undefined;
  if (!args.includes('--no-build')) build(verbose);
  const sandbox = await spawnSandbox({ clock: 'real' });
  if (verbose) console.log(`sandbox listening on ${sandbox.url}`);
  const playground = await startPlayground({ sandboxUrl: sandbox.url, port, sheets });
  console.log(
    `Sandbox service and playground running (account sandbox-pro${sheets ? ', your exported sheets' : ''}); Ctrl+C ` +
      'stops them and keeps nothing: save the sheets with Export sheets, start with npm start -- --sheets <file>.',
  );
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
