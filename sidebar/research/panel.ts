// The Research panel: Launch (brief template with live preview, depth and credit estimate, output as a report or as
// fields from the builder or a pasted schema, checked here before anything is sent), Tasks (this sheet's rows polled
// every 15 s while open, and the account's task history with "Write to selected row"), and Report (the selected
// row's report, rendered from markdown and sanitized, citations linked to their sources).
import type { TaskDepth, TaskReport } from '../../src/api/types';
import type {
  HistoryItemDto,
  ReportDto,
  ResearchContextDto,
  ResearchStatusDto,
  WriteToRowResponse,
} from '../../src/research/contract';
import { briefLength, parseTemplate, renderBrief, BRIEF_MAX_LENGTH, NO_REPORT } from '../../src/research/contract';
import {
  DEPTHS,
  depthDetail,
  depthLabel,
  estimateCredits,
  estimateMessage,
  reservationFor,
} from '../../src/research/contract';
import { outputClashes, resolveOutput, type OutputRequest } from '../../src/research/contract';
import {
  FIELD_TYPES,
  isEvidenced,
  parsePastedSchema,
  schemaFields,
  type FieldSpec,
  type FieldType,
} from '../../src/research/contract';
import { errorText, server } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import { panelHeader, refreshCredits } from '../ui/credits-badge';
import { renderMarkdown } from './markdown';
import { safeUrl, withoutSourceList } from './citations';
import { createPollLoop } from './poll-loop';

const POLL_MS = 15000;

interface FieldRow extends FieldSpec {
  column: string;
}

interface PanelState {
  context: ResearchContextDto | null;
  credits: number | null;
  template: string;
  depth: TaskDepth;
  outputKind: 'report' | 'fields';
  statusHeader: string;
  reportHeader: string;
  sourcesMode: 'column' | 'note';
  sourcesHeader: string;
  fieldsMode: 'builder' | 'paste';
  fields: FieldRow[];
  schemaText: string;
  pastedColumns: Record<string, string>;
  rerun: boolean;
  tab: 'launch' | 'tasks' | 'report';
  notice: { kind: 'error' | 'ok' | 'warn'; text: string; details?: string[] } | null;
  busy: boolean;
  status: ResearchStatusDto | null;
  history: { page: number; items: HistoryItemDto[]; hasMore: boolean; error: string | null } | null;
  report: ReportDto | null;
  /** The unconfirmed record whose "Send anyway" awaits a second click (it may pay twice). */
  confirmingSend: string | null;
  /** The last launch's answer, shown under the launch button (where the user is looking). */
  launched: {
    kind: 'error' | 'ok' | 'warn';
    text: string;
    details: string[];
    sheetId: number;
    rows: number[];
    statusHeader: string;
  } | null;
  /** The answer to "Write to selected row", shown in the task's own entry (with its question, if any). */
  written: {
    taskId: string;
    answer: WriteToRowResponse;
    confirmed: { otherCompany: boolean; taskOutput: boolean };
  } | null;
}

const state: PanelState = {
  context: null,
  credits: null,
  template: 'Research {A}: what it does, customers, funding and recent news',
  depth: 'medium',
  outputKind: 'report',
  statusHeader: 'Research status',
  reportHeader: 'Research report',
  sourcesMode: 'column',
  sourcesHeader: 'Research sources',
  fieldsMode: 'builder',
  fields: [{ name: 'summary', type: 'string', required: true, evidence: false, column: 'summary' }],
  schemaText: '',
  pastedColumns: {},
  rerun: false,
  tab: 'launch',
  notice: null,
  busy: false,
  status: null,
  history: null,
  report: null,
  confirmingSend: null,
  launched: null,
  written: null,
};

let root: HTMLElement;
let body: HTMLElement;

function output(): OutputRequest {
  if (state.outputKind === 'report') {
    return {
      kind: 'report',
      statusHeader: state.statusHeader,
      reportHeader: state.reportHeader,
      sourcesHeader: state.sourcesMode === 'note' ? null : state.sourcesHeader,
    };
  }
  if (state.fieldsMode === 'paste') {
    return {
      kind: 'fields',
      statusHeader: state.statusHeader,
      schemaText: state.schemaText,
      columns: state.pastedColumns,
    };
  }
  return {
    kind: 'fields',
    statusHeader: state.statusHeader,
    fields: state.fields.map(({ column: _column, ...field }) => field),
    columns: Object.fromEntries(
      state.fields.map((field) => [field.name.trim(), field.column.trim() || field.name.trim()]),
    ),
  };
}

function applySaved(saved: ResearchContextDto['saved']): void {
  if (!saved) return;
  state.template = saved.template;
  state.depth = saved.depth;
  const out = saved.output;
  state.statusHeader = out.statusHeader;
  state.outputKind = out.kind;
  if (out.kind === 'report') {
    state.reportHeader = out.reportHeader;
    state.sourcesMode = out.sourcesHeader === null ? 'note' : 'column';
    if (out.sourcesHeader) state.sourcesHeader = out.sourcesHeader;
  } else if (out.schemaText) {
    state.fieldsMode = 'paste';
    state.schemaText = out.schemaText;
    state.pastedColumns = out.columns ?? {};
  } else if (out.fields) {
    state.fieldsMode = 'builder';
    state.fields = out.fields.map((field) => ({ ...field, column: out.columns?.[field.name] ?? field.name }));
  }
}

async function loadContext(): Promise<void> {
  try {
    const [context, credits] = await Promise.all([server.getResearchContext(), server.getCredits()]);
    const first = state.context === null;
    state.context = context;
    state.credits = credits.availableCredits;
    void refreshCredits(credits.availableCredits);
    if (first) applySaved(context.saved);
  } catch (error) {
    state.notice = { kind: 'error', text: errorText(error) };
  }
  render();
}

// ------------------------------------------------------------------------------------------------ Launch tab

function templateCheck(): { errors: string[]; preview: string | null; note: string | null } {
  const context = state.context;
  if (!context) return { errors: [], preview: null, note: null };
  const parsed = parseTemplate(state.template, context.headers);
  if (!parsed.ok) return { errors: parsed.errors, preview: null, note: null };
  if (!context.firstRow) return { errors: [], preview: null, note: 'Select rows to see a preview' };
  const domains = context.firstRowDomains;
  const rendered = renderBrief(parsed.template, context.firstRow, (column) => domains?.[column - 1] ?? null);
  if (rendered.kind === 'empty')
    return { errors: [], preview: null, note: `Row ${context.rows[0]}: the brief is empty, this row will be skipped` };
  if (rendered.kind === 'too_long')
    return {
      errors: [`Row ${context.rows[0]}: the brief has ${rendered.length} characters; the limit is ${BRIEF_MAX_LENGTH}`],
      preview: null,
      note: null,
    };
  return {
    errors: [],
    preview: rendered.brief,
    note: `${briefLength(rendered.brief)} / ${BRIEF_MAX_LENGTH} characters (row ${context.rows[0]})`,
  };
}

function input(
  value: string,
  onInput: (value: string) => void,
  attributes: Record<string, string> = {},
): HTMLInputElement {
  return h('input', {
    type: 'text',
    value,
    oninput: (event: Event) => onInput((event.target as HTMLInputElement).value),
    ...attributes,
  });
}

function radio(id: string, name: string, checked: boolean, label: string, onChange: () => void): HTMLElement {
  return h(
    'label',
    { class: 'check', for: id },
    h('input', {
      type: 'radio',
      id,
      name,
      checked,
      onchange: () => {
        onChange();
        render();
      },
    }),
    label,
  );
}

function fieldEditor(field: FieldRow, index: number): HTMLElement {
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
  return h(
    'div',
    { class: 'field' },
    // Stacked for the 300 px sidebar: the name gets the whole width, type and remove go underneath.
    input(field.name, renameField, {
      placeholder: 'Field name',
      'aria-label': `Field ${index + 1} name`,
      class: 'field-name',
    }),
    h(
      'div',
      { class: 'row' },
      typeSelect,
      h(
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
      ),
    ),
    field.type === 'enum'
      ? input(
          (field.options ?? []).join(', '),
          (value) => {
            field.options = value.split(',');
            refreshLaunchSummary();
          },
          { placeholder: 'Allowed values, comma separated' },
        )
      : null,
    h(
      'div',
      { class: 'row' },
      h(
        'label',
        { class: 'check' },
        h('input', {
          type: 'checkbox',
          checked: field.required,
          onchange: (e: Event) => {
            field.required = (e.target as HTMLInputElement).checked;
          },
        }),
        'required',
      ),
      h(
        'label',
        { class: 'check' },
        h('input', {
          type: 'checkbox',
          'aria-label': `Field ${index + 1} with evidence`,
          checked: field.evidence,
          onchange: (e: Event) => {
            field.evidence = (e.target as HTMLInputElement).checked;
          },
        }),
        'with evidence',
      ),
    ),
    h('div', { class: 'row' }, h('span', { class: 'muted' }, 'Column'), columnInput),
  );
}

function outputSection(): HTMLElement {
  const parts: Array<HTMLElement | null> = [
    h('h2', {}, 'Output'),
    radio('output-report', 'output', state.outputKind === 'report', 'Report (markdown)', () => {
      state.outputKind = 'report';
    }),
    radio('output-fields', 'output', state.outputKind === 'fields', 'Fields (structured)', () => {
      state.outputKind = 'fields';
    }),
  ];
  if (state.outputKind === 'report') {
    parts.push(
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
      state.sourcesMode === 'column'
        ? input(
            state.sourcesHeader,
            (value) => {
              state.sourcesHeader = value;
              refreshLaunchSummary();
            },
            { id: 'sources-column-name', 'aria-label': 'Sources column' },
          )
        : null,
    );
  } else {
    parts.push(
      radio('fields-builder', 'fields-mode', state.fieldsMode === 'builder', 'Build fields', () => {
        state.fieldsMode = 'builder';
      }),
      radio('fields-paste', 'fields-mode', state.fieldsMode === 'paste', 'Paste a JSON Schema', () => {
        state.fieldsMode = 'paste';
      }),
    );
    if (state.fieldsMode === 'builder') {
      parts.push(
        ...state.fields.map(fieldEditor),
        h(
          'div',
          { class: 'row' },
          h(
            'button',
            {
              type: 'button',
              id: 'add-field',
              onclick: () => {
                const n = state.fields.length + 1;
                state.fields.push({
                  name: `field_${n}`,
                  type: 'string',
                  required: false,
                  evidence: false,
                  column: `field_${n}`,
                });
                render();
              },
            },
            'Add field',
          ),
        ),
      );
    } else {
      const pasted = parsePastedSchema(state.schemaText || '{}');
      parts.push(
        h(
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
        ),
        h('button', { type: 'button', onclick: () => render() }, 'Check schema and map columns'),
        ...(pasted.ok
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
          : []),
      );
    }
  }
  parts.push(
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
  return h('section', {}, ...parts);
}

let summaryBox: HTMLElement | null = null;
let launchButton: HTMLButtonElement | null = null;
let templateBox: HTMLElement | null = null;

/** Problems that block a launch, from the template, the output and the credits. */
function launchProblems(): { errors: string[]; estimate: ReturnType<typeof estimateCredits> | null } {
  const context = state.context;
  const errors = [...templateCheck().errors];
  const resolved = resolveOutput(output());
  if (!resolved.ok) errors.push(...resolved.errors);
  const parsed = context ? parseTemplate(state.template, context.headers) : null;
  if (resolved.ok && parsed?.ok && context)
    errors.push(...outputClashes(resolved.headers, context.headers, parsed.template.columns));
  if (!context || context.rows.length === 0)
    return { errors: [...errors, 'Select the rows to research'], estimate: null };
  const estimate = estimateCredits(state.depth, context.rows.length, state.credits);
  if (!estimate.fits) errors.push(estimateMessage(estimate));
  const guard = context.guard;
  if (guard.left !== null && context.rows.length * reservationFor(state.depth) > guard.left) {
    errors.push(
      `Over this spreadsheet's spending cap: ${context.rows.length} rows reserve ${context.rows.length * reservationFor(state.depth)} credits, ${guard.left} left`,
    );
  }
  return { errors, estimate };
}

function refreshLaunchSummary(): void {
  if (templateBox) {
    const check = templateCheck();
    replaceChildren(
      templateBox,
      ...check.errors.map((error) => h('div', { class: 'inline-error', role: 'alert' }, error)),
      check.preview !== null ? h('div', { class: 'preview', id: 'brief-preview' }, check.preview) : null,
      check.note ? h('div', { class: 'muted' }, check.note) : null,
    );
  }
  if (!summaryBox || !launchButton) return;
  const { errors, estimate } = launchProblems();
  const rows = state.context?.rows.length ?? 0;
  replaceChildren(
    summaryBox,
    estimate
      ? h(
          'div',
          { class: 'muted', id: 'estimate' },
          `${estimateMessage({ ...estimate, fits: true })}. Each task costs 2 credits per agent that runs, at most ${estimate.perRow}; failed tasks are refunded.`,
        )
      : null,
    guardLine(),
    ...errors.map((error) => h('div', { class: 'inline-error' }, error)),
    guardFit(),
  );
  launchButton.disabled = state.busy || errors.length > 0;
  launchButton.textContent = state.busy ? 'Launching…' : `Research ${rows} row${rows === 1 ? '' : 's'}`;
}

async function launch(fitToCap = false): Promise<void> {
  const context = state.context;
  if (!context || state.busy) return;
  state.busy = true;
  refreshLaunchSummary();
  const request = {
    template: state.template,
    depth: state.depth,
    output: output(),
    rerun: state.rerun,
    sheetId: context.sheetId,
    rows: context.rows,
    fitToCap,
  };
  try {
    const response = await server.launchResearch(request);
    const details = [
      ...response.errors.slice(1),
      ...response.failed.map((f) => `Row ${f.row}: ${f.message}`),
      ...response.tooLong.map((t) => `Row ${t.row}: brief of ${t.length} characters is over ${BRIEF_MAX_LENGTH}`),
      ...(response.skippedRunning.length
        ? [`Already running (tick "Re-run" to start again): rows ${response.skippedRunning.join(', ')}`]
        : []),
      ...(response.skippedEmpty.length ? [`Empty brief: rows ${response.skippedEmpty.join(', ')}`] : []),
      ...(response.overCap.length ? [`Left out by the spending cap: rows ${response.overCap.join(', ')}`] : []),
    ];
    const kind = response.ok ? (response.failed.length ? 'warn' : 'ok') : 'error';
    const launchedRows = context.rows.filter(
      (row) => !response.skippedEmpty.includes(row) && !response.skippedRunning.includes(row),
    );
    state.launched = {
      kind,
      text: response.message,
      details,
      sheetId: context.sheetId,
      rows: launchedRows,
      statusHeader: output().statusHeader,
    };
    if (response.ok) {
      void refreshSpentCredits();
      void refreshGuard();
    }
    void pollLoop.pollNow();
  } catch (error) {
    state.launched = {
      kind: 'error',
      text: errorText(error),
      details: [],
      sheetId: context.sheetId,
      rows: [],
      statusHeader: '',
    };
  } finally {
    state.busy = false;
    render();
    document.getElementById('launch-result')?.scrollIntoView({ block: 'nearest' });
  }
}

/** The spending cap's room, when this spreadsheet has a cap. */
function guardLine(): HTMLElement | null {
  const guard = state.context?.guard;
  if (!guard || guard.left === null) return null;
  const caps = [
    guard.cap.daily === null ? null : `${guard.spentToday} of ${guard.cap.daily} today`,
    guard.cap.monthly === null ? null : `${guard.spentThisMonth} of ${guard.cap.monthly} this month`,
  ].filter(Boolean);
  return h(
    'div',
    { class: 'muted', id: 'spending-cap' },
    `Spending cap: ${guard.left} credits left (${caps.join(', ')} spent)`,
  );
}

/** Over the cap: a button that launches only the first rows that fit (the refusal is among the launch problems). */
function guardFit(): HTMLElement | null {
  const guard = state.context?.guard;
  const rows = state.context?.rows.length ?? 0;
  if (!guard || guard.left === null || rows === 0) return null;
  const fit = Math.min(rows, Math.floor(guard.left / reservationFor(state.depth)));
  if (fit >= rows) return null;
  if (fit === 0) return null;
  return h(
    'div',
    { class: 'row', id: 'over-cap' },
    h(
      'button',
      { type: 'button', id: 'launch-fitting', onclick: () => void launch(true) },
      `Launch the first ${fit} row${fit === 1 ? '' : 's'} that fit`,
    ),
  );
}

/** After a launch: the cap's room as the ledger now says. */
async function refreshGuard(): Promise<void> {
  try {
    const guard = await server.getSpendingGuard();
    if (state.context) state.context = { ...state.context, guard };
    refreshLaunchSummary();
  } catch {
    // The next reopening shows it.
  }
}

/** After spending: the badge and the cost line ("of N available") both show the credits left. */
async function refreshSpentCredits(): Promise<void> {
  try {
    const { availableCredits } = await server.getCredits();
    state.credits = availableCredits;
    void refreshCredits(availableCredits);
    refreshLaunchSummary();
  } catch {
    void refreshCredits();
  }
}

/** "Show in sheet": selects the status cells of the launched rows. */
async function showLaunchedRows(): Promise<void> {
  const launched = state.launched;
  if (!launched) return;
  try {
    const result = await server.showResearchRows({
      sheetId: launched.sheetId,
      rows: launched.rows,
      statusHeader: launched.statusHeader,
    });
    if (!result.ok) state.launched = { ...launched, kind: 'error', text: result.message, details: [] };
  } catch (error) {
    state.launched = { ...launched, kind: 'error', text: errorText(error), details: [] };
  }
  render();
}

/** The launch's answer under the button, with "Show in sheet" when rows were launched. */
function launchResult(): HTMLElement | null {
  const launched = state.launched;
  if (!launched) return null;
  return h(
    'div',
    { id: 'launch-result' },
    message(launched.kind, launched.text),
    ...launched.details.map((line) => h('div', { class: 'muted' }, line)),
    launched.rows.length > 0 && launched.kind !== 'error'
      ? h(
          'div',
          { class: 'row' },
          h('button', { type: 'button', id: 'show-in-sheet', onclick: () => void showLaunchedRows() }, 'Show in sheet'),
        )
      : null,
  );
}

function insertPlaceholder(textarea: HTMLTextAreaElement, header: string): void {
  const token = `{${header}}`;
  const start = textarea.selectionStart ?? textarea.value.length;
  const end = textarea.selectionEnd ?? start;
  textarea.value = textarea.value.slice(0, start) + token + textarea.value.slice(end);
  state.template = textarea.value;
  textarea.focus();
  refreshLaunchSummary();
}

function launchTab(): HTMLElement {
  const context = state.context;
  const rows = context?.rows ?? [];
  const rowText =
    rows.length === 0
      ? 'No data rows selected'
      : `${rows.length} row${rows.length === 1 ? '' : 's'} selected on ${context?.sheetName} (${rows[0]}${rows.length > 1 ? `–${rows[rows.length - 1]}` : ''})`;
  const textarea = h(
    'textarea',
    {
      id: 'brief',
      'aria-label': 'Brief',
      oninput: (e: Event) => {
        state.template = (e.target as HTMLTextAreaElement).value;
        refreshLaunchSummary();
      },
    },
    state.template,
  ) as HTMLTextAreaElement;
  templateBox = h('div', { id: 'template-check' });
  summaryBox = h('div', { id: 'launch-summary' });
  launchButton = h(
    'button',
    { class: 'primary', id: 'launch', type: 'button', onclick: () => void launch() },
    'Research',
  );
  const depthSelect = h(
    'select',
    {
      id: 'depth',
      onchange: (e: Event) => {
        state.depth = (e.target as HTMLSelectElement).value as TaskDepth;
        render();
      },
    },
    ...DEPTHS.map((depth) => h('option', { value: depth, selected: depth === state.depth }, depthLabel(depth))),
  );
  const tab = h(
    'section',
    {},
    h(
      'div',
      { class: 'row' },
      h('span', { id: 'selection' }, rowText),
      h('button', { type: 'button', id: 'use-selection', onclick: () => void loadContext() }, 'Use current selection'),
    ),
    h('label', { for: 'brief' }, "Brief: {Header} or {A} inserts the row's value"),
    h(
      'div',
      { class: 'muted', id: 'brief-help' },
      'A domain, URL or e-mail address goes in as its domain (https://www.acme.fr/ → acme.fr); {Header:raw} inserts the cell as it is.',
    ),
    textarea,
    h(
      'div',
      { class: 'chips' },
      ...(context?.headers ?? [])
        .filter((header) => header.trim())
        .slice(0, 20)
        .map((header) =>
          h('button', { type: 'button', onclick: () => insertPlaceholder(textarea, header) }, `{${header}}`),
        ),
    ),
    templateBox,
    h('label', { for: 'depth' }, 'Depth'),
    depthSelect,
    h('div', { class: 'muted', id: 'depth-detail' }, depthDetail(state.depth)),
    outputSection(),
    h(
      'label',
      { class: 'check' },
      h('input', {
        type: 'checkbox',
        id: 'rerun',
        checked: state.rerun,
        onchange: (e: Event) => {
          state.rerun = (e.target as HTMLInputElement).checked;
        },
      }),
      'Re-run rows that already have a running task',
    ),
    summaryBox,
    h('div', { class: 'row' }, launchButton),
    launchResult(),
  );
  refreshLaunchSummary();
  return tab;
}

// ------------------------------------------------------------------------------------------------ Tasks tab

/** One poll (through pollLoop only; a failed one is tried again at the next interval). */
async function fetchStatus(): Promise<void> {
  state.status = await server.pollResearch();
  if (state.tab === 'tasks') render();
}

const pollLoop = createPollLoop({
  poll: fetchStatus,
  setTimer: (run, ms) => setTimeout(run, ms),
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  intervalMs: POLL_MS,
});

/** "Requests today: N of M", and the warning or refusal once 90 % of the daily budget is used. */
function requestBudgetLine(requests: ResearchStatusDto['requests']): HTMLElement {
  return h(
    'div',
    { id: 'request-budget' },
    h(
      'div',
      { class: 'muted' },
      `Requests today: ${requests.used.toLocaleString('en-US')} of ${requests.limit.toLocaleString('en-US')}`,
    ),
    requests.message ? message(requests.spent ? 'error' : 'warn', requests.message) : null,
  );
}

async function loadHistory(page: number): Promise<void> {
  try {
    const result = await server.listResearchHistory(page);
    state.history = result;
  } catch (error) {
    state.history = { page, items: [], hasMore: false, error: errorText(error) };
  }
  render();
}

async function writeToRow(taskId: string, confirmed = { otherCompany: false, taskOutput: false }): Promise<void> {
  try {
    const answer = await server.writeTaskToSelectedRow({ taskId, output: output(), ...confirmed });
    state.written = { taskId, answer, confirmed };
  } catch (error) {
    state.written = { taskId, answer: { ok: false, message: errorText(error), ask: null }, confirmed };
  }
  render();
}

/** The answer of "Write to selected row" in the task's entry: done, refused, or its question with a button. */
function writeAnswer(taskId: string): HTMLElement | null {
  const written = state.written;
  if (!written || written.taskId !== taskId) return null;
  const { answer, confirmed } = written;
  if (!answer.ask) return message(answer.ok ? 'ok' : 'error', answer.message);
  const ask = answer.ask;
  const again = ask.kind === 'company' ? { ...confirmed, otherCompany: true } : { ...confirmed, taskOutput: true };
  return h(
    'div',
    { class: 'message warn', id: 'write-question' },
    ask.question,
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', class: 'primary', onclick: () => void writeToRow(taskId, again) }, ask.confirm),
      h(
        'button',
        {
          type: 'button',
          onclick: () => {
            state.written = null;
            render();
          },
        },
        'Cancel',
      ),
    ),
  );
}

/** "Check again" or "Send anyway" on unconfirmed creates; the answer shows in the notice, the list refreshes. */
async function actOnUnconfirmed(action: 'check' | 'send', entryId: string): Promise<void> {
  state.confirmingSend = null;
  try {
    const result =
      action === 'check'
        ? await server.checkUnconfirmedResearch([entryId])
        : await server.sendUnconfirmedResearchAnyway([entryId]);
    state.notice = { kind: result.ok ? 'ok' : 'error', text: result.message };
    state.status = await server.pollResearch();
  } catch (error) {
    state.notice = { kind: 'error', text: errorText(error) };
  }
  render();
}

/** The actions of a create whose answer was lost: look again, or send it again knowing it may be paid twice. */
function unconfirmedActions(row: ResearchStatusDto['rows'][number]): HTMLElement {
  const cost = state.context?.reservations[row.depth] ?? 0;
  if (state.confirmingSend === row.entryId) {
    return h(
      'div',
      { class: 'message warn' },
      `If the first send did start a task, this pays for a second one: up to ${cost} credits.`,
      h(
        'div',
        { class: 'row' },
        h(
          'button',
          { type: 'button', class: 'primary', onclick: () => void actOnUnconfirmed('send', row.entryId) },
          'Send again',
        ),
        h(
          'button',
          {
            type: 'button',
            onclick: () => {
              state.confirmingSend = null;
              render();
            },
          },
          'Cancel',
        ),
      ),
    );
  }
  return h(
    'div',
    { class: 'row' },
    h('button', { type: 'button', onclick: () => void actOnUnconfirmed('check', row.entryId) }, 'Check again'),
    h(
      'button',
      {
        type: 'button',
        onclick: () => {
          state.confirmingSend = row.entryId;
          render();
        },
      },
      `Send anyway (up to ${cost} credits)`,
    ),
  );
}

async function viewTask(taskId: string): Promise<void> {
  state.tab = 'report';
  state.report = null;
  render();
  try {
    state.report = await server.getTaskReport(taskId);
  } catch (error) {
    state.report = {
      found: false,
      message: errorText(error),
      row: null,
      taskId,
      status: null,
      brief: null,
      report: null,
      error: null,
      detached: false,
    };
  }
  render();
}

/** Ledger records that could not be read: kept in the hidden sheet, named here so nothing is lost silently. */
function damagedNotice(damaged: ResearchStatusDto['damaged']): HTMLElement {
  const tasks = damaged.map((record) => record.taskId || record.entryId || '(no id)').join(', ');
  return h(
    'div',
    { class: 'message error', id: 'damaged-records', role: 'alert' },
    `${damaged.length} research record${damaged.length === 1 ? '' : 's'} could not be read (${tasks}). ` +
      'They are kept unchanged in the hidden sheet "Sheet Scout research ledger"; their rows are not updated.',
  );
}

function tasksTab(): HTMLElement {
  const status = state.status;
  const history = state.history;
  return h(
    'section',
    {},
    h('h2', {}, 'This sheet'),
    status
      ? h(
          'div',
          { class: 'muted', id: 'pending' },
          `${status.pending} task${status.pending === 1 ? '' : 's'} pending${status.busy ? ' (updating…)' : ''}; refreshed every 15 s while this panel is open`,
        )
      : h('div', { class: 'muted' }, 'Loading…'),
    status ? requestBudgetLine(status.requests) : null,
    status && status.damaged.length > 0 ? damagedNotice(status.damaged) : null,
    ...(status?.rows ?? []).map((row) =>
      h(
        'div',
        { class: 'task' },
        h('div', { class: 'brief' }, row.brief),
        h(
          'div',
          { class: 'meta' },
          `${row.detached || row.row === null ? 'row changed or deleted' : `row ${row.row}`} · ${row.status}`,
        ),
        row.progress !== null && row.progress < 1
          ? h(
              'div',
              { class: 'progress', title: 'Research agents finished, out of the most this depth runs' },
              h('div', { style: `width: ${Math.round(row.progress * 100)}%` }),
            )
          : null,
        row.taskId && (row.state === 'done' || row.state === 'failed')
          ? h('button', { type: 'button', onclick: () => void viewTask(row.taskId as string) }, 'View report')
          : null,
        row.state === 'unconfirmed' ? unconfirmedActions(row) : null,
      ),
    ),
    h('h2', {}, 'All tasks of the account'),
    history?.error ? message('error', history.error) : null,
    ...(history?.items ?? []).map((item) =>
      h(
        'div',
        { class: 'task' },
        h('div', { class: 'brief' }, item.brief),
        h(
          'div',
          { class: 'meta' },
          `${item.status.replace('_', ' ')} · ${item.depth} · ${item.iterations} iterations, ${item.agents} agents, ${item.sources} sources${item.status === 'done' ? ` · ${item.cost} credits` : ''} · ${item.createdAt.slice(0, 16).replace('T', ' ')}`,
        ),
        item.failureReason ? h('div', { class: 'inline-error' }, item.failureReason) : null,
        item.status === 'done'
          ? h(
              'div',
              { class: 'row' },
              h('button', { type: 'button', onclick: () => void viewTask(item.id) }, 'View report'),
              h('button', { type: 'button', onclick: () => void writeToRow(item.id) }, 'Write to selected row'),
            )
          : null,
        writeAnswer(item.id),
      ),
    ),
    h(
      'div',
      { class: 'row' },
      history && history.page > 0
        ? h('button', { type: 'button', onclick: () => void loadHistory(history.page - 1) }, 'Newer')
        : null,
      history?.hasMore
        ? h('button', { type: 'button', onclick: () => void loadHistory(history.page + 1) }, 'Older')
        : null,
      h('button', { type: 'button', onclick: () => void loadHistory(history?.page ?? 0) }, 'Refresh'),
    ),
  );
}

// ------------------------------------------------------------------------------------------------ Report tab

async function loadSelectedReport(): Promise<void> {
  try {
    state.report = await server.getSelectedRowReport();
  } catch (error) {
    state.report = { ...NO_REPORT, message: errorText(error) };
  }
  render();
}

function reportBody(report: TaskReport): HTMLElement {
  if (report.kind === 'markdown') {
    const article = h('article', { class: 'report', id: 'report-html' });
    article.innerHTML = renderMarkdown(
      report.sources.length ? withoutSourceList(report.markdown) : report.markdown,
      report.sources,
    );
    const sources = h(
      'ol',
      { class: 'sources', id: 'report-sources' },
      ...report.sources.map((source) => {
        const url = safeUrl(source.url);
        return h(
          'li',
          { value: String(source.id) },
          url ? h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, url) : String(source.url),
        );
      }),
    );
    return h(
      'div',
      {},
      article,
      report.sources.length ? h('h2', {}, 'Sources') : null,
      report.sources.length ? sources : null,
    );
  }
  return h(
    'table',
    { id: 'report-fields' },
    ...Object.entries(report.fields).map(([name, value]) => {
      const shown = isEvidenced(value) ? value.value : value;
      const text = Array.isArray(shown)
        ? shown.join(', ')
        : typeof shown === 'object' && shown !== null
          ? JSON.stringify(shown)
          : String(shown ?? '');
      return h(
        'tr',
        {},
        h('th', {}, name),
        h(
          'td',
          {},
          text,
          isEvidenced(value)
            ? h(
                'div',
                { class: 'muted' },
                value.reasoning,
                ...value.sources.map((url) => {
                  const safe = safeUrl(url);
                  return safe
                    ? h(
                        'div',
                        { class: 'sources' },
                        h('a', { href: safe, target: '_blank', rel: 'noopener noreferrer' }, safe),
                      )
                    : null;
                }),
              )
            : null,
        ),
      );
    }),
  );
}

function reportTab(): HTMLElement {
  const dto = state.report;
  const parts: Array<HTMLElement | null> = [
    h(
      'div',
      { class: 'row' },
      h(
        'button',
        { type: 'button', id: 'show-selected', onclick: () => void loadSelectedReport() },
        "Show the selected row's report",
      ),
    ),
  ];
  if (!dto) parts.push(h('div', { class: 'muted' }, 'Loading…'));
  else if (!dto.found) parts.push(h('div', { class: 'muted' }, dto.message ?? 'No report'));
  else {
    parts.push(
      h(
        'div',
        { class: 'muted' },
        `${dto.row ? `Row ${dto.row}` : 'Task'} · ${dto.status ?? ''}${dto.detached ? ' · row changed or deleted since launch' : ''}`,
      ),
      dto.brief ? h('div', { class: 'preview' }, dto.brief) : null,
      dto.error ? message('error', dto.error) : null,
      dto.report ? reportBody(dto.report) : dto.error ? null : h('div', { class: 'muted' }, 'No report yet'),
    );
  }
  return h('section', {}, ...parts);
}

// ------------------------------------------------------------------------------------------------ Shell

function render(): void {
  const tabs = h(
    'div',
    { class: 'tabs', role: 'tablist' },
    ...(['launch', 'tasks', 'report'] as const).map((tab) =>
      h(
        'button',
        {
          type: 'button',
          role: 'tab',
          id: `tab-${tab}`,
          class: state.tab === tab ? 'active' : undefined,
          onclick: () => selectTab(tab),
        },
        tab === 'launch' ? 'Launch' : tab === 'tasks' ? 'Tasks' : 'Report',
      ),
    ),
  );
  const notice = state.notice
    ? h(
        'div',
        { id: 'notice' },
        message(state.notice.kind, state.notice.text),
        ...(state.notice.details ?? []).map((line) => h('div', { class: 'muted' }, line)),
      )
    : null;
  const content = state.tab === 'launch' ? launchTab() : state.tab === 'tasks' ? tasksTab() : reportTab();
  replaceChildren(body, tabs, notice, content);
}

function selectTab(tab: PanelState['tab']): void {
  state.tab = tab;
  state.notice = null;
  render();
  if (tab === 'tasks') {
    void pollLoop.pollNow();
    if (!state.history) void loadHistory(0);
  }
  if (tab === 'report') void loadSelectedReport();
}

export function mountResearchPanel(element: HTMLElement): void {
  root = element;
  body = h('div', {});
  replaceChildren(root, panelHeader('Research'), body);
  render();
  void loadContext();
  void pollLoop.pollNow();
}
