// The storage budgets of the document's properties (issue 45, point 2): what an editor saves at no cost is held per
// feature and per editor, and a save never leaves less free than the add-in's own records need.
import { MemoryStore } from '../../fakes/ports';
import {
  budgetProblem,
  DOCUMENT_PROPERTIES_BYTES,
  FEATURE_BUDGETS,
  KEEP_FREE_BYTES,
  kb,
} from '../../../src/shared/property-budget';

const fill = (store: MemoryStore, prefix: string, bytes: number) => {
  for (let i = 0; bytes > 0; i++, bytes -= 8_000) store.set(`${prefix}${i}`, 'x'.repeat(Math.min(8_000, bytes) - 30));
};

describe('storage budgets', () => {
  it('the budgets and what is kept free leave the add-in at least 200 KB of its own', () => {
    const budgeted = Object.values(FEATURE_BUDGETS).reduce((sum, budget) => sum + budget.bytes, 0);
    expect(DOCUMENT_PROPERTIES_BYTES - budgeted - KEEP_FREE_BYTES).toBeGreaterThanOrEqual(200 * 1024);
  });

  it("refuses what breaks an editor's budget, the feature's, or the room kept free, with the figures", () => {
    const store = new MemoryStore();
    const save = { feature: 'newRows' as const, growth: 10_000, written: 10_000, hint: 'Stop one.' };
    expect(budgetProblem(store, { ...save, editor: { name: 'ben', before: 60_000, after: 70_000 } })).toBe(
      "Nothing was saved: what ben saved for Keep enriching new rows (the settings and the research saved on every sheet) takes 58.6 KB of the 64.0 KB each editor may keep in this spreadsheet's Sheet Scout storage, and this would make it 68.4 KB. Stop one.",
    );
    // An editor shrinking what they keep is never refused for their budget.
    expect(
      budgetProblem(store, { ...save, growth: -5_000, editor: { name: 'ben', before: 80_000, after: 75_000 } }),
    ).toBeNull();
    fill(store, 'sheetscout.newRows.sheet.', 160_000);
    expect(budgetProblem(store, save)).toMatch(
      /^Nothing was saved: Keep enriching new rows .* takes 156 KB of the 160 KB it may keep in this spreadsheet's Sheet Scout storage \(all editors together\), and this needs 9\.8 KB more\. Stop one\.$/,
    );
    // Other budgets are another feature's: a watch still fits, until the room kept free would not.
    expect(budgetProblem(store, { ...save, feature: 'watch', growth: 400, written: 400 })).toBeNull();
    fill(store, 'sheetscout.spending.', DOCUMENT_PROPERTIES_BYTES - store.totalBytes() - KEEP_FREE_BYTES);
    expect(budgetProblem(store, { ...save, feature: 'watch', growth: 400, written: 400 })).toMatch(
      /^Nothing was saved: this needs 0\.9 KB of Sheet Scout's storage in this spreadsheet while it is written, and 4\d\.\d KB of the 500 KB Google allows are free, of which Sheet Scout keeps 48\.0 KB/,
    );
    expect(kb(41_472)).toBe('40.5 KB');
  });
});
