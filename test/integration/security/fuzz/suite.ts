// The money fuzzer as `npm test` runs it (issue 45): one jest file per seed, so the suite's workers share the
// sequences. Each sequence: three editors' launches, re-runs, watches, cap and digest saves, panels and timers, grid
// edits of every hidden sheet, service faults and clock moves, through the built bundle in the emulator against the
// sandbox; after each, the invariants of invariants.ts against the sandbox's money record.
import fc from 'fast-check';
import { sandboxSuite } from '../../harness';
import { sequence } from './actions';
import { apply, newSequence, settle } from './sequence';
import { violations } from './invariants';

/** Declares the suite of `sequences` random sequences drawn from `seed` (the same steps on every machine). */
export function moneyFuzzerSuite(seed: number, sequences: number): void {
  jest.setTimeout(20 * 60_000);
  const suite = sandboxSuite({ clock: 'manual' });

  describe(`money fuzzer (integration, three editors, seed ${seed})`, () => {
    it(`holds every invariant over ${sequences} random sequences`, async () => {
      await fc.assert(
        fc.asyncProperty(sequence(8), async (steps) => {
          const seq = await newSequence(suite.control);
          try {
            for (const step of steps) await apply(seq, step);
            await settle(seq);
            expect(await violations(seq)).toEqual([]);
          } finally {
            seq.project.close();
          }
        }),
        { numRuns: sequences, seed, endOnFailure: true },
      );
    });
  });
}
