// The Launch tab's output section: a markdown report (with its report and sources columns), or fields built one by one
// (name, type, allowed values, required, evidence, and the column each is written to, with what "required" changes)
// or pasted as a JSON Schema and mapped onto columns; and the status column either way.
import { FIELD_TYPES, parsePastedSchema, schemaFields, type FieldType } from '../../src/research/contract';
import { h } from '../ui/dom';
import { input, radio } from './controls';
import { refreshLaunchSummary } from './launch-summary';
import { render, state, type FieldRow } from './state';

/** What "required" changes, shown once above the fields. */
const REQUIRED_HINT =
  'A required field the research cannot fill fails the task (refunded). An optional one it cannot fill stays empty, with a note saying so.';

function checkbox(label: string, checked: boolean, onChange: (checked: boolean) => void, ariaLabel?: string) {
  return h(
    'label',
    { class: 'check' },
    h('input', {
      type: 'checkbox',
      checked,
      ...(ariaLabel ? { 'aria-label': ariaLabel } : {}),
      onchange: (event: Event) => onChange((event.target as HTMLInputElement).checked),
    }),
    label,
  );
}

/** The field's type and its remove button, on one row under the name. */
function typeAndRemove(field: FieldRow, index: number): HTMLElement {
  const typeSelect = h(
    'select',
    {
      'aria-label': `Field ${index + 1} type`,
      onchange: (event: Event) => {
        field.type = (event.target as HTMLSelectElement).value as FieldType;
        render();
      },
    },
    ...FIELD_TYPES.map((option) =>
      h('option', { value: option.type, selected: option.type === field.type }, option.label),
    ),
  );
  const remove = h(
    'button',
    {
      type: 'button',
      title: 'Remove field',
      'aria-label': `Remove field ${index + 1}`,
      onclick: () => {
        state.fields.splice(index, 1);
        render();
      },
    },
    '×',
  );
  return h('div', { class: 'row' }, typeSelect, remove);
}

function fieldEditor(field: FieldRow, index: number): HTMLElement {
  // The column follows the field's name until the user types a column of their own: what is shown is what is written.
  const columnInput = input(
    field.column,
    (value) => {
      field.column = value;
      refreshLaunchSummary();
    },
    { placeholder: 'Column header', 'aria-label': `Field ${index + 1} column` },
  );
  const renameField = (value: string) => {
    if (field.column === field.name) {
      field.column = value;
      columnInput.value = value;
    }
    field.name = value;
    refreshLaunchSummary();
  };
  const options = (value: string) => {
    field.options = value.split(',');
    refreshLaunchSummary();
  };
  return h(
    'div',
    { class: 'field' },
    // Stacked for the 300 px sidebar: the name gets the whole width, type and remove go underneath.
    input(field.name, renameField, {
      placeholder: 'Field name',
      'aria-label': `Field ${index + 1} name`,
      class: 'field-name',
    }),
    typeAndRemove(field, index),
    field.type === 'enum'
      ? input((field.options ?? []).join(', '), options, { placeholder: 'Allowed values, comma separated' })
      : null,
    h(
      'div',
      { class: 'row' },
      Object.assign(
        checkbox('required', field.required, (checked) => (field.required = checked)),
        { title: REQUIRED_HINT },
      ),
      checkbox(
        'with evidence',
        field.evidence,
        (checked) => (field.evidence = checked),
        `Field ${index + 1} with evidence`,
      ),
    ),
    h('div', { class: 'row' }, h('span', { class: 'muted' }, 'Column'), columnInput),
  );
}

function reportOutput(): HTMLElement[] {
  const sourcesColumn = input(
    state.sourcesHeader,
    (value) => {
      state.sourcesHeader = value;
      refreshLaunchSummary();
    },
    { id: 'sources-column-name', 'aria-label': 'Sources column' },
  );
  return [
    h('label', { for: 'report-column' }, 'Report column'),
    input(
      state.reportHeader,
      (value) => {
        state.reportHeader = value;
        refreshLaunchSummary();
      },
      { id: 'report-column' },
    ),
    h('label', {}, 'Sources'),
    radio('sources-column', 'sources', state.sourcesMode === 'column', 'In a column', () => {
      state.sourcesMode = 'column';
    }),
    radio('sources-note', 'sources', state.sourcesMode === 'note', 'As a note on the report cell', () => {
      state.sourcesMode = 'note';
    }),
    ...(state.sourcesMode === 'column' ? [sourcesColumn] : []),
  ];
}

function addFieldButton(): HTMLElement {
  const add = () => {
    const n = state.fields.length + 1;
    state.fields.push({ name: `field_${n}`, type: 'string', required: false, evidence: false, column: `field_${n}` });
    render();
  };
  return h('div', { class: 'row' }, h('button', { type: 'button', id: 'add-field', onclick: add }, 'Add field'));
}

/** The pasted schema, and once it parses, one column input per field it defines. */
function pastedSchema(): HTMLElement[] {
  const pasted = parsePastedSchema(state.schemaText || '{}');
  const textarea = h(
    'textarea',
    {
      id: 'schema',
      placeholder: '{"type": "object", "properties": {...}}',
      oninput: (e: Event) => {
        state.schemaText = (e.target as HTMLTextAreaElement).value;
        refreshLaunchSummary();
      },
    },
    state.schemaText,
  );
  const columns = pasted.ok
    ? schemaFields(pasted.schema).map((field) =>
        h(
          'div',
          { class: 'row' },
          h('span', { class: 'muted' }, `${field.name}${field.evidence ? ' (evidence)' : ''} →`),
          input(
            state.pastedColumns[field.name] ?? field.name,
            (value) => {
              state.pastedColumns[field.name] = value;
            },
            { 'aria-label': `Column for ${field.name}` },
          ),
        ),
      )
    : [];
  return [
    textarea,
    h('button', { type: 'button', onclick: () => render() }, 'Check schema and map columns'),
    ...columns,
  ];
}

function fieldsOutput(): HTMLElement[] {
  return [
    radio('fields-builder', 'fields-mode', state.fieldsMode === 'builder', 'Build fields', () => {
      state.fieldsMode = 'builder';
    }),
    radio('fields-paste', 'fields-mode', state.fieldsMode === 'paste', 'Paste a JSON Schema', () => {
      state.fieldsMode = 'paste';
    }),
    ...(state.fieldsMode === 'builder'
      ? [
          h('p', { class: 'muted', id: 'required-hint' }, REQUIRED_HINT),
          ...state.fields.map(fieldEditor),
          addFieldButton(),
        ]
      : pastedSchema()),
  ];
}

export function outputSection(): HTMLElement {
  return h(
    'section',
    {},
    h('h2', {}, 'Output'),
    radio('output-report', 'output', state.outputKind === 'report', 'Report (markdown)', () => {
      state.outputKind = 'report';
    }),
    radio('output-fields', 'output', state.outputKind === 'fields', 'Fields (structured)', () => {
      state.outputKind = 'fields';
    }),
    ...(state.outputKind === 'report' ? reportOutput() : fieldsOutput()),
    h('label', { for: 'status-column' }, 'Status column'),
    input(
      state.statusHeader,
      (value) => {
        state.statusHeader = value;
        refreshLaunchSummary();
      },
      { id: 'status-column' },
    ),
  );
}
