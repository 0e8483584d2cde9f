// The mapping dialog's "Push to table" panel: the table (ID, URL or one this spreadsheet pushed to), the keys already
// in it, where the new columns go (end, beginning, after a column), and the push, with its confirmation when the same
// columns were pushed before. Which table keys come before and after the new columns feeds the dialog's validation. A
// push the dialog already marks as a problem (its own check, or the service's refusal of this same push) is not sent:
// the marked field is named and brought into view.
import { SANDBOX_HINTS } from '../../src/account/contract';
import { server } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import { refreshCredits } from '../ui/credits-badge';
import { placeColumns, positionContext, readDeclaredKeys, readPosition, readTableId } from '../../src/tables/contract';
import type { Position, PushResponse, TablesState, ValidationContext } from '../../src/tables/contract';
import type { ColumnRecord } from '../../src/api/types';
import type { DialogHost } from './host';

export class PushPanel {
  private readonly tableInput = h('input', {
    type: 'text',
    id: 'tables-table',
    'aria-label': 'Table',
    list: 'known-tables',
    placeholder: 'Table ID or URL (.../tables/<id>)',
    oninput: () => this.refreshAfterOptions(),
  });
  private readonly knownTables = h('datalist', { id: 'known-tables' });
  private readonly tableKeys = h('input', {
    type: 'text',
    id: 'tables-keys',
    'aria-label': 'Keys already in the table',
    placeholder: 'e.g. company_name, company_website',
    oninput: () => this.host.refreshValidation(),
  });
  private readonly atEnd = this.radio('end', 'At the end', true);
  private readonly atBeginning = this.radio('beginning', 'At the beginning');
  private readonly atAfter = this.radio('after', 'After column:');
  private readonly afterSelect = h('select', {
    id: 'tables-after',
    'aria-label': 'Insert after column',
    onchange: () => (this.showAfterControls(), this.host.refreshValidation()),
  });
  private readonly afterOther = h('input', {
    type: 'text',
    id: 'tables-after-other',
    'aria-label': 'Column ID to insert after',
    placeholder: 'Column ID',
    oninput: () => this.host.refreshValidation(),
  });
  readonly button = h(
    'button',
    { type: 'button', id: 'tables-push', class: 'primary', onclick: () => this.push(false) },
    'Push to table',
  );
  private readonly result = h('div', { id: 'tables-push-result' });
  /** The last push the service refused, as sent (without the confirmation): sent again unchanged, it would be too. */
  private refused: string | null = null;

  constructor(private readonly host: DialogHost) {}

  element(state: TablesState): HTMLElement {
    for (const table of state.tables) this.knownTables.appendChild(h('option', { value: table.id }));
    if (state.tables[0]) this.tableInput.value = state.tables[0].id;
    return h(
      'div',
      { class: 'panel' },
      h('h2', {}, 'Push to table'),
      h('label', {}, 'Table'),
      this.tableInput,
      this.knownTables,
      state.localSandbox ? h('p', { class: 'muted', id: 'sandbox-tables' }, SANDBOX_HINTS.table) : null,
      h('label', {}, 'Keys already in the table (optional)'),
      this.tableKeys,
      h(
        'p',
        { class: 'muted' },
        "Known: the columns this spreadsheet pushed, and a company table's built-in company_name, company_website and company_profile. List other keys the table has that your prompts use.",
      ),
      h('label', {}, 'Position'),
      this.atEnd.element,
      this.atBeginning.element,
      this.atAfter.element,
      this.afterSelect,
      this.afterOther,
      h('div', { class: 'row' }, this.button),
      this.result,
    );
  }

  private radio(value: Position['at'], label: string, checked = false) {
    const input = h('input', {
      type: 'radio',
      name: 'position',
      value,
      onchange: () => (this.showAfterControls(), this.host.refreshValidation()),
    });
    input.checked = checked;
    return { input, element: h('label', { class: 'radio' }, input, label) };
  }

  private showAfterControls(): void {
    this.afterSelect.hidden = !this.atAfter.input.checked;
    this.afterOther.hidden = !this.atAfter.input.checked || this.afterSelect.value !== '';
  }

  private selectedPosition(): { ok: true; position: Position } | { ok: false; message: string } {
    if (this.atBeginning.input.checked) return readPosition({ at: 'beginning' });
    if (this.atAfter.input.checked)
      return readPosition({ at: 'after', columnId: this.afterSelect.value || this.afterOther.value });
    return readPosition({ at: 'end' });
  }

  private knownTable() {
    const id = readTableId(this.tableInput.value);
    return id.ok ? this.host.model.state.tables.find((table) => table.id === id.id) : undefined;
  }

  /** Which table keys come before and after the new columns, for the target and position chosen now. */
  validationContext(): ValidationContext {
    const position = this.selectedPosition();
    return positionContext(
      this.knownTable(),
      position.ok ? position.position : { at: 'end' },
      readDeclaredKeys(this.tableKeys.value),
    );
  }

  /** The "after column" choices of the table chosen now (its known columns, then "Other column ID..."). */
  refreshAfterOptions(): void {
    const { afterSelect } = this;
    const table = this.knownTable();
    const current = afterSelect.value;
    replaceChildren(afterSelect);
    for (const column of table?.columns ?? [])
      afterSelect.appendChild(h('option', { value: column.id }, `${column.name} {${column.key}} (${column.id})`));
    afterSelect.appendChild(h('option', { value: '' }, 'Other column ID...'));
    afterSelect.value =
      current !== '' && Array.from(afterSelect.options).some((option) => option.value === current)
        ? current
        : afterSelect.options[0].value;
    this.showAfterControls();
    this.host.refreshValidation();
  }

  private push(confirmRepeat: boolean): void {
    const { model } = this.host;
    const position = this.selectedPosition();
    const request = {
      sheetId: model.state.sheetId,
      drafts: model.drafts,
      table: this.tableInput.value,
      tableKeys: this.tableKeys.value,
      position: position.ok ? position.position : { at: 'after', columnId: '' },
      confirmRepeat,
    };
    const sent = JSON.stringify({ ...request, confirmRepeat: undefined });
    const refusedAgain = this.refused === sent ? this.host.model.serverIssues : [];
    const marked = [...this.host.markedErrors(), ...refusedAgain.filter((issue) => issue.severity === 'error')];
    if (marked.length > 0) {
      const first = marked[0];
      replaceChildren(
        this.result,
        message(
          'error',
          `Nothing was sent: ${marked.length === 1 ? 'a marked field needs' : `${marked.length} marked fields need`} ` +
            `fixing first (${first.message}).`,
        ),
      );
      return this.host.revealMarked(marked);
    }
    this.host.call(server.pushTablesColumns(request), this.result, (answer: PushResponse) => {
      this.host.adopt(answer);
      // As the dialog now holds it (the server's drafts): the same push again is this one.
      const held = JSON.stringify({ ...request, drafts: this.host.model.drafts, confirmRepeat: undefined });
      this.refused = answer.status === 'failed' || answer.status === 'invalid' ? held : null;
      this.showAnswer(answer, request.position as Position);
    });
  }

  private showAnswer(answer: PushResponse, position: Position): void {
    const result = this.result;
    if (answer.status === 'created') {
      this.rememberPush(answer.tableId, answer.columns, position);
      const count = answer.columns.length;
      replaceChildren(
        result,
        message('ok', `Created ${count} column${count === 1 ? '' : 's'} in table ${answer.tableId}.`),
        recordsTable(answer.columns),
      );
      void refreshCredits();
    } else if (answer.status === 'confirm') {
      replaceChildren(
        result,
        message('warn', answer.message),
        h('div', { class: 'row' }, h('button', { type: 'button', onclick: () => this.push(true) }, 'Push anyway')),
      );
    } else {
      replaceChildren(
        result,
        message(answer.status === 'failed' && answer.ambiguous ? 'warn' : 'error', answer.message),
      );
    }
    // The answer (a question to confirm, above all) shows where the user is looking, not below the fold, and so does
    // the field a refusal marks (the rows scroll on their own).
    result.scrollIntoView({ block: 'nearest' });
    if (answer.status === 'failed' || answer.status === 'invalid') this.host.revealMarked(answer.issues);
  }

  /** Mirrors the server's record of the table's columns so "after column" offers the new ones at once. */
  private rememberPush(tableId: string, columns: ColumnRecord[], position: Position): void {
    const created = columns.map((record) => ({
      id: record.id,
      key: String(record.config?.key ?? ''),
      name: String(record.config?.name ?? ''),
      kind: String(record.config?.kind ?? ''),
    }));
    const { state } = this.host.model;
    const existing = state.tables.find((table) => table.id === tableId);
    const placed = placeColumns(existing?.columns ?? [], created, position);
    state.tables = [
      { id: tableId, columns: placed, updatedAt: Date.now() },
      ...state.tables.filter((table) => table.id !== tableId),
    ];
    if (!existing) this.knownTables.appendChild(h('option', { value: tableId }));
    this.refreshAfterOptions();
  }
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
