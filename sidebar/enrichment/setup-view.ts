// The enrichment panel's setup view: the domain column, the fields with where each goes, "Overwrite non-empty cells",
// the preview counts and cost, Start and "Use current selection"; or, when the selection holds no domains, what to
// select. Every change of choice asks the server for a new preview.
import type { EnrichOptions, EnrichPreview } from '../../src/enrichment/contract';
import { h, message } from '../ui/dom';
import { count } from './format';

/** What the setup view's controls do. */
export interface SetupActions {
  /** A new preview for these choices (the selection read again). */
  preview(options: EnrichOptions): void;
  start(choice: EnrichOptions, button: HTMLButtonElement): void;
  /** The choices of the previous preview (kept when the selection is read again). */
  options(): EnrichOptions;
}

function useSelectionButton(onclick: () => void): HTMLElement {
  return h('button', { type: 'button', id: 'enrich-refresh', onclick }, 'Use current selection');
}

function notReady(text: string, actions: SetupActions, last: HTMLElement | null): Array<HTMLElement | null> {
  const again = () => {
    const { fields, overwrite } = actions.options();
    actions.preview({ fields, overwrite });
  };
  return [
    message('warn', text),
    h(
      'p',
      { class: 'muted' },
      'Select the column of company domains (or the whole sheet), then click Use current selection.',
    ),
    h('div', { class: 'row' }, useSelectionButton(again)),
    last,
  ];
}

function counts(preview: Extract<EnrichPreview, { ok: true }>): HTMLElement {
  const rows: Array<[string, string]> = [
    ['Rows', count(preview.rows)],
    ['Unique domains', count(preview.uniqueDomains)],
    ['Blank', count(preview.blank)],
    ['Invalid', count(preview.invalid)],
    ['Already filled (skipped)', count(preview.alreadyFilled)],
    [
      'Domains to look up',
      `${count(preview.toLookUp)}${preview.cached > 0 ? ` (${count(preview.cached)} cached)` : ''}`,
    ],
    ['Requests', `${count(preview.plan.requests)} (${count(preview.plan.leftToday)} left today)`],
    ['Cost', '0 credits (lookups are free)'],
  ];
  return h(
    'dl',
    { class: 'counts', id: 'enrich-preview' },
    ...rows.flatMap(([label, value]) => [h('dt', {}, label), h('dd', {}, value)]),
  );
}

/** When the lookups do not fit today's requests: how the job spreads over the days, before it starts. */
function planNotice(plan: Extract<EnrichPreview, { ok: true }>['plan']): HTMLElement | null {
  if (plan.days <= 1) return null;
  return h(
    'div',
    { class: 'message warn', id: 'enrich-plan' },
    `This job needs about ${count(plan.requests)} requests; Sheet Scout has ${count(plan.leftToday)} of its ` +
      `${count(plan.dailyLimit)} daily requests left today. It looks up that many now and continues by itself as ` +
      `requests free up (the panel may be closed): about ${plan.days} days in all.`,
  );
}

/** The form's controls, and the choice they stand for. */
function choiceControls(preview: Extract<EnrichPreview, { ok: true }>, actions: SetupActions) {
  const column = h(
    'select',
    { id: 'enrich-column', 'aria-label': 'Domain column' },
    ...preview.columns.map((option) =>
      h(
        'option',
        { value: String(option.column), selected: option.column === preview.domainColumn },
        `${option.label} (${count(option.domains)} domains)`,
      ),
    ),
  );
  const boxes = preview.fields.map((field) =>
    h('input', { type: 'checkbox', value: field.key, checked: field.checked, 'data-field': field.key }),
  );
  const overwrite = h('input', { type: 'checkbox', id: 'enrich-overwrite', checked: preview.overwrite });
  const choice = (): EnrichOptions => ({
    domainColumn: Number(column.value),
    fields: boxes.filter((box) => box.checked).map((box) => box.value),
    overwrite: overwrite.checked,
  });
  column.addEventListener('change', () => actions.preview(choice()));
  for (const box of [...boxes, overwrite]) box.addEventListener('change', () => actions.preview(choice()));
  const fieldLabels = preview.fields.map((field, index) =>
    h(
      'label',
      { class: 'check' },
      boxes[index],
      h('span', {}, field.header),
      field.target ? h('span', { class: 'target' }, field.target) : null,
    ),
  );
  return { column, fieldLabels, overwrite, choice };
}

/** The setup view for a preview; `last` is the previous run's summary, `fresh` the "Keep data fresh" section. */
export function setupView(
  preview: EnrichPreview,
  actions: SetupActions,
  last: HTMLElement | null,
  fresh: HTMLElement,
): Array<HTMLElement | null> {
  if (!preview.ok) return notReady(preview.message, actions, last);
  const { column, fieldLabels, overwrite, choice } = choiceControls(preview, actions);
  const start = h(
    'button',
    { type: 'button', class: 'primary', id: 'enrich-start', disabled: preview.toLookUp === 0 && preview.invalid === 0 },
    'Start',
  );
  start.addEventListener('click', () => actions.start(choice(), start));
  return [
    h(
      'p',
      { class: 'muted' },
      `Sheet "${preview.sheetName}". Values are written next to each row (as values, not formulas).`,
    ),
    preview.note ? message('ok', preview.note) : null,
    h('label', { for: 'enrich-column' }, 'Domain column'),
    column,
    preview.hasHeaderRow ? null : message('warn', 'No header row found: one will be added above the data.'),
    h('label', {}, 'Fields to add (one column each; a column with the same header is reused)'),
    h('div', { class: 'fields' }, ...fieldLabels),
    h('label', { class: 'check' }, overwrite, h('span', {}, 'Overwrite non-empty cells')),
    h('h2', {}, 'Preview'),
    counts(preview),
    planNotice(preview.plan),
    h(
      'div',
      { class: 'row' },
      start,
      useSelectionButton(() => actions.preview({ fields: choice().fields, overwrite: overwrite.checked })),
    ),
    last,
    fresh,
  ];
}
