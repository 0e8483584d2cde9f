// The spreadsheet UI of the emulator: SpreadsheetApp.getUi() (menus, add-on menu, sidebars, dialogs,
// alerts, prompts) and Spreadsheet.toast, all recorded in `UiRecords` (state/ui-records.ts) so a host (tests, the playground)
// can show or assert them. An alert or prompt blocks its execution until the user answers, as in Apps Script: the
// answer is the one a test scripted (`respond`), else the host's `answerer` (the playground asks its page); with
// neither, the execution fails: no button is ever clicked for a test that did not say which.
import { GasError, Msg } from '../errors';
import type { Execution } from '../execution';
import { enumName, FacadeClass, makeEnum } from '../realm';
import type { ServiceContext } from '../state/env';
import type { MenuInfo, UiQuestion, UiResponse } from '../state/ui-records';

/** Host data of an HtmlOutput (see services/html.ts). */
export interface HtmlOutputData {
  content: string;
  title: string;
  width: number;
  height: number;
  file?: string;
}

const BUTTON_SETS: Record<string, Array<UiResponse['button']>> = {
  OK: ['OK'],
  OK_CANCEL: ['OK', 'CANCEL'],
  YES_NO: ['YES', 'NO'],
  YES_NO_CANCEL: ['YES', 'NO', 'CANCEL'],
};

export function createUi(
  { env, exec }: ServiceContext,
  htmlOutputs: FacadeClass<HtmlOutputData>,
  addonName: string,
): Record<string, unknown> {
  const { realm } = exec;
  const Button = makeEnum(realm, ['CLOSE', 'OK', 'CANCEL', 'YES', 'NO']);
  const ButtonSet = makeEnum(realm, Object.keys(BUTTON_SETS));

  const Menu: FacadeClass<{ info: MenuInfo; facade?: object }> = exec.define<{ info: MenuInfo; facade?: object }>(
    'Menu',
    {
      addItem(caption: string, functionName: string) {
        this.info.items.push({ caption: String(caption), functionName: String(functionName) });
        return this.facade;
      },
      addSeparator() {
        this.info.items.push({ caption: '', separator: true });
        return this.facade;
      },
      addSubMenu(menu: unknown) {
        const sub = Menu.unwrap(menu);
        if (!sub) throw new GasError(Msg.invalidArgument('menu'));
        this.info.items.push({ caption: sub.info.caption, subMenu: sub.info });
        return this.facade;
      },
      addToUi() {
        const i = env.ui.menus.findIndex((m) => m.caption === this.info.caption && m.addon === this.info.addon);
        if (i >= 0) env.ui.menus.splice(i, 1, this.info);
        else env.ui.menus.push(this.info);
      },
    },
  );
  const newMenu = (caption: string, addon: boolean) => {
    const impl: { info: MenuInfo; facade?: object } = { info: { caption, addon, items: [] } };
    impl.facade = Menu.wrap(impl);
    return impl.facade;
  };

  const PromptResponse = exec.define<{ button: string; text: string }>('PromptResponse', {
    getResponseText() {
      return this.text;
    },
    getSelectedButton() {
      return Button[this.button];
    },
  });

  const outputOf = (userInterface: unknown): HtmlOutputData => {
    const data = htmlOutputs.unwrap(userInterface);
    if (!data) throw new GasError(Msg.invalidArgument('userInterface'));
    return data;
  };

  /** alert/prompt overloads: (prompt), (prompt, buttons), (title, prompt, buttons). */
  const dialogArgs = (args: unknown[]): { title: string; prompt: string; buttons: string } => {
    if (args.length >= 3) return { title: String(args[0]), prompt: String(args[1]), buttons: enumName(args[2]) };
    if (args.length === 2) return { title: '', prompt: String(args[0]), buttons: enumName(args[1]) };
    return { title: '', prompt: String(args[0] ?? ''), buttons: 'OK' };
  };
  /** The user's answer: scripted, else the host's; an execution nobody answers fails rather than guess a button. */
  const answer = (question: { kind: UiQuestion['kind']; title: string; prompt: string; buttons: string }) => {
    const allowed = BUTTON_SETS[question.buttons] ?? ['OK'];
    const shown = `Ui.${question.kind}("${question.title || question.prompt}")`;
    const given = env.ui.nextResponse() ?? env.ui.answerer?.({ ...question, buttons: allowed });
    if (!given) {
      throw new GasError(
        `${shown} is waiting for the user: say which button they click with runtime.ui.respond({ button }) first`,
      );
    }
    if (given.button !== 'CLOSE' && !allowed.includes(given.button))
      throw new GasError(`${shown} has no ${given.button} button (it shows ${allowed.join(', ')})`);
    return { button: given.button, text: given.text ?? '' };
  };

  const Ui = exec.define<object>('Ui', {
    createMenu(caption: string) {
      return newMenu(String(caption), false);
    },
    createAddonMenu() {
      return newMenu(addonName, true);
    },
    showSidebar(userInterface: unknown) {
      exec.require('ui.dialog', 'Ui', 'showSidebar');
      const out = outputOf(userInterface);
      env.ui.sidebars.push({ title: out.title, html: out.content, file: out.file, width: 300 });
    },
    showModalDialog(userInterface: unknown, title: string) {
      exec.require('ui.dialog', 'Ui', 'showModalDialog');
      const out = outputOf(userInterface);
      env.ui.dialogs.push({
        title: String(title ?? out.title),
        html: out.content,
        file: out.file,
        width: out.width,
        height: out.height,
        modal: true,
      });
    },
    showModelessDialog(userInterface: unknown, title: string) {
      exec.require('ui.dialog', 'Ui', 'showModelessDialog');
      const out = outputOf(userInterface);
      env.ui.dialogs.push({
        title: String(title ?? out.title),
        html: out.content,
        file: out.file,
        width: out.width,
        height: out.height,
        modal: false,
      });
    },
    alert(...args: unknown[]) {
      exec.require('ui.dialog', 'Ui', 'alert');
      const { title, prompt, buttons } = dialogArgs(args);
      const { button } = answer({ kind: 'alert', title, prompt, buttons });
      env.ui.alerts.push({ kind: 'alert', title, prompt, buttons, response: button });
      return Button[button];
    },
    prompt(...args: unknown[]) {
      exec.require('ui.dialog', 'Ui', 'prompt');
      const { title, prompt, buttons } = dialogArgs(args);
      const { button, text } = answer({ kind: 'prompt', title, prompt, buttons });
      env.ui.alerts.push({ kind: 'prompt', title, prompt, buttons, response: button, text });
      return PromptResponse.wrap({ button, text });
    },
  });
  return Ui.wrap({}, { Button, ButtonSet });
}

/** Records a toast (Spreadsheet.toast); refused in custom functions, ignored where nobody sees it (triggers). */
export function recordToast(exec: Execution, env: ServiceContext['env'], args: unknown[]): void {
  if (exec.authMode === 'CUSTOM_FUNCTION') throw new GasError(Msg.noPermission('toast'));
  if (exec.kind === 'trigger') return;
  env.ui.toasts.push({
    message: String(args[0] ?? ''),
    title: String(args[1] ?? ''),
    timeoutSeconds: args[2] === undefined ? 5 : Number(args[2]),
  });
}
