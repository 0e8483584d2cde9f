// One column card of the mapping dialog: include, kind, name, key on the first line, the kind's own fields below
// (kind-editors.ts). Edits change the draft in place and call `changed`; a change of structure (include, kind, output
// format) asks for the card to be rebuilt.
import { h } from '../ui/dom';
import { FIELD_LABELS, KINDS, type IssueField, type MappingIssue } from '../../src/tables/contract';
import type { ColumnKind } from '../../src/api/types';
import { labelled, select } from './controls';
import { ownFields, type RowContext } from './kind-editors';

export interface RowView {
  element: HTMLElement;
  showIssues(issues: MappingIssue[]): void;
  /** Scrolls the field (the card when it has no such control) into the middle of the view and focuses it. */
  reveal(field: IssueField): void;
}

export function renderRow(context: RowContext, row: number): RowView {
  const draft = context.drafts[row];
  const fields = new Map<IssueField, HTMLElement>();
  const issueList = h('ul', { class: 'issues' });
  const edit = (rebuild = false) => context.changed(row, rebuild);

  const include = h('input', {
    type: 'checkbox',
    title: 'Include this column',
    'aria-label': `Include column ${draft.header}`,
    onchange: () => {
      draft.include = include.checked;
      edit(true);
    },
  });
  include.checked = draft.include;

  const kind = select(
    KINDS.map((info) => ({ value: info.kind, label: info.label })),
    draft.kind,
    (value: ColumnKind) => {
      draft.kind = value;
      edit(true);
    },
  );
  const name = h('input', { type: 'text', value: draft.name, oninput: () => ((draft.name = name.value), edit()) });
  let committedKey = draft.key;
  const key = h('input', {
    type: 'text',
    value: draft.key,
    spellcheck: 'false',
    oninput: () => ((draft.key = key.value), edit()),
    onchange: () => {
      const from = committedKey.trim();
      committedKey = key.value;
      if (from !== '' && from !== key.value.trim()) context.keyRenamed(row, from, key.value.trim());
    },
  });
  fields.set('kind', kind).set('name', name).set('key', key);

  const title = h(
    'div',
    { class: 'col-title', title: draft.header },
    h('span', { class: 'letter' }, context.letters[row] ?? ''),
    draft.header,
  );
  const head = h(
    'div',
    { class: 'col-head' },
    h('div', {}, include),
    title,
    labelled('Kind', kind, draft.header),
    labelled('Name', name, draft.header),
    labelled('Key', key, draft.header),
  );
  const card = h('div', { class: `col-card${draft.include ? '' : ' skipped'}`, 'data-row': row }, head);
  if (draft.include) {
    const own = ownFields(context, row, fields, edit);
    if (own) card.appendChild(own);
  } else {
    for (const control of [kind, name, key]) control.setAttribute('disabled', '');
  }
  card.appendChild(issueList);

  return cardView(card, fields, issueList);
}

/** The card's view: its issues listed (the fields with errors outlined), and a field brought into view. */
function cardView(card: HTMLElement, fields: Map<IssueField, HTMLElement>, issueList: HTMLElement): RowView {
  return {
    element: card,
    showIssues(issues) {
      issueList.textContent = '';
      for (const control of fields.values()) control.classList.remove('invalid');
      card.classList.toggle(
        'has-error',
        issues.some((issue) => issue.severity === 'error'),
      );
      for (const issue of issues) {
        issueList.appendChild(h('li', { class: issue.severity }, `${FIELD_LABELS[issue.field]}: ${issue.message}`));
        if (issue.severity === 'error') fields.get(issue.field)?.classList.add('invalid');
      }
    },
    reveal(field) {
      const control = fields.get(field);
      (control ?? card).scrollIntoView({ block: 'center' });
      control?.focus({ preventScroll: true });
    },
  };
}
