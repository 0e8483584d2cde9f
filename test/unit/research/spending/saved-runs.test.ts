// Why a saved timer run cannot start (issue 48, point 1): the class of runs and limits, seeded. A run is refused
// exactly when its payer removed their token, it is larger than the daily or the monthly cap, or larger than its
// payer's known credits; the sentence names the run and the figures that decide it.
import fc from 'fast-check';
import { savedRunProblem, type RunFacts, type SavedRun } from '../../../../src/research/spending/saved-runs';

const credits = fc.integer({ min: 0, max: 500 });
const cap = fc.option(credits, { nil: null });

const runs = fc.record({
  what: fc.constantFrom('The account watch of "Companies"', 'Research on the new rows of "Leads"'),
  unit: fc.constantFrom<'run' | 'row'>('run', 'row'),
  credits: fc.integer({ min: 1, max: 500 }),
  payer: fc.constantFrom('ana@example.com', 'Ben@Example.com'),
});

const facts = fc.record({
  daily: cap,
  monthly: cap,
  available: fc.option(credits, { nil: undefined }),
  tokenless: fc.boolean(),
});

describe('savedRunProblem', () => {
  it('refuses a run exactly when something stands in its way, and names the run and the deciding figures', () => {
    fc.assert(
      fc.property(runs, facts, (run: SavedRun, given) => {
        const payer = run.payer.toLowerCase();
        const runFacts: RunFacts = {
          cap: { daily: given.daily, monthly: given.monthly },
          credits: new Map(given.available === undefined ? [] : [[payer, given.available]]),
          tokenless: new Map(given.tokenless ? [[payer, 1]] : []),
        };
        const overDaily = given.daily !== null && run.credits > given.daily;
        const overMonthly = given.monthly !== null && run.credits > given.monthly;
        const overCredits = given.available !== undefined && run.credits > given.available;
        const problem = savedRunProblem(run, runFacts);
        expect(problem !== null).toBe(given.tokenless || overDaily || overMonthly || overCredits);
        if (problem === null) return;
        expect(problem.startsWith(`${run.what} cannot run: `)).toBe(true);
        if (given.tokenless) expect(problem).toContain(`paid from ${run.payer}, who removed their Sheet Scout token`);
        else if (overDaily || overMonthly) {
          const limit = overDaily ? given.daily : given.monthly;
          const period = overDaily ? 'daily' : 'monthly';
          expect(problem).toContain(
            `a ${run.unit} reserves up to ${run.credits} credits and this spreadsheet's ${period} research spending ` +
              `cap is ${limit}. Raise the cap to at least ${run.credits}`,
          );
        } else expect(problem).toContain(`and ${run.payer} has ${given.available} credits`);
      }),
      { seed: 48, numRuns: 500 },
    );
  });

  it("weighs only the payer's own credits and token", () => {
    const run: SavedRun = {
      what: 'The account watch of "Companies"',
      unit: 'run',
      credits: 30,
      payer: 'ana@example.com',
    };
    const others: RunFacts = {
      cap: { daily: null, monthly: null },
      credits: new Map([['ben@example.com', 0]]),
      tokenless: new Map([['ben@example.com', 1]]),
    };
    expect(savedRunProblem(run, others)).toBeNull();
  });
});
