// `npm run bench -- <name>...` runs bench/<name>.ts for each name (all benchmarks when none is given). Each prints its
// figures and ends with one summary line `<name>: key=value ...`.
import * as fs from 'fs';
import * as path from 'path';

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
  for (const name of requested.length > 0 ? requested : available) {
    const bench = (await import(path.join(__dirname, `${name}.ts`))) as { run(): Promise<void> };
    await bench.run();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
