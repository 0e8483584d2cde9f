// Issue 45's money fuzzer in the suite: seeded random sequences of three editors' launches, re-runs, watches, cap and
// digest saves, panels and timers, grid edits of every hidden sheet (cells from other records and hostile text, rows
// copied, reordered, deleted, older copies restored), service faults and clock moves across days and time zones,
// through the built bundle in the emulator against the sandbox; after each, the invariants of fuzz/invariants.ts
// against the sandbox's money record. `npm run bench -- fuzz` runs many more, with other seeds.
import fc from 'fast-check';
import { sandboxSuite } from '../harness';
import { sequence } from './fuzz/actions';
import { apply, newSequence, settle } from './fuzz/sequence';
import { violations } from './fuzz/invariants';

/** Sequences `npm test` runs (fixed seeds: the same steps on every machine). */
const SEQUENCES = 200;
const SEED = 4545;

jest.setTimeout(20 * 60_000);

const suite = sandboxSuite({ clock: 'manual' });

describe('money fuzzer (integration, three editors)', () => {
  it(`holds every invariant over ${SEQUENCES} random sequences`, async () => {
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
      { numRuns: SEQUENCES, seed: SEED, endOnFailure: true },
    );
  });
});
