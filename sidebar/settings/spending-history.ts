// The Settings panel's "Spending history": every run that reserved credits from this spreadsheet in the last 90 days
// (a research launch, an account watch run, Send anyway, research on new rows), newest first, with who started it,
// when, its rows and the credits reserved, charged and given back (still running: what it holds so far), and the
// export of the list into a sheet the user names (values only; a sheet holding data is replaced only once the user
// confirms). One element kept across the panel's re-renders; it loads its own state.
import { EXPORT_SHEET, RUN_KIND_LABELS, type SpendingHistoryDto } from '../../src/spending-history/contract';
import { errorText, server } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import { inSpreadsheetZone } from '../ui/spreadsheet-time';
import { selfLoadingSection } from './self-loading';

const section = h('section', { id: 'spending-history' });
/** Runs listed at first; "Show all" lists the rest. */
const FIRST_RUNS = 10;
let showAll = false;
let shown: SpendingHistoryDto | null = null;
let exportName = EXPORT_SHEET;

const credits = (n: number) => n.toLocaleString('en-US');

function entry(run: SpendingHistoryDto['runs'][number], timeZone: string): HTMLElement {
  const still = run.open > 0 ? `; ${run.open} of ${run.rows} still open` : '';
  const unknown = run.unknown > 0 ? `; ${run.unknown} lost create${run.unknown === 1 ? '' : 's'} may have started` : '';
  const lost =
    run.lost > 0
      ? `; ${run.lost} not collected (changed or deleted outside Sheet Scout in its hidden ledger: not counted here)`
      : '';
  const reused =
    run.reused > 0 ? `; ${run.reused} row${run.reused === 1 ? '' : 's'} given earlier results (0 credits)` : '';
  return h(
    'li',
    { 'data-run': run.id },
    h('div', {}, h('strong', {}, RUN_KIND_LABELS[run.kind]), ` · ${inSpreadsheetZone(run.at, timeZone)}`),
    h(
      'div',
      { class: 'muted' },
      `${run.startedBy} · ${run.sheetName || 'a deleted sheet'} · ${run.rows} row${run.rows === 1 ? '' : 's'}`,
    ),
    h(
      'div',
      { class: 'run-credits' },
      `${credits(run.reserved)} reserved, ${credits(run.charged)} charged, ${credits(run.givenBack)} given back${reused}${still}${unknown}${lost}`,
    ),
  );
}

function exportForm(confirm: string | null): HTMLElement {
  const input = h('input', { type: 'text', id: 'spending-export-sheet', value: exportName }) as HTMLInputElement;
  input.addEventListener('input', () => (exportName = input.value));
  return h(
    'div',
    { id: 'spending-export' },
    h('label', { for: 'spending-export-sheet' }, 'Export to the sheet'),
    input,
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', id: 'spending-export-button', onclick: () => void exportTo(false) }, 'Export'),
      confirm
        ? h('button', { type: 'button', id: 'spending-export-replace', onclick: () => void exportTo(true) }, 'Replace')
        : null,
    ),
  );
}

function render(history: SpendingHistoryDto | null, note?: { kind: 'ok' | 'error' | 'warn'; text: string }): void {
  shown = history;
  const runs = history ? (showAll ? history.runs : history.runs.slice(0, FIRST_RUNS)) : [];
  replaceChildren(
    section,
    h('h2', {}, 'Spending history'),
    !history
      ? h('p', { class: 'muted' }, 'Loading…')
      : history.runs.length === 0
        ? h(
            'p',
            { class: 'muted', id: 'spending-none' },
            `No run reserved credits here in the last ${history.days} days.`,
          )
        : h('ul', { id: 'spending-runs' }, ...runs.map((run) => entry(run, history.timeZone))),
    history && history.runs.length > runs.length
      ? h(
          'button',
          { type: 'button', id: 'spending-all', onclick: () => ((showAll = true), render(shown)) },
          `Show all ${history.runs.length}`,
        )
      : null,
    history?.dropped
      ? h('p', { class: 'muted' }, `${history.dropped} older runs were removed early to stay within storage.`)
      : null,
    history?.incompleteSince
      ? message('warn', 'Some runs may be missing: this spreadsheet’s storage for Sheet Scout was full.')
      : null,
    history && history.runs.length > 0 ? exportForm(note?.kind === 'warn' ? note.text : null) : null,
    note ? message(note.kind, note.text) : null,
  );
}

async function exportTo(replace: boolean): Promise<void> {
  try {
    const answer = await server.exportSpendingHistory({ sheetName: exportName, replace });
    render(shown, { kind: answer.ok ? 'ok' : answer.confirmReplace ? 'warn' : 'error', text: answer.message });
  } catch (error) {
    render(shown, { kind: 'error', text: errorText(error) });
  }
}

/** The section (loads its state the first time it is shown). */
export const spendingHistorySection = selfLoadingSection(section, {
  load: () => server.getSpendingHistory(),
  render,
  failed: (text) => render(null, { kind: 'error', text }),
});
