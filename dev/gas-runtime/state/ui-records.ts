// What the UI services showed, host-side: menus, sidebars, dialogs, alerts and prompts (with the answers a test
// scripted or the host's answerer gives), toasts. The UI (spreadsheet/ui.ts) records into it; tests and the
// playground read it.

export interface MenuItemInfo {
  caption: string;
  /** Function the item runs (absent for separators and submenus). */
  functionName?: string;
  separator?: boolean;
  subMenu?: MenuInfo;
}

export interface MenuInfo {
  /** Caption of the menu; for the add-on menu, the add-on's name (`addonName` option). */
  caption: string;
  /** Created with createAddonMenu() (shown under Extensions). */
  addon: boolean;
  items: MenuItemInfo[];
}

export interface SidebarInfo {
  title: string;
  html: string;
  /** HTML file the output came from, when it came from one. */
  file?: string;
  /** Add-on sidebars are always 300 px wide, whatever setWidth said. */
  width: 300;
}

export interface DialogInfo {
  title: string;
  html: string;
  file?: string;
  width: number;
  height: number;
  modal: boolean;
}

export interface AlertInfo {
  kind: 'alert' | 'prompt';
  title: string;
  prompt: string;
  buttons: string;
  /** Button the (scripted) user pressed. */
  response: string;
  /** Text the user typed, for prompts. */
  text?: string;
}

export interface ToastInfo {
  message: string;
  title: string;
  timeoutSeconds: number;
}

/** Scripted answer to the next alert or prompt: the button the user clicks (CLOSE: the dialog's ×). */
export interface UiResponse {
  button: 'OK' | 'CANCEL' | 'YES' | 'NO' | 'CLOSE';
  text?: string;
}

/** An alert or prompt waiting for its answer, as a host shows it. */
export interface UiQuestion {
  kind: 'alert' | 'prompt';
  title: string;
  prompt: string;
  /** The buttons shown, in order (CLOSE is always possible too). */
  buttons: Array<UiResponse['button']>;
}

/** Everything the UI services showed; host-side. */
export class UiRecords {
  readonly menus: MenuInfo[] = [];
  readonly sidebars: SidebarInfo[] = [];
  readonly dialogs: DialogInfo[] = [];
  readonly alerts: AlertInfo[] = [];
  readonly toasts: ToastInfo[] = [];
  private readonly responses: UiResponse[] = [];
  /**
   * Asked for the answer to an alert or prompt no scripted response answers (the playground shows it on its page and
   * waits for the click); the execution waits for its return.
   */
  answerer: ((question: UiQuestion) => UiResponse) | null = null;

  /** Queues the answer the "user" gives to the next alert/prompt. */
  respond(response: UiResponse): void {
    this.responses.push(response);
  }

  nextResponse(): UiResponse | undefined {
    return this.responses.shift();
  }

  /** Finds a menu item by captions, e.g. `findMenuItem('Sheet Scout', 'Open sidebar')`. */
  findMenuItem(...captions: string[]): MenuItemInfo | undefined {
    const [first, ...rest] = captions;
    let items = this.menus.find((m) => m.caption === first)?.items;
    let found: MenuItemInfo | undefined;
    for (const caption of rest) {
      found = items?.find((i) => i.caption === caption);
      items = found?.subMenu?.items;
    }
    return found;
  }

  clear(): void {
    for (const list of [this.menus, this.sidebars, this.dialogs, this.alerts, this.toasts] as unknown[][])
      list.length = 0;
    this.responses.length = 0;
  }
}
