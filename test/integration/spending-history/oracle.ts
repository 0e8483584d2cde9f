// The spending history held against the sandbox's money record, for the spending tests and the scale benchmark: each
// run Settings > Spending lists, beside what the service's own ledger (GET /_sandbox/ledger/{token}) says its tasks
// reserved, charged and refunded. A run's tasks are found by their records in the document's research ledger (each
// record names its launch and its task).
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { SandboxControl } from '../../../dev/sandbox/control-client';
import { rowToEntry } from '../../../src/research/records/ledger';
import { runId } from '../../../src/spending-history/history';
import { hiddenRows } from '../harness';
import type { SpendingHistoryDto, SpendingRunDto } from '../../../src/spending-history/contract';

const LEDGER_SHEET = 'Sheet Scout research ledger';

export interface RunAgainstService {
  run: SpendingRunDto;
  /** What the service's ledger says the run's tasks moved. */
  service: { reserved: number; charged: number; givenBack: number; tasks: number };
}

/** The task ids of each run (by run id), from the document's research ledger. */
export function tasksByRun(doc: GasRuntime): Map<string, string[]> {
  const tasks = new Map<string, string[]>();
  if (!doc.spreadsheet.sheets.some((sheet) => sheet.name === LEDGER_SHEET)) return tasks;
  for (const row of hiddenRows(doc.spreadsheet, LEDGER_SHEET).slice(1)) {
    const entry = rowToEntry(row);
    if (entry === 'blank' || !('state' in entry) || !entry.launch || !entry.taskId) continue;
    const id = runId(entry.launch);
    tasks.set(id, [...(tasks.get(id) ?? []), entry.taskId]);
  }
  return tasks;
}

/** The service's movements per task over every day, of the given tokens' research. */
export async function serviceMovements(
  control: SandboxControl,
  tokens: readonly string[],
): Promise<Map<string, { reserved: number; charged: number; refunded: number }>> {
  const movements = new Map<string, { reserved: number; charged: number; refunded: number }>();
  for (const token of tokens)
    for (const day of (await control.ledger(token)).days)
      for (const task of day.tasks) {
        const known = movements.get(task.id) ?? { reserved: 0, charged: 0, refunded: 0 };
        movements.set(task.id, {
          reserved: known.reserved + task.reserved,
          charged: known.charged + task.charged,
          refunded: known.refunded + task.refunded,
        });
      }
  return movements;
}

/** Each run the document's Settings > Spending lists (as `user` sees it), beside the service's figures for it. */
export async function historyAgainstService(
  control: SandboxControl,
  doc: GasRuntime,
  tokens: readonly string[],
  user?: string,
): Promise<RunAgainstService[]> {
  const history = doc.run<SpendingHistoryDto>('getSpendingHistory', [], { kind: 'sidebar', user });
  const movements = await serviceMovements(control, tokens);
  const byRun = tasksByRun(doc);
  return history.runs.map((run) => {
    const tasks = (byRun.get(run.id) ?? []).map((id) => movements.get(id) ?? { reserved: 0, charged: 0, refunded: 0 });
    const sum = (pick: (task: { reserved: number; charged: number; refunded: number }) => number) =>
      tasks.reduce((total, task) => total + pick(task), 0);
    return {
      run,
      service: {
        reserved: sum((task) => task.reserved),
        charged: sum((task) => task.charged),
        givenBack: sum((task) => task.refunded),
        tasks: tasks.length,
      },
    };
  });
}

/** Whether a settled run's figures are the service's (reserved, charged and given back). */
export function agrees({ run, service }: RunAgainstService): boolean {
  return run.reserved === service.reserved && run.charged === service.charged && run.givenBack === service.givenBack;
}
