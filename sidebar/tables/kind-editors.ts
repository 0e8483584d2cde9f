// The own fields of a column card, one editor per kind: agent (type, output format, prompt with a reference picker,
// labels or output schema), criterion, people (roles, most results), reverse e-mail (the e-mail column), and JSON
// extra fields for the unpublished kinds. Edits change the draft in place and call `edit`.
import { h } from '../ui/dom';
import { AGENT_TYPES, OUTPUT_FORMATS, kindInfo, type ColumnDraft, type IssueField } from '../../src/tables/contract';
import type { KnownAgentType, KnownOutputFormat } from '../../src/api/types';
import { insertAtCursor, labelled, liveSelect, select } from './controls';

/** What a column card's editors share: the drafts, the sheet's column letters and the callbacks of the dialog. */
export interface RowContext {
  drafts: ColumnDraft[];
  letters: string[];
  /** Keys the target table already has before the new columns (pushed earlier or listed by the user). */
  tableKeys(): readonly string[];
  /** A field changed; `rebuild` when the card's structure must change. */
  changed(row: number, rebuild: boolean): void;
  /** The key of a row changed from `from` (on commit), so references can follow. */
  keyRenamed(row: number, from: string, to: string): void;
}

const AGENT_LABELS: Record<KnownAgentType, string> = {
  research_pro: 'Research (pro)',
  research_reasoning: 'Research (reasoning)',
  linkedin: 'LinkedIn',
  llm: 'LLM',
};

/** The other included columns offered as references: earlier ones usable, later ones shown but disabled. */
function referenceOptions(
  context: RowContext,
  row: number,
): Array<{ value: string; label: string; disabled?: boolean }> {
  const options: Array<{ value: string; label: string; disabled?: boolean }> = [
    { value: '', label: 'Insert a reference...' },
    { value: 'input', label: "{input}: the row's input value" },
  ];
  context.drafts.forEach((other, index) => {
    if (index === row || !other.include || other.key.trim() === '') return;
    const later = index > row;
    options.push({
      value: other.key.trim(),
      label: `{${other.key.trim()}}: ${other.name || other.header} (${context.letters[index]})${later ? ', comes later' : ''}`,
      disabled: later,
    });
  });
  const listed = new Set(options.map((option) => option.value));
  for (const key of context.tableKeys()) {
    if (!listed.has(key)) options.push({ value: key, label: `{${key}}: already in the table` });
    listed.add(key);
  }
  return options;
}

/** What a kind's own fields editor works with: the row's draft, where its controls go, and the edit callback. */
interface EditorContext {
  context: RowContext;
  row: number;
  draft: RowContext['drafts'][number];
  fields: Map<IssueField, HTMLElement>;
  edit: (rebuild?: boolean) => void;
  box: HTMLElement;
}

/** An agent column: its type, output format, a reference picker, the prompt, and labels or schema by format. */
function agentFields(editor: EditorContext): HTMLElement {
  const { context, row, fields, edit, box, draft } = editor;
  const agent = draft.agent;
  const agentType = select(
    AGENT_TYPES.map((value) => ({ value, label: AGENT_LABELS[value] })),
    agent.agentType,
    (value: KnownAgentType) => {
      agent.agentType = value;
      edit();
    },
  );
  const format = select(
    OUTPUT_FORMATS.map((value) => ({ value, label: value })),
    agent.outputFormat,
    (value: KnownOutputFormat) => {
      agent.outputFormat = value;
      edit(true);
    },
  );
  const prompt = h('textarea', {
    class: 'prompt',
    placeholder: 'e.g. Research the company at {input}: what it sells and to whom.',
    oninput: () => ((agent.prompt = prompt.value), edit()),
  });
  prompt.value = agent.prompt;
  const picker = liveSelect(
    () => referenceOptions(context, row),
    '',
    (value: string) => {
      if (value === '') return;
      agent.prompt = insertAtCursor(prompt, `{${value}}`);
      picker.value = '';
      edit();
    },
  );
  fields.set('agentType', agentType).set('outputFormat', format).set('prompt', prompt);
  box.append(
    labelled('Agent type', agentType, draft.header),
    labelled('Output format', format, draft.header),
    labelled('Reference', picker, draft.header),
    labelled('Prompt', prompt, draft.header, 'wide'),
  );
  if (agent.outputFormat === 'select' || agent.outputFormat === 'multiselect') {
    const labels = h('input', {
      type: 'text',
      value: agent.labels.join(', '),
      placeholder: 'Comma-separated, e.g. Hot, Warm, Cold',
      oninput: () => ((agent.labels = labels.value.split(',')), edit()),
    });
    fields.set('labels', labels);
    box.appendChild(labelled('Labels', labels, draft.header, 'wide'));
  }
  if (agent.outputFormat === 'json') {
    const schema = h('textarea', {
      class: 'code',
      placeholder: '{"type": "object", "properties": {"ceo": {"type": "string"}}}',
      oninput: () => ((agent.outputSchema = schema.value), edit()),
    });
    schema.value = agent.outputSchema;
    fields.set('outputSchema', schema);
    box.appendChild(labelled('Output schema (JSON Schema)', schema, draft.header, 'wide'));
  }
  return box;
}

/** A criterion column: the plain-language statement. */
function criterionFields(editor: EditorContext): HTMLElement {
  const { fields, edit, box, draft } = editor;
  const criterion = h('textarea', {
    placeholder: 'e.g. The company sells to hospitals',
    oninput: () => ((draft.criterion = criterion.value), edit()),
  });
  criterion.value = draft.criterion;
  fields.set('criterion', criterion);
  box.appendChild(labelled('Criterion (a plain-language statement)', criterion, draft.header, 'wide'));
  return box;
}

/** A people column: the roles and the most results. */
function peopleFields(editor: EditorContext): HTMLElement {
  const { fields, edit, box, draft } = editor;
  const roles = h('input', {
    type: 'text',
    value: draft.roles.join(', '),
    placeholder: 'Comma-separated, e.g. CTO, Head of Data',
    oninput: () => ((draft.roles = roles.value.split(',')), edit()),
  });
  const max = h('input', {
    type: 'number',
    min: 1,
    step: 1,
    value: draft.maxResults === null ? '' : draft.maxResults,
    oninput: () => ((draft.maxResults = max.value === '' ? null : Number(max.value)), edit()),
  });
  fields.set('roles', roles).set('maxResults', max);
  box.append(labelled('Roles', roles, draft.header, 'wide'), labelled('Max results (optional)', max, draft.header));
  return box;
}

/** A reverse e-mail column: which column holds the e-mail addresses. */
function reverseEmailFields(editor: EditorContext): HTMLElement {
  const { context, row, fields, edit, box, draft } = editor;
  const options = () => {
    const list = [{ value: '', label: 'Choose the e-mail column...' }, ...referenceOptions(context, row).slice(2)];
    if (draft.emailColumnKey !== '' && !list.some((option) => option.value === draft.emailColumnKey)) {
      list.push({ value: draft.emailColumnKey, label: `{${draft.emailColumnKey}} (not in this mapping)` });
    }
    return list;
  };
  const emailColumn = liveSelect(options, draft.emailColumnKey, (value: string) => {
    draft.emailColumnKey = value;
    edit();
  });
  fields.set('emailColumnKey', emailColumn);
  box.appendChild(labelled('E-mail column', emailColumn, draft.header));
  return box;
}

/** Any other kind: its extra fields as JSON. */
function jsonFields(editor: EditorContext): HTMLElement {
  const { fields, edit, box, draft } = editor;
  const extra = h('textarea', {
    class: 'code',
    placeholder: '{} (optional extra fields of this kind, as JSON)',
    oninput: () => ((draft.extraJson = extra.value), edit()),
  });
  extra.value = draft.extraJson;
  fields.set('extraJson', extra);
  box.appendChild(labelled('Extra fields (JSON object)', extra, draft.header, 'wide'));
  return box;
}

const EDITORS = {
  agent: agentFields,
  criterion: criterionFields,
  people: peopleFields,
  reverse_email: reverseEmailFields,
  json: jsonFields,
};

/** The card's fields of its kind, or null for a kind with none. */
export function ownFields(
  context: RowContext,
  row: number,
  fields: Map<IssueField, HTMLElement>,
  edit: (rebuild?: boolean) => void,
): HTMLElement | null {
  const draft = context.drafts[row];
  const editor = kindInfo(draft.kind)?.editor ?? 'none';
  if (editor === 'none') return null;
  return EDITORS[editor]({ context, row, draft, fields, edit, box: h('div', { class: 'col-fields' }) });
}
