// Why a saved timer run cannot happen as things stand: an account watch's run or research on a new row reserves its
// credits at once, from the account of the editor who saved it, under this spreadsheet's research spending cap. A run
// larger than the daily or the monthly cap, larger than its payer's credits, or whose payer removed their token never
// starts; the change that causes it (a cap lowered, credits spent, a token removed, a watch or a limit saved) says so
// when it is saved, and the run's section shows it until it is resolved. Pure.
import type { SpendingCap } from './spending-guard';

/** A saved run the timer will pay for: what it is, what one run (a watch) or one row (new rows) reserves, who pays. */
export interface SavedRun {
  /** 'The account watch of "Companies"', 'Research on the new rows of "Leads"'. */
  what: string;
  /** What reserves `credits` at once: a watch's run, or one new row. */
  unit: 'run' | 'row';
  credits: number;
  payer: string;
}

/** What a saved run's start depends on besides itself. */
export interface RunFacts {
  cap: SpendingCap;
  /** Payers whose available credits are known (lower-case e-mail -> credits). */
  credits: ReadonlyMap<string, number>;
  /** Payers who removed their token (lower-case e-mail -> when). */
  tokenless: ReadonlyMap<string, number>;
}

const FIXES: Record<SavedRun['unit'], string> = {
  run: 'watch fewer rows or choose a lower depth (Research > Account watch)',
  row: 'choose a lower depth (Enrich > Keep enriching new rows)',
};

/** Why the run can never start as things stand (one sentence with the figures), or null. */
export function savedRunProblem(run: SavedRun, facts: RunFacts): string | null {
  const payer = run.payer.toLowerCase();
  const reserves = `a ${run.unit} reserves up to ${run.credits} credits`;
  if (facts.tokenless.has(payer))
    return (
      `${run.what} cannot run: it is paid from ${run.payer}, who removed their Sheet Scout token. Nothing starts ` +
      `until ${run.payer} saves a token again in Settings.`
    );
  const caps = [
    facts.cap.daily === null ? null : { period: 'daily', cap: facts.cap.daily },
    facts.cap.monthly === null ? null : { period: 'monthly', cap: facts.cap.monthly },
  ];
  const over = caps.find((limit) => limit !== null && run.credits > limit.cap);
  if (over)
    return (
      `${run.what} cannot run: ${reserves} and this spreadsheet's ${over.period} research spending cap is ` +
      `${over.cap}. Raise the cap to at least ${run.credits} in Settings, or ${FIXES[run.unit]}.`
    );
  const available = facts.credits.get(payer);
  if (available !== undefined && run.credits > available)
    return (
      `${run.what} cannot run: ${reserves} and ${run.payer} has ${available} credits. Add credits on the ` +
      `dashboard, or ${FIXES[run.unit]}.`
    );
  return null;
}
