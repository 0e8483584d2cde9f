// What the playground keeps of a session: nothing by itself (the emulator, its spreadsheet and the sandbox live in
// memory, so stopping `npm start` loses every sheet, schedule, watch and task). "Export sheets" saves the visible
// sheets' contents (what each cell holds as typed, formulas included, and its note) into a JSON file, and
// `npm start -- --sheets <file>` starts with them instead of the demo sheet: the sheets come back, the schedules,
// watches and the sandbox's tasks do not (set them up again in the panels).
import * as fs from 'fs';
import type { GasRuntime } from '../gas-runtime';
import { columnLetter } from '../../src/shared/a1';

/** A sheet as exported: each cell as typed (a formula, or its value) and its note, row by row from A1. */
export interface KeptSheet {
  name: string;
  cells: Array<Array<string | number | boolean>>;
  notes: string[][];
}

export interface KeptSheets {
  /** What the file is, for whoever opens it. */
  kind: 'Sheet Scout playground sheets';
  sheets: KeptSheet[];
}

/** The visible sheets' contents (the add-in's hidden sheets stay out: their records need the session's sandbox). */
export function exportSheets(runtime: GasRuntime): KeptSheets {
  const sheets = runtime.spreadsheet.sheets
    .filter((sheet) => !sheet.hidden)
    .map((sheet) => {
      const a1 = `A1:${columnLetter(Math.max(1, sheet.lastColumn()))}${Math.max(1, sheet.lastRow())}`;
      const formulas = sheet.getFormulas(a1);
      const values = sheet.getValues(a1);
      return {
        name: sheet.name,
        cells: values.map((row, r) =>
          row.map((value, c) => formulas[r][c] || (value instanceof Date ? value.toISOString() : value)),
        ),
        notes: sheet.getNotes(a1),
      };
    });
  return { kind: 'Sheet Scout playground sheets', sheets };
}

/** Reads an exported file: its sheets, or an error that says what is wrong with it. */
export function readKeptSheets(file: string): KeptSheets {
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<KeptSheets>;
  if (parsed.kind !== 'Sheet Scout playground sheets' || !Array.isArray(parsed.sheets) || parsed.sheets.length === 0)
    throw new Error(`${file} is not a file of the playground's Export sheets`);
  return parsed as KeptSheets;
}

/** Puts exported sheets into the runtime's spreadsheet, replacing its sheets: values at once, formulas as typed. */
export function loadSheets(runtime: GasRuntime, kept: KeptSheets, user: string): void {
  const model = runtime.spreadsheet;
  const first = model.sheets[0];
  for (const extra of model.sheets.slice(1)) model.deleteSheet(extra);
  kept.sheets.forEach((saved, index) => {
    const sheet = index === 0 ? first : model.insertSheet(saved.name);
    sheet.name = saved.name;
    const rows = saved.cells.map((row) =>
      row.map((cell) => (typeof cell === 'string' && cell.startsWith('=') ? '' : cell)),
    );
    const width = Math.max(1, ...rows.map((row) => row.length));
    if (rows.length > 0)
      sheet.setValues(
        `A1:${columnLetter(width)}${rows.length}`,
        rows.map((row) => [...row, ...Array(width - row.length).fill('')]),
      );
    saved.notes.forEach((row, r) =>
      row.forEach((note, c) => {
        if (note) sheet.ensureCell(r + 1, c + 1).note = note;
      }),
    );
  });
  for (const saved of kept.sheets)
    saved.cells.forEach((row, r) =>
      row.forEach((cell, c) => {
        if (typeof cell === 'string' && cell.startsWith('='))
          runtime.userEdit(`'${saved.name.replace(/'/g, "''")}'!${columnLetter(c + 1)}${r + 1}`, cell, { user });
      }),
    );
}
