// Jest's global set-up, second part: the sandbox (dev/sandbox/cli.ts) bundled once by esbuild into
// node_modules/.cache/sandbox/cli.js, and its path handed to the test workers in SANDBOX_CLI, so that the hundred
// sandboxes a run starts are plain Node processes: started with tsx, each spent about half a second more of CPU
// compiling the same TypeScript. dev/sandbox/spawn.ts forks the bundle when SANDBOX_CLI names one, cli.ts with tsx
// otherwise (`npm start`, the benchmarks). Built from the checkout at every run, so it is never older than the code.
const path = require('path');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '../..');
const OUTFILE = path.join(root, 'node_modules/.cache/sandbox/cli.js');

async function bundleSandbox() {
  await esbuild.build({
    entryPoints: [path.join(root, 'dev/sandbox/cli.ts')],
    outfile: OUTFILE,
    bundle: true,
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  process.env.SANDBOX_CLI = OUTFILE;
}

module.exports = { bundleSandbox };
