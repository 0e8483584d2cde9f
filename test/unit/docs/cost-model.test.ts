// The emulator's cost model (dev/gas-runtime/costs.ts) is true to its sources: every figure either names a published
// measurement (an address, or what was measured on this machine) or says "estimate" with its reasoning, and the
// platform notes (docs/platform/apps-script-platform.md §12) list every figure at the value the model charges.
import fs from 'node:fs';
import path from 'node:path';
import { costTable } from '../../../dev/gas-runtime/costs';

const DOC = fs.readFileSync(path.join(__dirname, '../../../docs/platform/apps-script-platform.md'), 'utf8');

/** The §12 table's rows as figure name -> value ("A.b / c" names A.b and A.c; "30 / 62 ms" their values). */
function documentedFigures(): Map<string, number> {
  const section = DOC.slice(DOC.indexOf('## 12.'), DOC.indexOf('## Open questions'));
  const figures = new Map<string, number>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 4 || cells[1] === 'Figure' || cells[1].startsWith('---')) continue;
    const names = cells[1].replace(/\s*\(.*\)$/, '').split(' / ');
    const values = cells[2].replace(/ ms$/, '').split(' / ').map(Number);
    const first = names[0].split('.');
    names.forEach((name, i) => {
      const parts = name.split('.');
      const full = i === 0 ? name : [...first.slice(0, first.length - parts.length), ...parts].join('.');
      figures.set(full, values.length === 1 ? values[0] : values[i]);
    });
  }
  return figures;
}

describe('the cost model and its sources', () => {
  const table = costTable();

  it('gives every figure a source or an estimate with its reasoning', () => {
    expect(Object.keys(table).length).toBeGreaterThan(50);
    for (const [name, cost] of Object.entries(table)) {
      const sourced = /https?:\/\/|measured in Node|the sleep itself is the time/.test(cost.source);
      const reasoned = /^estimate: .{30,}/.test(cost.source);
      if (!(sourced || reasoned)) throw new Error(`${name}: neither a source nor a reasoned estimate: ${cost.source}`);
      // An estimate never passes itself off as a measurement, nor a measurement as an estimate.
      if (sourced && !reasoned) expect(cost.source).not.toMatch(/estimate/);
    }
  });

  it('is listed figure by figure in the platform notes, at the values the emulator charges', () => {
    const documented = documentedFigures();
    for (const [name, cost] of Object.entries(table)) {
      if (!documented.has(name)) throw new Error(`docs/platform §12 does not list ${name}`);
      expect([name, documented.get(name)]).toEqual([name, cost.ms]);
    }
  });

  it('charges a commit by the cells written, as its source measured, not a flat figure', () => {
    const commit = (cells: number) => table['SHEET.commit'].ms + cells * table['SHEET.commitPerCell'].ms;
    // One row of ten cells flushed: about 30 ms (12 s / 400 rows); 4,000 cells: 610 ms.
    expect(Math.abs(commit(10) - 30)).toBeLessThan(2);
    expect(commit(4000)).toBeCloseTo(610, 6);
  });
});
