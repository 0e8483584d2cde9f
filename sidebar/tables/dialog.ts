// The mapping dialog: loads the sheet's mapping, keeps the drafts, re-validates on every edit (the same checks the
// server runs), and drives the three actions: save the mapping, push to a table, save as a template. Server
// answers replace the drafts (aligned with the sheet as it is now) and pin their issues onto the rows.
import { GASClient } from 'gas-client';
import { server, errorText } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import type { ColumnDraft } from '../../src/tables/contract';
import { renameReference } from '../../src/tables/contract';
import { validateMapping, type MappingIssue } from '../../src/tables/contract';
import { placeColumns, positionContext, readDeclaredKeys } from '../../src/tables/contract';
import { readPosition, readTableId, type Position } from '../../src/tables/contract';
import type { TablesState, PushResponse, TemplateResponse } from '../../src/tables/contract';
import type { ColumnRecord, Template } from '../../src/api/types';
import { renderRow, type RowView } from './row-view';
import { creditsBadge, refreshCredits } from '../ui/credits-badge';

const AUTOSAVE_MS = 1500;

interface Model {
  state: TablesState;
  drafts: ColumnDraft[];
  letters: string[];
  /** Issues from the last server answer; cleared by the next edit. */
  serverIssues: MappingIssue[];
}

export function startTablesDialog(root: HTMLElement): void {
  replaceChildren(root, h('p', { class: 'muted', style: 'padding: 14px' }, 'Reading the header row...'));
  server
    .getTablesState()
    .then((state) => mount(root, state))
    .catch((error: unknown) => replaceChildren(root, message('error', errorText(error))));
}

function mount(root: HTMLElement, state: TablesState): void {
  const model: Model = { state, drafts: state.drafts, letters: state.letters, serverIssues: [] };
  const rowsBox = h('div', { class: 'tables-rows' });
  const topStatus = h('div', { class: 'muted', id: 'tables-summary' });
  const notices = h('div', { class: 'tables-notices' });
  const generalIssues = h('div', { class: 'tables-notices' });
  const saveStatus = h(
    'span',
    { class: 'muted', id: 'tables-save-status', role: 'status' },
    state.saved ? 'Saved mapping loaded' : 'New mapping',
  );
  const saveButton = h(
    'button',
    { type: 'button', id: 'tables-save', onclick: () => ((dirty = true), saveNow()) },
    'Save mapping',
  );
  const closeButton = h(
    'button',
    { type: 'button', id: 'tables-close', onclick: () => new GASClient().scriptHostFunctions.close() },
    'Close',
  );
  const includeAll = (include: boolean): void => {
    model.drafts.forEach((draft) => (draft.include = include));
    model.serverIssues = [];
    rebuildRows();
    scheduleSave();
  };
  const includeAllButton = h(
    'button',
    { type: 'button', id: 'tables-include-all', onclick: () => includeAll(true) },
    'Include all',
  );
  const includeNoneButton = h(
    'button',
    { type: 'button', id: 'tables-include-none', onclick: () => includeAll(false) },
    'Include none',
  );
  let views: RowView[] = [];

  // --- Push panel ---
  const tableInput = h('input', {
    type: 'text',
    id: 'tables-table',
    'aria-label': 'Table',
    list: 'known-tables',
    placeholder: 'Table ID or URL (.../tables/<id>)',
    oninput: () => refreshAfterOptions(),
  });
  const knownTables = h(
    'datalist',
    { id: 'known-tables' },
    ...state.tables.map((table) => h('option', { value: table.id })),
  );
  if (state.tables[0]) tableInput.value = state.tables[0].id;
  const tableKeys = h('input', {
    type: 'text',
    id: 'tables-keys',
    'aria-label': 'Keys already in the table',
    placeholder: 'e.g. company_name, company_website',
    oninput: () => refreshValidation(),
  });
  const positionName = 'position';
  const radio = (value: Position['at'], label: string, checked = false) => {
    const input = h('input', {
      type: 'radio',
      name: positionName,
      value,
      onchange: () => (showAfterControls(), refreshValidation()),
    });
    input.checked = checked;
    return { input, element: h('label', { class: 'radio' }, input, label) };
  };
  const atEnd = radio('end', 'At the end', true);
  const atBeginning = radio('beginning', 'At the beginning');
  const atAfter = radio('after', 'After column:');
  const showAfterControls = () => {
    afterSelect.hidden = !atAfter.input.checked;
    afterOther.hidden = !atAfter.input.checked || afterSelect.value !== '';
  };
  const afterSelect = h('select', {
    id: 'tables-after',
    'aria-label': 'Insert after column',
    onchange: () => (showAfterControls(), refreshValidation()),
  });
  const afterOther = h('input', {
    type: 'text',
    id: 'tables-after-other',
    'aria-label': 'Column ID to insert after',
    placeholder: 'Column ID',
    oninput: () => refreshValidation(),
  });
  const pushButton = h(
    'button',
    { type: 'button', id: 'tables-push', class: 'primary', onclick: () => pushColumns(false) },
    'Push to table',
  );
  const pushResult = h('div', { id: 'tables-push-result' });

  // --- Template panel ---
  const templateInput = h('input', {
    type: 'text',
    id: 'tables-template',
    'aria-label': 'Template',
    list: 'known-templates',
    placeholder: 'Template ID or URL (.../templates/<id>)',
  });
  const knownTemplates = h(
    'datalist',
    { id: 'known-templates' },
    ...state.templates.map((template) => h('option', { value: template.id }, template.name)),
  );
  const templateName = h('input', {
    type: 'text',
    id: 'tables-template-name',
    'aria-label': 'Template name',
    placeholder: 'Leave empty to keep the current name',
  });
  const templateButton = h(
    'button',
    { type: 'button', id: 'tables-template-save', onclick: () => saveAsTemplate(false) },
    'Save as template',
  );
  const templateResult = h('div', { id: 'tables-template-result' });

  const side = h(
    'div',
    { class: 'tables-side' },
    h(
      'div',
      { class: 'panel' },
      h('h2', {}, 'Push to table'),
      h('label', {}, 'Table'),
      tableInput,
      knownTables,
      h('label', {}, 'Keys already in the table (optional)'),
      tableKeys,
      h(
        'p',
        { class: 'muted' },
        'Columns this spreadsheet pushed are known; list other existing keys your prompts use (company tables have company_name, company_website, company_profile).',
      ),
      h('label', {}, 'Position'),
      atEnd.element,
      atBeginning.element,
      atAfter.element,
      afterSelect,
      afterOther,
      h('div', { class: 'row' }, pushButton),
      pushResult,
    ),
    h(
      'div',
      { class: 'panel' },
      h('h2', {}, 'Save as template'),
      h('p', { class: 'muted' }, "Replaces the template's column list with the included columns (you confirm first)."),
      h('label', {}, 'Template'),
      templateInput,
      knownTemplates,
      h('label', {}, 'Template name'),
      templateName,
      h('div', { class: 'row' }, templateButton),
      templateResult,
    ),
  );
  replaceChildren(
    root,
    h(
      'div',
      { class: 'tables-top' },
      h('strong', {}, `Sheet "${state.sheetName}"`),
      topStatus,
      includeAllButton,
      includeNoneButton,
      saveStatus,
      saveButton,
      creditsBadge(),
      closeButton,
    ),
    notices,
    generalIssues,
    h('div', { class: 'tables-body' }, rowsBox, side),
  );
  for (const pending of state.pending) {
    notices.appendChild(
      message(
        'warn',
        `A push to table ${pending.tableId} (${new Date(pending.startedAt).toLocaleString()}) got no clear answer: its columns may already be in the table. Check the table before pushing the same columns again.`,
      ),
    );
  }

  function selectedPosition(): { ok: true; position: Position } | { ok: false; message: string } {
    if (atBeginning.input.checked) return readPosition({ at: 'beginning' });
    if (atAfter.input.checked) return readPosition({ at: 'after', columnId: afterSelect.value || afterOther.value });
    return readPosition({ at: 'end' });
  }

  function knownTable() {
    const id = readTableId(tableInput.value);
    return id.ok ? model.state.tables.find((table) => table.id === id.id) : undefined;
  }

  /** Which table keys come before and after the new columns, for the target and position chosen now. */
  function validationContext() {
    const position = selectedPosition();
    return positionContext(
      knownTable(),
      position.ok ? position.position : { at: 'end' },
      readDeclaredKeys(tableKeys.value),
    );
  }

  function refreshAfterOptions(): void {
    const table = knownTable();
    const current = afterSelect.value;
    replaceChildren(afterSelect);
    for (const column of table?.columns ?? [])
      afterSelect.appendChild(h('option', { value: column.id }, `${column.name} {${column.key}} (${column.id})`));
    afterSelect.appendChild(h('option', { value: '' }, 'Other column ID...'));
    afterSelect.value =
      current !== '' && Array.from(afterSelect.options).some((option) => option.value === current)
        ? current
        : afterSelect.options[0].value;
    showAfterControls();
    refreshValidation();
  }

  function rebuildRows(): void {
    views = model.drafts.map((_draft, row) => renderRow(rowContext, row));
    replaceChildren(
      rowsBox,
      ...(views.length
        ? views.map((view) => view.element)
        : [message('warn', 'Row 1 of this sheet has no headers: add column names in row 1, then reopen the dialog.')]),
    );
    refreshValidation();
  }

  function refreshValidation(): void {
    const context = validationContext();
    const seen = new Set<string>();
    const issues = [...validateMapping(model.drafts, context), ...model.serverIssues].filter((issue) => {
      const id = `${issue.row}|${issue.field}|${issue.message}`;
      return seen.has(id) ? false : (seen.add(id), true);
    });
    views.forEach((view, row) => view.showIssues(issues.filter((issue) => issue.row === row)));
    const general = issues.filter((issue) => issue.row === null);
    replaceChildren(
      generalIssues,
      ...general.map((issue) => message(issue.severity === 'error' ? 'error' : 'warn', issue.message)),
    );
    const included = model.drafts.filter((draft) => draft.include).length;
    const errors = issues.filter((issue) => issue.severity === 'error').length;
    topStatus.textContent = `${included} of ${model.drafts.length} columns included${errors ? `, ${errors} problem${errors === 1 ? '' : 's'} to fix` : ''}${model.state.missing.length ? `. Kept settings of columns not in the sheet: ${model.state.missing.join(', ')}` : ''}`;
  }

  const rowContext = {
    tableKeys() {
      return validationContext().existingBefore ?? [];
    },
    get drafts() {
      return model.drafts;
    },
    get letters() {
      return model.letters;
    },
    changed(row: number, rebuild: boolean) {
      model.serverIssues = [];
      scheduleSave();
      if (rebuild) {
        // Other cards list this column as a reference: rebuild them all so their pickers stay current.
        rebuildRows();
        const card = rowsBox.querySelector(`[data-row="${row}"] select, [data-row="${row}"] input`);
        if (card instanceof HTMLElement) card.focus();
      } else refreshValidation();
    },
    keyRenamed(row: number, from: string, to: string) {
      let touched = false;
      model.drafts.forEach((draft, index) => {
        if (index === row) return;
        const prompt = renameReference(draft.agent.prompt, from, to);
        if (prompt !== draft.agent.prompt) {
          draft.agent.prompt = prompt;
          touched = true;
        }
        if (draft.emailColumnKey === from) {
          draft.emailColumnKey = to;
          touched = true;
        }
      });
      if (touched) rebuildRows();
      scheduleSave();
    },
  };

  // The mapping is saved with the document a moment after each edit (and by every push or template save).
  let dirty = false;
  let saveTimer: number | undefined;
  function scheduleSave(): void {
    dirty = true;
    saveStatus.textContent = 'Unsaved changes';
    window.clearTimeout(saveTimer);
    saveTimer = window.setTimeout(saveNow, AUTOSAVE_MS);
  }
  function saveNow(): void {
    window.clearTimeout(saveTimer);
    if (!dirty) return;
    dirty = false;
    saveStatus.textContent = 'Saving...';
    server
      .saveTablesMapping({ sheetId: model.state.sheetId, drafts: model.drafts })
      .then((answer) => {
        saveStatus.textContent = answer.saveError ?? (dirty ? 'Unsaved changes' : 'All changes saved');
      })
      .catch((error: unknown) => {
        dirty = true;
        saveStatus.textContent = `Not saved: ${errorText(error)}`;
      });
  }
  window.addEventListener('pagehide', saveNow);
  /** A push or template save also saved the mapping on the server. */
  function savedByServer(saveError: string | null): void {
    window.clearTimeout(saveTimer);
    dirty = false;
    saveStatus.textContent = saveError ?? 'All changes saved';
  }

  function setBusy(busy: boolean): void {
    for (const button of [saveButton, pushButton, templateButton]) button.disabled = busy;
  }

  function adopt(answer: {
    drafts: ColumnDraft[];
    letters: string[];
    issues?: MappingIssue[];
    saveError: string | null;
  }): void {
    model.drafts = answer.drafts;
    model.letters = answer.letters;
    model.serverIssues = answer.issues ?? [];
    rebuildRows();
    savedByServer(answer.saveError);
  }

  function call<T>(promise: Promise<T>, into: HTMLElement, done: (answer: T) => void): void {
    setBusy(true);
    replaceChildren(into, h('p', { class: 'muted' }, 'Working...'));
    promise
      .then((answer) => {
        replaceChildren(into);
        done(answer);
      })
      .catch((error: unknown) => replaceChildren(into, message('error', errorText(error))))
      .finally(() => setBusy(false));
  }

  function pushColumns(confirmRepeat: boolean): void {
    const position = selectedPosition();
    const request = {
      sheetId: model.state.sheetId,
      drafts: model.drafts,
      table: tableInput.value,
      tableKeys: tableKeys.value,
      position: position.ok ? position.position : { at: 'after', columnId: '' },
      confirmRepeat,
    };
    call(server.pushTablesColumns(request), pushResult, (answer: PushResponse) => {
      adopt(answer);
      if (answer.status === 'created') {
        rememberPush(answer.tableId, answer.columns, request.position as Position);
        replaceChildren(
          pushResult,
          message(
            'ok',
            `Created ${answer.columns.length} column${answer.columns.length === 1 ? '' : 's'} in table ${answer.tableId}.`,
          ),
          recordsTable(answer.columns),
        );
        void refreshCredits();
      } else if (answer.status === 'confirm') {
        replaceChildren(
          pushResult,
          message('warn', answer.message),
          h('div', { class: 'row' }, h('button', { type: 'button', onclick: () => pushColumns(true) }, 'Push anyway')),
        );
      } else {
        replaceChildren(
          pushResult,
          message(answer.status === 'failed' && answer.ambiguous ? 'warn' : 'error', answer.message),
        );
      }
    });
  }

  /** Mirrors the server's record of the table's columns so "after column" offers the new ones at once. */
  function rememberPush(tableId: string, columns: ColumnRecord[], position: Position): void {
    const created = columns.map((record) => ({
      id: record.id,
      key: String(record.config?.key ?? ''),
      name: String(record.config?.name ?? ''),
      kind: String(record.config?.kind ?? ''),
    }));
    const existing = model.state.tables.find((table) => table.id === tableId);
    const placed = placeColumns(existing?.columns ?? [], created, position);
    model.state.tables = [
      { id: tableId, columns: placed, updatedAt: Date.now() },
      ...model.state.tables.filter((table) => table.id !== tableId),
    ];
    if (!existing) knownTables.appendChild(h('option', { value: tableId }));
    refreshAfterOptions();
  }

  function saveAsTemplate(confirmReplace: boolean): void {
    const request = {
      sheetId: model.state.sheetId,
      drafts: model.drafts,
      template: templateInput.value,
      name: templateName.value,
      confirmReplace,
    };
    call(server.saveTablesTemplate(request), templateResult, (answer: TemplateResponse) => {
      adopt(answer);
      if (answer.status === 'saved') {
        const count = answer.template.column_configs.length;
        replaceChildren(
          templateResult,
          message('ok', `Template "${answer.template.name}" now has ${count} column${count === 1 ? '' : 's'}.`),
          templateTable(answer.template),
        );
      } else if (answer.status === 'confirm') {
        const replace = h(
          'button',
          { type: 'button', id: 'tables-template-confirm', class: 'primary', onclick: () => saveAsTemplate(true) },
          'Replace',
        );
        const cancel = h('button', { type: 'button', onclick: () => replaceChildren(templateResult) }, 'Cancel');
        replaceChildren(templateResult, message('warn', answer.message), h('div', { class: 'row' }, replace, cancel));
      } else replaceChildren(templateResult, message('error', answer.message));
    });
  }

  refreshAfterOptions();
  rebuildRows();
}

function recordsTable(columns: ColumnRecord[]): HTMLElement {
  return h(
    'ul',
    { class: 'records', 'aria-label': 'Created columns' },
    ...columns.map((record) => {
      const key = String(record.config?.key ?? '');
      return h(
        'li',
        { 'data-column-id': record.id, 'data-key': key },
        h('strong', {}, String(record.config?.name ?? '')),
        ' ',
        h('span', { class: 'muted' }, `{${key}} ${String(record.config?.kind ?? '')}`),
        h('code', {}, record.id),
      );
    }),
  );
}

function templateTable(template: Template): HTMLElement {
  return h(
    'table',
    { class: 'records' },
    h('caption', { class: 'muted' }, `Template ${template.id}`),
    h('thead', {}, h('tr', {}, h('th', {}, 'Name'), h('th', {}, 'Key'), h('th', {}, 'Kind'))),
    h(
      'tbody',
      {},
      ...template.column_configs.map((config) =>
        h(
          'tr',
          {},
          h('td', {}, String(config.name ?? '')),
          h('td', {}, String(config.key ?? '')),
          h('td', {}, String(config.kind ?? '')),
        ),
      ),
    ),
  );
}
