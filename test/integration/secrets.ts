// Where a secret (a service token, a webhook URL) must never show up, for the integration tests: every cell value,
// formula and note of every sheet (the add-in's hidden ones too), and every line the bundle logged. Returns where each
// secret was found ("Accounts!C4 note", "log 12"); empty when nowhere.
import type { GasRuntime } from '../../dev/gas-runtime';

export function secretsShown(runtime: GasRuntime, secrets: readonly string[]): string[] {
  const found: string[] = [];
  const look = (text: unknown, where: string) => {
    for (const secret of secrets) if (String(text ?? '').includes(secret)) found.push(`${where}: ${secret}`);
  };
  for (const sheet of runtime.spreadsheet.sheets) {
    const grids = { value: sheet.getValues(), formula: sheet.getFormulas(), note: sheet.getNotes() };
    for (const [kind, grid] of Object.entries(grids))
      grid.forEach((row, r) => row.forEach((cell, c) => look(cell, `${sheet.name}!R${r + 1}C${c + 1} ${kind}`)));
  }
  runtime.logs.forEach((line, i) => look(line.message, `log ${i}`));
  return found;
}
