// `npm run bench -- <name>...` runs bench/<name>.ts for each name (all benchmarks when none is given). Each prints its
// figures and ends with one summary line `<name>: key=value ...`. First, the goal on the size of the bundle the build
// just made (every execution loads all of it; the build prints it by dependency).
import * as fs from 'fs';
import * as path from 'path';
import { goal } from './_modelled';

const BUNDLE = path.join(__dirname, '..', 'dist', 'Code.js');
const BUNDLE_GOAL_KB = 500;

async function main(): Promise<void> {
  const available = fs
    .readdirSync(__dirname)
    .filter((file) => file.endsWith('.ts') && file !== 'run.ts' && !file.endsWith('.d.ts'))
    .map((file) => path.basename(file, '.ts'))
    .filter((name) => !name.startsWith('_'))
    .sort();
  const requested = process.argv.slice(2);
  const unknown = requested.filter((name) => !available.includes(name));
  if (unknown.length > 0) {
    console.error(`Unknown benchmark: ${unknown.join(', ')}. Available: ${available.join(', ') || 'none yet'}`);
    process.exit(2);
  }
  console.log(goal('dist/Code.js size', fs.statSync(BUNDLE).size / 1024, BUNDLE_GOAL_KB, 'KB'));
  for (const name of requested.length > 0 ? requested : available) {
    const bench = (await import(path.join(__dirname, `${name}.ts`))) as { run(): Promise<void> };
    await bench.run();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
