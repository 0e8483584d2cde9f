// Jest's global set-up, second part: the sandbox (dev/sandbox/cli.ts) bundled once by esbuild into
// node_modules/.cache/sandbox/, and its path handed to the test workers in SANDBOX_CLI, so that the hundred
// sandboxes a run starts are plain Node processes: started with tsx, each spent about half a second more of CPU
// compiling the same TypeScript. dev/sandbox/spawn.ts forks the bundle when SANDBOX_CLI names one, cli.ts with tsx
// otherwise (`npm start`, the benchmarks). Built from the checkout at every run, so it is never older than the code;
// the file is named by its content's hash, so checkouts sharing node_modules (git worktrees) never run each other's
// sandbox. The newest few are kept.
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '../..');
const CACHE_DIR = path.join(root, 'node_modules/.cache/sandbox');
const KEPT_BUNDLES = 6;

async function bundleSandbox() {
  const result = await esbuild.build({
    entryPoints: [path.join(root, 'dev/sandbox/cli.ts')],
    outfile: path.join(CACHE_DIR, 'cli.js'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    write: false,
  });
  const text = result.outputFiles[0].contents;
  const file = path.join(CACHE_DIR, `cli-${crypto.createHash('sha256').update(text).digest('hex').slice(0, 16)}.js`);
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  if (!fs.existsSync(file)) {
    const partial = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(partial, text);
    fs.renameSync(partial, file);
  }
  const now = new Date();
  fs.utimesSync(file, now, now);
  pruneOlderBundles();
  process.env.SANDBOX_CLI = file;
}

/** Removes all but the KEPT_BUNDLES most recently used bundles. */
function pruneOlderBundles() {
  const bundles = fs
    .readdirSync(CACHE_DIR)
    .filter((name) => /^cli(-[0-9a-f]+)?\.js$/.test(name))
    .map((name) => ({ file: path.join(CACHE_DIR, name), used: fs.statSync(path.join(CACHE_DIR, name)).mtimeMs }))
    .sort((a, b) => b.used - a.used);
  for (const { file } of bundles.slice(KEPT_BUNDLES)) fs.rmSync(file, { force: true });
}

module.exports = { bundleSandbox };
