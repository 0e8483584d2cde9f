// The plan of the document's properties: Google allows 500 KB per document, shared by every feature and by every
// editor, and a write past it fails whoever makes it (the timer of an editor who never saw what filled it). What any
// editor can add at no cost (settings saved per sheet, briefs and schemas kept for later runs) is held to a budget per
// feature and, where an editor's account is known, per editor; a saved research's brief and output are capped; the
// rest of the 500 KB is the add-in's own (the timer's record and marks, the spending history, create permits, what the
// running research keeps, the enrichment job: each checked against what is free before it starts). A save that would
// break a budget, or leave less free than KEEP_FREE_BYTES while it is written (a chunked value is written anew before
// the old one goes), is refused with the figures. Pure over a SizedStore.
import type { SizedStore } from '../ports';

/** Google's limit of the document's properties (keys and values, UTF-8). */
export const DOCUMENT_PROPERTIES_BYTES = 500 * 1024;
/** What a saved research's terms (brief, depth, output schema and columns) may take: a long brief and 50 fields fit. */
export const SAVED_RESEARCH_BYTES = 16 * 1024;
/** Left free by every budgeted save: the running research's bookkeeping and the timer's writes need it. */
export const KEEP_FREE_BYTES = 48 * 1024;
/** Keys, chunk heads and JSON around a stored value, counted with its text. */
export const VALUE_OVERHEAD_BYTES = 128;

export type BudgetedFeature = 'newRows' | 'watch' | 'refresh';

export interface FeatureBudget {
  /** The feature as the refusal names it. */
  label: string;
  /** Every key of the feature's in the document's properties starts so. */
  prefix: string;
  /** What all editors' saves of the feature may take together. */
  bytes: number;
  /** What one editor's saves may take (their account is known to the feature), or null. */
  editorBytes: number | null;
}

/**
 * The budgets (240 KB in all; with KEEP_FREE_BYTES, 212 KB at least stay for the add-in's own records however the
 * editors fill theirs).
 */
export const FEATURE_BUDGETS: Readonly<Record<BudgetedFeature, FeatureBudget>> = {
  newRows: {
    label: 'Keep enriching new rows (the settings and the research saved on every sheet)',
    prefix: 'sheetscout.newRows.',
    bytes: 160 * 1024,
    editorBytes: 64 * 1024,
  },
  watch: {
    label: "Account watch (what each watch's saver confirmed)",
    prefix: 'sheetscout.research.watch.',
    bytes: 32 * 1024,
    editorBytes: 16 * 1024,
  },
  refresh: {
    label: 'Keep data fresh (the schedules of every sheet)',
    prefix: 'sheetscout.refresh.',
    bytes: 48 * 1024,
    editorBytes: null,
  },
};

/** A size as the refusals say it ("40.5 KB"). */
export function kb(bytes: number): string {
  const value = Math.max(0, bytes) / 1024;
  return `${value < 100 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US')} KB`;
}

/** What a save changes in a feature's storage. */
export interface BudgetedSave {
  feature: BudgetedFeature;
  /** Bytes the feature's stored values take after the save, less before (may be negative). */
  growth: number;
  /** The largest value the save writes (it is held twice while written). */
  written: number;
  /** The editor whose budget it counts against, what their saves of the feature take before and after it. */
  editor?: { name: string; before: number; after: number };
  /** What to do to make room ("Stop research on another sheet's new rows, or shorten the brief"). */
  hint: string;
}

/** Why the save would break a budget or fill the document's properties, with the figures; null when it fits. */
export function budgetProblem(store: SizedStore, save: BudgetedSave): string | null {
  const budget = FEATURE_BUDGETS[save.feature];
  const editor = save.editor;
  if (budget.editorBytes !== null && editor && editor.after > editor.before && editor.after > budget.editorBytes)
    return (
      `Nothing was saved: what ${editor.name} saved for ${budget.label} takes ${kb(editor.before)} of the ` +
      `${kb(budget.editorBytes)} each editor may keep in this spreadsheet's Sheet Scout storage, and this would make ` +
      `it ${kb(editor.after)}. ${save.hint}`
    );
  const used = store.bytesUnder(budget.prefix);
  if (save.growth > 0 && used + save.growth > budget.bytes)
    return (
      `Nothing was saved: ${budget.label} takes ${kb(used)} of the ${kb(budget.bytes)} it may keep in this ` +
      `spreadsheet's Sheet Scout storage (all editors together), and this needs ${kb(save.growth)} more. ${save.hint}`
    );
  const free = store.bytesFree();
  const needed = Math.max(0, save.growth) + save.written + VALUE_OVERHEAD_BYTES;
  if (free - needed < KEEP_FREE_BYTES)
    return (
      `Nothing was saved: this needs ${kb(needed)} of Sheet Scout's storage in this spreadsheet while it is written, ` +
      `and ${kb(free)} of the 500 KB Google allows are free, of which Sheet Scout keeps ${kb(KEEP_FREE_BYTES)} for ` +
      'the research running here and its timer. Stop what this spreadsheet no longer needs (a watch, a schedule, ' +
      'research on new rows), then save again.'
    );
  return null;
}
