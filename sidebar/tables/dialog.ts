// The mapping dialog: loads the sheet's mapping, keeps the drafts, re-validates on every edit (the same checks the
// server runs), and drives the three actions: save the mapping (autosave.ts), push to a table (push-panel.ts), save
// as a template (template-panel.ts). Server answers replace the drafts (aligned with the sheet as it is now) and pin
// their issues onto the rows.
import { host, server, errorText } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import { isRefusal, renameReference, validateMapping } from '../../src/tables/contract';
import type { MappingIssue, TablesRefusal, TablesState } from '../../src/tables/contract';
import { renderRow, type RowView } from './row-view';
import type { RowContext } from './kind-editors';
import { creditsBadge, refreshCredits } from '../ui/credits-badge';
import type { DialogHost, MappingAnswer, Model } from './host';
import { Autosave } from './autosave';
import { PushPanel } from './push-panel';
import { TemplatePanel } from './template-panel';

export function startTablesDialog(root: HTMLElement): void {
  replaceChildren(root, h('p', { class: 'muted', style: 'padding: 14px' }, 'Reading the header row...'));
  server
    .getTablesState()
    .then((state) =>
      isRefusal(state) ? replaceChildren(root, message('error', state.message)) : new MappingDialog(state).mount(root),
    )
    .catch((error: unknown) => replaceChildren(root, message('error', errorText(error))));
}

class MappingDialog implements DialogHost, RowContext {
  readonly model: Model;
  private views: RowView[] = [];
  private readonly rowsBox = h('div', { class: 'tables-rows' });
  private readonly topStatus = h('div', { class: 'muted', id: 'tables-summary' });
  private readonly generalIssues = h('div', { class: 'tables-notices' });
  private readonly autosave: Autosave;
  private readonly saveButton = h(
    'button',
    { type: 'button', id: 'tables-save', onclick: () => this.autosave.saveAnyway() },
    'Save mapping',
  );
  private readonly push = new PushPanel(this);
  private readonly template = new TemplatePanel(this);

  constructor(state: TablesState) {
    this.model = { state, drafts: state.drafts, letters: state.letters, serverIssues: [] };
    this.autosave = new Autosave(this.model, state.saved);
  }

  mount(root: HTMLElement): void {
    const { state } = this.model;
    const side = h('div', { class: 'tables-side' }, this.push.element(state), this.template.element(state));
    replaceChildren(
      root,
      this.topBar(),
      this.pendingNotices(),
      this.generalIssues,
      h('div', { class: 'tables-body' }, this.rowsBox, side),
    );
    this.push.refreshAfterOptions();
    this.rebuildRows();
    void refreshCredits();
  }

  private topBar(): HTMLElement {
    const button = (id: string, label: string, onclick: () => void) =>
      h('button', { type: 'button', id, onclick }, label);
    return h(
      'div',
      { class: 'tables-top' },
      h('strong', {}, `Sheet "${this.model.state.sheetName}"`),
      this.topStatus,
      button('tables-include-all', 'Include all', () => this.includeAll(true)),
      button('tables-include-none', 'Include none', () => this.includeAll(false)),
      this.autosave.status,
      this.saveButton,
      creditsBadge(),
      button('tables-close', 'Close', () => host.close()),
    );
  }

  /** Pushes whose answer was lost: their columns may already be in the table. */
  private pendingNotices(): HTMLElement {
    return h(
      'div',
      { class: 'tables-notices' },
      ...this.model.state.pending.map((pending) =>
        message(
          'warn',
          `A push to table ${pending.tableId} (${new Date(pending.startedAt).toLocaleString()}) got no clear answer: its columns may already be in the table. Check the table before pushing the same columns again.`,
        ),
      ),
    );
  }

  private includeAll(include: boolean): void {
    this.model.drafts.forEach((draft) => (draft.include = include));
    this.model.serverIssues = [];
    this.rebuildRows();
    this.autosave.schedule();
  }

  private rebuildRows(): void {
    this.views = this.model.drafts.map((_draft, row) => renderRow(this, row));
    replaceChildren(
      this.rowsBox,
      ...(this.views.length
        ? this.views.map((view) => view.element)
        : [message('warn', 'Row 1 of this sheet has no headers: add column names in row 1, then reopen the dialog.')]),
    );
    this.refreshValidation();
  }

  /** The mapping's issues now: the dialog's own check and the last server answer's, each once. */
  private currentIssues(): MappingIssue[] {
    const { model } = this;
    const seen = new Set<string>();
    return [...validateMapping(model.drafts, this.push.validationContext()), ...model.serverIssues].filter((issue) => {
      const id = `${issue.row}|${issue.field}|${issue.message}`;
      return seen.has(id) ? false : (seen.add(id), true);
    });
  }

  markedErrors(): MappingIssue[] {
    return validateMapping(this.model.drafts, this.push.validationContext()).filter(
      (issue) => issue.severity === 'error',
    );
  }

  refreshValidation(): void {
    const { model } = this;
    const issues = this.currentIssues();
    this.views.forEach((view, row) => view.showIssues(issues.filter((issue) => issue.row === row)));
    const general = issues.filter((issue) => issue.row === null);
    replaceChildren(
      this.generalIssues,
      ...general.map((issue) => message(issue.severity === 'error' ? 'error' : 'warn', issue.message)),
    );
    const included = model.drafts.filter((draft) => draft.include).length;
    const errors = issues.filter((issue) => issue.severity === 'error').length;
    this.topStatus.textContent = `${included} of ${model.drafts.length} columns included${errors ? `, ${errors} problem${errors === 1 ? '' : 's'} to fix` : ''}${model.state.missing.length ? `. Kept settings of columns not in the sheet: ${model.state.missing.join(', ')}` : ''}`;
  }

  // What each row card reads of the mapping (RowContext), and what it tells the dialog.
  get drafts() {
    return this.model.drafts;
  }

  get letters() {
    return this.model.letters;
  }

  tableKeys(): readonly string[] {
    return this.push.validationContext().existingBefore ?? [];
  }

  changed(row: number, rebuild: boolean): void {
    this.model.serverIssues = [];
    this.autosave.schedule();
    if (!rebuild) return this.refreshValidation();
    // Other cards list this column as a reference: rebuild them all so their pickers stay current.
    this.rebuildRows();
    const card = this.rowsBox.querySelector(`[data-row="${row}"] select, [data-row="${row}"] input`);
    if (card instanceof HTMLElement) card.focus();
  }

  /** A key renamed in one card: the prompts and e-mail columns of the others follow. */
  keyRenamed(row: number, from: string, to: string): void {
    let touched = false;
    this.model.drafts.forEach((draft, index) => {
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
    if (touched) this.rebuildRows();
    this.autosave.schedule();
  }

  adopt(answer: MappingAnswer): void {
    this.model.drafts = answer.drafts;
    this.model.letters = answer.letters;
    this.model.serverIssues = answer.issues ?? [];
    this.rebuildRows();
    this.autosave.savedByServer(answer.saveError);
  }

  revealMarked(issues: readonly MappingIssue[]): void {
    const first = issues.find((issue) => issue.row !== null && issue.severity === 'error');
    if (first && first.row !== null) this.views[first.row]?.reveal(first.field);
  }

  private setBusy(busy: boolean): void {
    for (const button of [this.saveButton, this.push.button, this.template.button]) button.disabled = busy;
  }

  call<T>(promise: Promise<T | TablesRefusal>, into: HTMLElement, done: (answer: T) => void): void {
    this.setBusy(true);
    replaceChildren(into, h('p', { class: 'muted' }, 'Working...'));
    promise
      .then((answer) => {
        if (isRefusal(answer)) return replaceChildren(into, message('error', answer.message));
        replaceChildren(into);
        done(answer);
      })
      .catch((error: unknown) => replaceChildren(into, message('error', errorText(error))))
      .finally(() => this.setBusy(false));
  }
}
