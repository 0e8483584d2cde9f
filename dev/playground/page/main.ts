// Playground page script: renders the emulated spreadsheet (polling /api/state), lets the user select and edit cells,
// switch tabs, click the add-in menu, sort, insert or delete rows, move time forward (a minute to a week; the clock
// shows the spreadsheet's time zone, as the panels do), bring company news to the sandbox and switch accounts. The sidebar and
// dialogs are the add-in's own built HTML in frames; their google.script.run calls reach the emulator via /api/run.
// An error cell shows Sheets' message on hover. The grid is not rebuilt while a mouse button is down, and a second
// press on the same cell within DOUBLE_PRESS_MS opens the editor, so a refresh landing mid-double-click cannot lose it;
// nor can a refresh that read the state before the user's last selection reached it take that selection back.
// An alert the add-in shows (its execution waits for the answer) appears with its buttons, polled from /api/alert.
import './style.css';
import { columnLetter } from '../../../src/shared/a1';

interface MenuItem {
  caption: string;
  functionName?: string;
  separator?: boolean;
  subMenu?: Menu;
}
interface Menu {
  caption: string;
  items: MenuItem[];
}
interface SheetState {
  name: string;
  hidden: boolean;
  values: string[][];
  formulas: string[][];
  notes: string[][];
  errors: string[][];
}
interface State {
  sheets: SheetState[];
  activeSheet: string;
  /** The runtime's selection (the user's, or one a script made). */
  selection: { sheet: string; a1: string } | null;
  menu: Menu | null;
  sidebar: { id: number; title: string } | null;
  dialog: { id: number; title: string; width?: number; height?: number } | null;
  toast: { id: number; message: string; title?: string; timeoutSeconds: number } | null;
  account: string;
  accounts: string[];
  /** The playground's clock (epoch ms) and the spreadsheet's time zone, in which it is shown. */
  clock: number;
  timeZone: string;
  triggers: number;
  log: string[];
}

/** An alert or prompt waiting for the user's answer (its execution is blocked until then). */
interface Question {
  id: number;
  kind: 'alert' | 'prompt';
  title: string;
  prompt: string;
  buttons: string[];
}

/** How Sheets labels each button of an alert. */
const BUTTON_CAPTIONS: Record<string, string> = { OK: 'OK', CANCEL: 'Cancel', YES: 'Yes', NO: 'No' };
/** How often the page asks whether an alert waits (answered by the playground's front thread, never blocked). */
const QUESTION_POLL_MS = 300;
/** How often the page reads the spreadsheet's state: what timers and panels change shows by the next read. */
const REFRESH_MS = 1500;

/** The error values Sheets shows in a cell (a markdown heading starting with "#" is not one). */
const SHEETS_ERRORS = /^#(REF!|ERROR!|N\/A|VALUE!|NAME\?|DIV\/0!|NUM!|NULL!)$/;

let state: State | null = null;
let viewedSheet: string | null = null;
let anchor: { row: number; column: number } | null = null;
let focus: { row: number; column: number } | null = null;
let editing = false;
/**
 * The state's text as the server sent it, and the text the grid last showed in full: a refresh that reads the text
 * already shown has nothing to draw (the page polls every REFRESH_MS; redrawing an unchanged grid is what cost).
 */
let stateText = '';
let shownStateText: string | null = null;
/**
 * Selections this page sent, and those the server answered: a state read while one was on its way shows an older
 * selection, which must not replace the user's newer one (refresh follows the state's selection only when none was).
 */
let selectionsSent = 0;
let selectionsAnswered = 0;
let shownSidebar = 0;
let shownDialog = 0;
let shownToast = 0;
let shownQuestion = 0;
let toastTimer: number | undefined;
/** How long a toast without a positive timeout of its own stays up (Sheets' default is 5 s). */
const TOAST_MS = 5000;
/** Two presses on one cell within this time are a double-click (the editor opens on the second press). */
const DOUBLE_PRESS_MS = 500;
let lastPress: { a1: string; at: number } | null = null;
/** A mouse button is down: the grid is not rebuilt under it (a click's press and release must hit the same cell). */
let pressing = false;
let renderDeferred = false;

const $ = (id: string) => document.getElementById(id)!;

function selectionA1(): string | null {
  if (!anchor || !focus) return null;
  const top = Math.min(anchor.row, focus.row);
  const bottom = Math.max(anchor.row, focus.row);
  const left = Math.min(anchor.column, focus.column);
  const right = Math.max(anchor.column, focus.column);
  const start = `${columnLetter(left)}${top}`;
  return top === bottom && left === right ? start : `${start}:${columnLetter(right)}${bottom}`;
}

async function post(path: string, body: unknown): Promise<{ ok: boolean; message?: string }> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const result = await response.json();
  await refresh();
  return result;
}

function button(label: string, onClick: () => void, attributes: Record<string, string> = {}): HTMLButtonElement {
  const element = document.createElement('button');
  element.textContent = label;
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.addEventListener('click', onClick);
  return element;
}

/** What the toolbar last showed: it is built again only when that changes (a click never lands on a stale button). */
let toolbarShown = '';

function renderToolbar(current: State): void {
  const shown = JSON.stringify([
    current.menu,
    clockText(current.clock, current.timeZone),
    current.triggers,
    current.account,
    current.accounts,
  ]);
  if (shown === toolbarShown) return;
  toolbarShown = shown;
  const toolbar = $('toolbar');
  toolbar.textContent = '';
  const menuGroup = document.createElement('div');
  menuGroup.className = 'group';
  menuGroup.id = 'addon-menu';
  const title = document.createElement('span');
  title.className = 'label';
  title.textContent = current.menu ? `${current.menu.caption}:` : 'Menu not built';
  menuGroup.appendChild(title);
  const addItems = (items: MenuItem[], prefix: string) => {
    for (const item of items) {
      if (item.subMenu) addItems(item.subMenu.items, `${item.subMenu.caption} › `);
      else if (item.functionName) {
        const handler = item.functionName;
        menuGroup.appendChild(
          button(prefix + item.caption, () => void post('/api/menu', { handler }), { 'data-handler': handler }),
        );
      }
    }
  };
  if (current.menu) addItems(current.menu.items, '');
  toolbar.appendChild(menuGroup);

  const rows = document.createElement('div');
  rows.className = 'group';
  rows.appendChild(
    button(
      'Sort A→Z',
      () => focus && void post('/api/rows', { sheet: viewedSheet, action: 'sort', column: focus.column }),
      { id: 'sort-rows' },
    ),
  );
  rows.appendChild(
    button(
      'Insert row',
      () => focus && void post('/api/rows', { sheet: viewedSheet, action: 'insert', row: focus.row }),
      { id: 'insert-row' },
    ),
  );
  rows.appendChild(button('Delete rows', () => void deleteSelectedRows(), { id: 'delete-rows' }));
  rows.firstElementChild?.setAttribute('title', "Sorts the sheet's rows below the header by the selected column");
  rows.children[1]?.setAttribute('title', 'Inserts a row above the selected one');
  toolbar.appendChild(rows);

  const time = document.createElement('div');
  time.className = 'group';
  const clock = document.createElement('span');
  clock.className = 'label';
  clock.id = 'clock';
  clock.textContent = clockText(current.clock, current.timeZone);
  clock.title = `The spreadsheet's time zone: ${current.timeZone}; ${current.triggers} trigger(s) set`;
  time.appendChild(clock);
  for (const [label, ms] of [
    ['+1 min', 60_000],
    ['+15 min', 900_000],
    ['+1 h', 3_600_000],
    ['+1 day', 86_400_000],
    ['+1 week', 604_800_000],
  ] as const) {
    time.appendChild(button(label, () => void moveTime(ms), { 'data-advance': String(ms) }));
  }
  time.appendChild(
    button('Company news', () => void post('/api/news', { sheet: viewedSheet }), {
      id: 'company-news',
      title: "A few of this sheet's companies grow or move at the sandbox: a watch run or a refresh finds them",
    }),
  );
  toolbar.appendChild(time);

  const accountGroup = document.createElement('div');
  accountGroup.className = 'group';
  const select = document.createElement('select');
  select.id = 'account';
  for (const name of current.accounts) {
    const option = document.createElement('option');
    option.value = name;
    option.textContent = name;
    option.selected = name === current.account;
    select.appendChild(option);
  }
  select.addEventListener('change', () => void post('/api/account', { account: select.value }));
  accountGroup.appendChild(select);
  toolbar.appendChild(accountGroup);

  // What the sandbox's Slack and Google Chat stand-ins received (the digest as posted).
  const posted = document.createElement('a');
  posted.href = '/posted';
  posted.target = '_blank';
  posted.id = 'posted-messages';
  posted.textContent = 'Posted messages';
  toolbar.appendChild(posted);
  // Nothing outlives the playground's process: the sheets' contents can be saved and loaded at the next start.
  toolbar.appendChild(
    button('Export sheets', () => void exportSheets(), {
      id: 'export-sheets',
      title: 'The playground keeps nothing when it stops: save the sheets, then npm start -- --sheets <file>',
    }),
  );
}

/** Downloads the visible sheets' contents (npm start -- --sheets <file> starts with them). */
async function exportSheets(): Promise<void> {
  const response = await fetch('/api/export');
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([await response.text()], { type: 'application/json' }));
  link.download = 'sheet-scout-playground-sheets.json';
  link.click();
  URL.revokeObjectURL(link.href);
}

/** The clock as the panels show times: in the spreadsheet's time zone, named ("Wed Nov 25, 10:00 America/New_York"). */
function clockText(ms: number, timeZone: string): string {
  const text = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(ms));
  return `${text.replace(/^(\w+),/, '$1')} ${timeZone}`;
}

/** Moves time on (a day or a week takes a few seconds: every hour's timers run); the buttons wait meanwhile. */
async function moveTime(ms: number): Promise<void> {
  const buttons = Array.from(document.querySelectorAll<HTMLButtonElement>('[data-advance]'));
  for (const each of buttons) each.disabled = true;
  document.body.classList.add('moving-time');
  try {
    await post('/api/time', { ms });
  } finally {
    document.body.classList.remove('moving-time');
    for (const each of buttons) each.disabled = false;
  }
}

/** Deletes the selected rows of the sheet shown (the whole rows, as Sheets' Delete rows does). */
async function deleteSelectedRows(): Promise<void> {
  if (!anchor || !focus) return;
  const top = Math.min(anchor.row, focus.row);
  const count = Math.abs(anchor.row - focus.row) + 1;
  await post('/api/rows', { sheet: viewedSheet, action: 'delete', row: top, count });
}

function renderGrid(current: State): void {
  const sheet = current.sheets.find((s) => s.name === viewedSheet) ?? current.sheets[0];
  viewedSheet = sheet.name;
  const grid = $('grid') as HTMLTableElement;
  grid.textContent = '';
  const head = grid.insertRow();
  const corner = document.createElement('th');
  corner.className = 'row-head';
  head.appendChild(corner);
  const columns = sheet.values[0]?.length ?? 0;
  for (let column = 1; column <= columns; column++) {
    const th = document.createElement('th');
    th.textContent = columnLetter(column);
    head.appendChild(th);
  }
  const a1 = selectionA1();
  const inSelection = (row: number, column: number) =>
    anchor &&
    focus &&
    row >= Math.min(anchor.row, focus.row) &&
    row <= Math.max(anchor.row, focus.row) &&
    column >= Math.min(anchor.column, focus.column) &&
    column <= Math.max(anchor.column, focus.column);
  sheet.values.forEach((values, rowIndex) => {
    const row = rowIndex + 1;
    const tr = grid.insertRow();
    const th = document.createElement('th');
    th.className = 'row-head';
    th.textContent = String(row);
    tr.appendChild(th);
    values.forEach((value, columnIndex) => {
      const column = columnIndex + 1;
      const td = tr.insertCell();
      td.textContent = value;
      td.dataset.cell = `${columnLetter(column)}${row}`;
      const note = sheet.notes[rowIndex]?.[columnIndex];
      if (note) {
        td.classList.add('has-note');
        td.title = note;
      }
      if (SHEETS_ERRORS.test(value)) td.classList.add('error');
      const errorMessage = sheet.errors?.[rowIndex]?.[columnIndex];
      if (errorMessage) {
        td.classList.add('error');
        td.title = note ? `${errorMessage}\n${note}` : errorMessage;
        td.dataset.error = errorMessage;
      }
      if (inSelection(row, column)) td.classList.add('selected');
      td.addEventListener('mousedown', (event) => {
        const a1 = `${columnLetter(column)}${row}`;
        const now = Date.now();
        const second = lastPress !== null && lastPress.a1 === a1 && now - lastPress.at <= DOUBLE_PRESS_MS;
        lastPress = second ? null : { a1, at: now };
        pressing = true;
        if (second && !event.shiftKey) {
          event.preventDefault();
          startEdit(td, sheet, row, column);
          return;
        }
        if (event.shiftKey && anchor) focus = { row, column };
        else anchor = focus = { row, column };
        sendSelection(sheet.name, selectionA1() ?? `${columnLetter(column)}${row}`);
      });
    });
  });
  $('cell-name').textContent = a1 ?? '';
  if (focus) {
    const formula = sheet.formulas[focus.row - 1]?.[focus.column - 1];
    $('cell-content').textContent = formula || sheet.values[focus.row - 1]?.[focus.column - 1] || '';
  }
  const tabs = $('tabs');
  tabs.textContent = '';
  for (const each of current.sheets.filter((s) => !s.hidden)) {
    const tab = button(each.name, () => {
      // As in Sheets, the tab makes its sheet the active one (with A1 selected here): panels act on what is shown.
      viewedSheet = each.name;
      anchor = focus = { row: 1, column: 1 };
      sendSelection(each.name, 'A1');
      render();
    });
    tab.dataset.sheet = each.name;
    if (each.name === viewedSheet) tab.className = 'active';
    tabs.appendChild(tab);
  }
}

function startEdit(td: HTMLTableCellElement, sheet: SheetState, row: number, column: number): void {
  editing = true;
  shownStateText = null;
  const input = document.createElement('input');
  input.value = sheet.formulas[row - 1]?.[column - 1] || sheet.values[row - 1]?.[column - 1] || '';
  td.textContent = '';
  td.appendChild(input);
  input.focus();
  const finish = (save: boolean) => {
    if (!editing) return;
    editing = false;
    if (save) void post('/api/cell', { sheet: sheet.name, a1: `${columnLetter(column)}${row}`, text: input.value });
    else render();
  };
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') finish(true);
    if (event.key === 'Escape') finish(false);
  });
  input.addEventListener('blur', () => finish(true));
}

function renderFrames(current: State): void {
  const sidebar = $('sidebar');
  if (current.sidebar) {
    sidebar.hidden = false;
    $('sidebar-title').textContent = current.sidebar.title;
    if (current.sidebar.id !== shownSidebar) {
      shownSidebar = current.sidebar.id;
      ($('sidebar-frame') as HTMLIFrameElement).src = `/sidebar/${current.sidebar.id}`;
    }
  } else {
    sidebar.hidden = true;
    shownSidebar = 0;
  }
  const dialog = $('dialog');
  if (current.dialog) {
    dialog.hidden = false;
    $('dialog-title').textContent = current.dialog.title;
    if (current.dialog.id !== shownDialog) {
      shownDialog = current.dialog.id;
      ($('dialog-frame') as HTMLIFrameElement).src = `/dialog/${current.dialog.id}`;
      const box = dialog.querySelector('.dialog-box') as HTMLElement;
      if (current.dialog.width) box.style.width = `${current.dialog.width}px`;
      if (current.dialog.height) box.style.height = `${current.dialog.height + 40}px`;
    }
  } else {
    dialog.hidden = true;
    shownDialog = 0;
  }
  renderToast(current.toast);
}

/** One toast at a time: a newer one replaces it, and it goes away by itself. */
function renderToast(toast: State['toast']): void {
  if (!toast || toast.id === shownToast) return;
  shownToast = toast.id;
  const toasts = $('toasts');
  toasts.textContent = '';
  const div = document.createElement('div');
  div.className = 'toast';
  div.setAttribute('role', 'status');
  div.textContent = toast.title ? `${toast.title}: ${toast.message}` : toast.message;
  toasts.appendChild(div);
  window.clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => div.remove(), toast.timeoutSeconds > 0 ? toast.timeoutSeconds * 1000 : TOAST_MS);
}

function render(): void {
  if (!state || editing) return;
  if (pressing) {
    renderDeferred = true;
    return;
  }
  renderToolbar(state);
  renderGrid(state);
  renderFrames(state);
  shownStateText = stateText;
}

/** Row and column of an A1 cell such as "D12". */
function cellOf(a1: string): { row: number; column: number } | null {
  const match = /^([A-Z]+)(\d+)$/.exec(a1);
  if (!match) return null;
  const column = [...match[1]].reduce((sum, letter) => sum * 26 + letter.charCodeAt(0) - 64, 0);
  return { row: Number(match[2]), column };
}

/** Takes over a selection the add-in made (it differs from what this page last sent or saw). */
function followScriptSelection(current: State): void {
  const selection = current.selection;
  if (!selection || (selection.sheet === viewedSheet && selection.a1 === selectionA1())) return;
  const [first, last = first] = selection.a1.split(':').map(cellOf);
  if (!first || !last) return;
  viewedSheet = selection.sheet;
  anchor = first;
  focus = last;
}

let lastSelection = '';
let lastActiveSheet = '';

/** Tells the server what the user selected (the add-in reads it as the active range). */
function sendSelection(sheet: string, a1: string): void {
  selectionsSent += 1;
  void post('/api/select', { sheet, a1 }).finally(() => (selectionsAnswered += 1));
}

async function refresh(): Promise<void> {
  const sentBefore = selectionsSent;
  const settledBefore = selectionsAnswered === sentBefore;
  const response = await fetch('/api/state');
  // 503: an execution waits for the answer to an alert; the state is read again once it is answered.
  if (!response.ok) return;
  const text = await response.text();
  if (text === shownStateText) return;
  stateText = text;
  state = JSON.parse(text) as State;
  // A sheet the add-in activated (results written into a new sheet) is shown, as Sheets does.
  if (state.activeSheet !== lastActiveSheet) {
    lastActiveSheet = state.activeSheet;
    if (viewedSheet !== state.activeSheet) anchor = focus = null;
    viewedSheet = state.activeSheet;
  }
  const seen = JSON.stringify(state.selection);
  // Read with none of the user's selections on its way: the selection is theirs, or newer (one a script made).
  const current = settledBefore && selectionsSent === sentBefore;
  if (current && seen !== lastSelection) {
    lastSelection = seen;
    followScriptSelection(state);
  }
  render();
  // Read with a selection on its way: its selection was not followed, so the same text read again is looked at again.
  if (!current) shownStateText = null;
}

/** Shows the alert an execution waits on, with its buttons; the click (or ×) is its answer. */
async function pollQuestion(): Promise<void> {
  const response = await fetch('/api/alert');
  const { question } = (await response.json()) as { question: Question | null };
  const box = $('alert');
  if (!question) {
    box.hidden = true;
    shownQuestion = 0;
    return;
  }
  if (question.id === shownQuestion) return;
  shownQuestion = question.id;
  $('alert-title').textContent = question.title;
  $('alert-prompt').textContent = question.prompt;
  const text = $('alert-text') as HTMLInputElement;
  text.hidden = question.kind !== 'prompt';
  text.value = '';
  const answer = (button: string) => {
    box.hidden = true;
    void post('/api/alert', { id: question.id, button, text: text.value });
  };
  const buttons = $('alert-buttons');
  buttons.textContent = '';
  for (const name of question.buttons)
    buttons.appendChild(button(BUTTON_CAPTIONS[name] ?? name, () => answer(name), { 'data-button': name }));
  $('alert-close').onclick = () => answer('CLOSE');
  box.hidden = false;
}

// Delete or Backspace on a selection clears its cells, as in Sheets (each a user edit: formulas that read them run).
window.addEventListener('keydown', (event) => {
  if (editing || !anchor || !focus || (event.key !== 'Delete' && event.key !== 'Backspace')) return;
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
  event.preventDefault();
  const cells: string[] = [];
  for (let row = Math.min(anchor.row, focus.row); row <= Math.max(anchor.row, focus.row); row++)
    for (let column = Math.min(anchor.column, focus.column); column <= Math.max(anchor.column, focus.column); column++)
      cells.push(`${columnLetter(column)}${row}`);
  void (async () => {
    for (const a1 of cells.slice(0, 500)) await post('/api/cell', { sheet: viewedSheet, a1, text: '' });
    await refresh();
  })();
});

window.addEventListener('mouseup', () => {
  pressing = false;
  if (renderDeferred) {
    renderDeferred = false;
    render();
  }
});
$('sidebar-close').addEventListener('click', () => void post('/api/close-sidebar', {}));
$('dialog-close').addEventListener('click', () => void post('/api/close-sidebar', {}));
window.addEventListener('message', (event) => {
  if (event.data && event.data.playground === 'changed') void refresh();
});
void refresh();
setInterval(() => void refresh(), REFRESH_MS);
setInterval(() => void pollQuestion(), QUESTION_POLL_MS);
