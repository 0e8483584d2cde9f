// The scale benchmark's spending history (issue 40, item 3): each run Settings > Spending lists in the given
// spreadsheets (day 1's research launches, the scheduled weeks' watch runs), beside what the sandbox's money record says
// its tasks reserved, charged and refunded (test/integration/spending-history/oracle.ts). A run whose figures differ
// is a mismatch.
import type { GasRuntime } from '../../dev/gas-runtime';
import { agrees, historyAgainstService } from '../../test/integration/spending-history/oracle';
import { TOKEN, type World } from './world';

export interface HistoryFigures {
  runs: number;
  mismatches: number;
  /** Credits charged by the runs listed (the service's figure, for the line). */
  charged: number;
}

export async function historyFigures(world: World, docs: readonly GasRuntime[]): Promise<HistoryFigures> {
  const figures: HistoryFigures = { runs: 0, mismatches: 0, charged: 0 };
  const kinds = new Map<string, number>();
  for (const doc of docs) {
    for (const compared of await historyAgainstService(world.control, doc, [TOKEN])) {
      figures.runs += 1;
      if (!agrees(compared)) figures.mismatches += 1;
      figures.charged += compared.service.charged;
      kinds.set(compared.run.kind, (kinds.get(compared.run.kind) ?? 0) + 1);
    }
  }
  console.log(
    `H spending history of ${docs.length} spreadsheets: ${figures.runs} runs listed ` +
      `(${[...kinds].map(([kind, count]) => `${count} ${kind}`).join(', ')}), ${figures.charged} credits charged, ` +
      `${figures.mismatches} whose figures differ from the sandbox's money record`,
  );
  return figures;
}
