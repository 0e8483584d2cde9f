// `npm run bench -- fuzz`: issue 45's money fuzzer at length. At least 2,000 seeded sequences (test/integration/security/
// fuzz/: three editors' launches, re-runs, watches, cap and digest saves, panels and timers, any edit of the hidden
// sheets, service faults, clock and time-zone moves) through the built bundle in the emulator against the sandbox,
// each held to the invariants against the sandbox's money record. Seeds differ from the suite's (`npm test` runs 200
// with its own seed); the run's seed is printed, and the seed and path of the first failure, so it can be replayed.
// Ends with `fuzz: sequences=N editors=3 violations=0 ...`. FUZZ_SEQUENCES and FUZZ_SEED override the count and seed.
import fc from 'fast-check';
import { startSandbox } from '../test/integration/harness';
import { sequence } from '../test/integration/security/fuzz/actions';
import { apply, newSequence, settle } from '../test/integration/security/fuzz/sequence';
import { violations } from '../test/integration/security/fuzz/invariants';
import { goal } from './_modelled';

const SEQUENCES = Number(process.env.FUZZ_SEQUENCES ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261129);
const MAX_STEPS = 14;

export async function run(): Promise<void> {
  const { control, sandbox } = await startSandbox({ clock: 'manual' });
  const started = Date.now();
  let ran = 0;
  let failure: { seed: number; path: string | undefined; error: string; steps: string } | null = null;
  try {
    const details = await fc.check(
      fc.asyncProperty(sequence(MAX_STEPS), async (steps) => {
        ran += 1;
        const seq = await newSequence(control);
        try {
          for (const step of steps) await apply(seq, step);
          await settle(seq);
          const found = await violations(seq);
          if (found.length > 0) throw new Error(found.join('\n'));
        } finally {
          seq.project.close();
        }
      }),
      { numRuns: SEQUENCES, seed: SEED, endOnFailure: true },
    );
    if (details.failed)
      failure = {
        seed: details.seed,
        path: details.counterexamplePath ?? undefined,
        error: String(details.errorInstance),
        steps: JSON.stringify(details.counterexample?.[0] ?? []),
      };
  } finally {
    await sandbox.stop();
  }
  const seconds = (Date.now() - started) / 1000;
  if (failure)
    console.log(`first failure: seed=${failure.seed} path=${failure.path}\nsteps: ${failure.steps}\n${failure.error}`);
  console.log(goal('fuzz sequences run', ran, 2000, 'sequences', true));
  console.log(
    `fuzz: sequences=${ran} editors=3 violations=${failure ? 1 : 0} seed=${SEED} max_steps=${MAX_STEPS} ` +
      `wall_s=${seconds.toFixed(0)}${failure ? ` failed_seed=${failure.seed} failed_path=${failure.path}` : ''}`,
  );
}
