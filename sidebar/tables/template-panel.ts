// The mapping dialog's "Save as template" panel: the template (ID, URL or one of the account's), its new name, and
// the save, which replaces the template's column list after the user confirms.
import { SANDBOX_HINTS } from '../../src/account/contract';
import { server } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import type { TablesState, TemplateResponse } from '../../src/tables/contract';
import type { Template } from '../../src/api/types';
import type { DialogHost } from './host';

export class TemplatePanel {
  private readonly templateInput = h('input', {
    type: 'text',
    id: 'tables-template',
    'aria-label': 'Template',
    list: 'known-templates',
    placeholder: 'Template ID or URL (.../templates/<id>)',
  });
  private readonly templateName = h('input', {
    type: 'text',
    id: 'tables-template-name',
    'aria-label': 'Template name',
    placeholder: 'Leave empty to keep the current name',
  });
  readonly button = h(
    'button',
    { type: 'button', id: 'tables-template-save', onclick: () => this.save(false) },
    'Save as template',
  );
  private readonly result = h('div', { id: 'tables-template-result' });

  constructor(private readonly host: DialogHost) {}

  element(state: TablesState): HTMLElement {
    const knownTemplates = h(
      'datalist',
      { id: 'known-templates' },
      ...state.templates.map((template) => h('option', { value: template.id }, template.name)),
    );
    return h(
      'div',
      { class: 'panel' },
      h('h2', {}, 'Save as template'),
      h('p', { class: 'muted' }, "Replaces the template's column list with the included columns (you confirm first)."),
      h('label', {}, 'Template'),
      this.templateInput,
      state.localSandbox ? h('p', { class: 'muted', id: 'sandbox-templates' }, SANDBOX_HINTS.template) : null,
      knownTemplates,
      h('label', {}, 'Template name'),
      this.templateName,
      h('div', { class: 'row' }, this.button),
      this.result,
    );
  }

  private save(confirmReplace: boolean): void {
    const { model } = this.host;
    const request = {
      sheetId: model.state.sheetId,
      drafts: model.drafts,
      template: this.templateInput.value,
      name: this.templateName.value,
      confirmReplace,
    };
    this.host.call(server.saveTablesTemplate(request), this.result, (answer: TemplateResponse) => {
      this.host.adopt(answer);
      this.showAnswer(answer);
    });
  }

  private showAnswer(answer: TemplateResponse): void {
    const result = this.result;
    if (answer.status === 'saved') {
      const count = answer.template.column_configs.length;
      replaceChildren(
        result,
        message('ok', `Template "${answer.template.name}" now has ${count} column${count === 1 ? '' : 's'}.`),
        templateTable(answer.template),
      );
    } else if (answer.status === 'confirm') {
      const replace = h(
        'button',
        { type: 'button', id: 'tables-template-confirm', class: 'primary', onclick: () => this.save(true) },
        'Replace',
      );
      const cancel = h('button', { type: 'button', onclick: () => replaceChildren(result) }, 'Cancel');
      replaceChildren(result, message('warn', answer.message), h('div', { class: 'row' }, replace, cancel));
    } else replaceChildren(result, message('error', answer.message));
    // The answer (a question to confirm, above all) shows where the user is looking, not below the fold, and so does
    // the field a refusal marks (the rows scroll on their own).
    result.scrollIntoView({ block: 'nearest' });
    if (answer.status === 'failed' || answer.status === 'invalid') this.host.revealMarked(answer.issues);
  }
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
