// The enrichment panel's "Keep data fresh" section: how many enriched rows are older than N days (and how many have
// no recorded date), what refreshing them costs, then the refresh itself, chunk by chunk while the panel is open,
// ending with how many rows changed per column (changed cells carry a note "Was ... until <date>") and how many cells
// kept the value the user typed over what the add-in wrote; its schedule (schedule-view.ts) and the list of changes
// (changes-view.ts).
import type { RefreshChunkResult, RefreshPreview } from '../../src/enrichment/contract';
import { errorText, server } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import { count } from './format';
import { scheduleView } from './schedule-view';
import { changesView } from './changes-view';

type Changes = Extract<RefreshChunkResult, { ok: true }>;

interface RunTotals {
  checked: number;
  changedRows: number;
  notFound: number;
  keptEdits: number;
  byField: Map<string, number>;
  skip: string[];
}

function plural(n: number, noun: string): string {
  return `${count(n)} ${noun}${n === 1 ? '' : 's'}`;
}

function totalsLine(totals: RunTotals): HTMLElement {
  const fields = [...totals.byField].map(([header, rows]) => `${header}: ${count(rows)}`).join(' · ');
  return h(
    'div',
    { id: 'enrich-fresh-summary' },
    h('p', {}, `Checked ${plural(totals.checked, 'domain')}: ${plural(totals.changedRows, 'row')} changed.`),
    fields ? h('p', {}, fields) : null,
    totals.notFound > 0 ? h('p', { class: 'muted' }, `${count(totals.notFound)} no longer found (values kept).`) : null,
    totals.keptEdits > 0
      ? h(
          'p',
          { class: 'muted', id: 'enrich-fresh-kept' },
          `Kept your edit${totals.keptEdits === 1 ? '' : 's'} in ${plural(totals.keptEdits, 'cell')} (typed over what Sheet Scout wrote).`,
        )
      : null,
    totals.skip.length > 0
      ? h('p', { class: 'muted' }, `${count(totals.skip.length)} not answered now: refresh again later.`)
      : null,
    totals.changedRows > 0 ? h('p', { class: 'muted' }, 'Each changed cell has a note with its previous value.') : null,
  );
}

function addChunk(totals: RunTotals, chunk: Changes): void {
  totals.checked += chunk.checked;
  totals.changedRows += chunk.changedRows;
  totals.notFound += chunk.notFound;
  totals.keptEdits += chunk.keptEdits;
  totals.skip.push(...chunk.retryLater);
  for (const { header, rows } of chunk.changedByField)
    totals.byField.set(header, (totals.byField.get(header) ?? 0) + rows);
}

/** The "Keep data fresh" section: its age input and Check button, the preview, and the refresh run in chunks. */
class RefreshSection {
  private readonly days = h('input', {
    type: 'number',
    id: 'enrich-fresh-days',
    min: '0',
    max: '3650',
    value: '30',
    'aria-label': 'Days',
  }) as HTMLInputElement;
  private readonly output = h('div', { id: 'enrich-fresh-output' });
  private readonly check = h('button', { type: 'button', id: 'enrich-fresh-check' }, 'Check');

  element(): HTMLElement {
    this.check.addEventListener('click', () => void this.preview());
    const section = h(
      'details',
      { id: 'enrich-fresh' },
      h('summary', {}, 'Keep data fresh'),
      h(
        'p',
        { class: 'muted' },
        'Look up again the rows enriched more than N days ago; only changed cells are rewritten.',
      ),
      h(
        'div',
        { class: 'fresh-age' },
        h('label', { for: 'enrich-fresh-days' }, 'Older than'),
        this.days,
        h('span', {}, 'days'),
        this.check,
      ),
      this.output,
    );
    // The schedule is read from the server the first time the section opens.
    section.addEventListener('toggle', () => {
      if (!section.open || section.querySelector('#fresh-schedule-section')) return;
      section.append(scheduleView(this.days), changesView());
    });
    return section;
  }

  private show(...children: Array<Node | null>): void {
    replaceChildren(this.output, ...children);
  }

  private async preview(): Promise<void> {
    this.show(h('p', { class: 'muted' }, 'Reading the sheet…'));
    try {
      this.renderPreview(await server.getRefreshPreview({ days: Number(this.days.value) }));
    } catch (error) {
      this.show(message('error', errorText(error)));
    }
  }

  private renderPreview(answer: RefreshPreview): void {
    if (!answer.ok) return this.show(message('warn', answer.message));
    if (answer.staleRows === 0)
      return this.show(message('ok', `Every enriched row of "${answer.sheetName}" is newer than ${answer.days} days.`));
    const undated = answer.undatedRows > 0 ? ` (${count(answer.undatedRows)} enriched before dates were kept)` : '';
    const run = h(
      'button',
      { type: 'button', class: 'primary', id: 'enrich-fresh-run' },
      `Refresh ${count(answer.staleRows)} rows`,
    );
    run.addEventListener('click', () => void this.refresh(answer.days, run));
    this.show(
      h(
        'p',
        { id: 'enrich-fresh-preview' },
        `${plural(answer.staleRows, 'row')}${undated} of "${answer.sheetName}" are older than ${answer.days} days.`,
      ),
      h(
        'p',
        { class: 'muted' },
        `Sends ${count(answer.requests)} lookups (${answer.credits} credits). Compares: ${answer.fields.join(', ')}.`,
      ),
      h('div', { class: 'row' }, run),
    );
  }

  private async refresh(age: number, button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    this.check.disabled = true;
    const totals: RunTotals = { checked: 0, changedRows: 0, notFound: 0, keptEdits: 0, byField: new Map(), skip: [] };
    try {
      for (;;) {
        const chunk = await server.runRefreshChunk({ days: age, skip: totals.skip });
        if (!chunk.ok) return this.show(message('warn', chunk.message), totalsLine(totals));
        addChunk(totals, chunk);
        if (chunk.unreachable > 0)
          return this.show(
            message(
              'warn',
              `The service did not answer (${count(chunk.remaining)} domains left): refresh again later.`,
            ),
            totalsLine(totals),
          );
        if (chunk.remaining === 0) break;
        this.show(
          h('p', { class: 'muted' }, `Refreshing… ${count(chunk.remaining)} domains left.`),
          totalsLine(totals),
        );
      }
      this.show(message('ok', 'Refresh finished.'), totalsLine(totals));
    } catch (error) {
      this.show(message('error', errorText(error)), totalsLine(totals));
    } finally {
      this.check.disabled = false;
    }
  }
}

export function refreshSection(): HTMLElement {
  return new RefreshSection().element();
}
