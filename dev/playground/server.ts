// The playground host: loads the built bundle into the Apps Script emulator with a demo spreadsheet and serves a page
// showing the grid (editable, one tab per sheet), the add-in menu as buttons, the real built sidebar HTML in a 300 px
// frame with google.script.run bridged to the emulator, time controls that fire due triggers (a day or a week is moved
// hour by hour, each hour's due triggers fired, as the hourly timer would run through them), a control that brings
// company news to the sandbox (a few of the sheet's companies grow or move, so a watch run or a refresh finds them),
// row controls (sort, insert, delete), an account switcher, the messages the sandbox's Slack and Google Chat
// stand-ins received (/posted: a digest as posted), and the visible sheets' contents as a file (/api/export; keep.ts:
// nothing else outlives the process).
// It is a thin host: everything it shows runs through dist/Code.js and the emulator. An execution runs synchronously
// on this thread, so a request to the playground's own address could not be answered until it timed out: such a
// service address is refused up front with a message, and UrlFetch waits PLAYGROUND_URL_FETCH_TIMEOUT_MS at most.
// An alert (Ui.alert, "Stop all watches...") is shown on the page with its buttons and its execution waits for the
// click, as in Sheets: the socket is served from a worker thread (front.ts) that takes the answer meanwhile. Such a
// wait blocks this thread, so a host that drives the page from this same thread (an in-process test) cannot answer:
// run the playground in its own process for that (`npm start`).
import * as fs from 'fs';
import * as path from 'path';
import * as esbuild from 'esbuild';
import { createRuntime, type GasRuntime } from '../gas-runtime';
import { blockingSleep, type Clock } from '../gas-runtime/clock';
import { rectA1 } from '../gas-runtime/spreadsheet/a1';
import { SandboxControl, type CompanyNewsItem } from '../sandbox/control-client';
import { parseDomain } from '../../src/shared/domain/domain';
import { SETTINGS_KEYS } from '../../src/shared/connection';
import { fillDemoSpreadsheet } from './demo';
import { startFront, type FrontReply, type FrontRequest } from './front';
import { columnLetter } from '../../src/shared/a1';
import { webhookHostRoutes } from '../sandbox/webhooks/receiver';
import { postedPage } from './posted';
import { exportSheets, loadSheets, type KeptSheets } from './keep';

export const PLAYGROUND_ACCOUNTS: Record<string, string> = {
  'sandbox-pro': 'sbx_pro_token',
  'sandbox-solo': 'sbx_solo_token',
  'sandbox-free': 'sbx_free_token',
  'sandbox-low': 'sbx_low_token',
};

const ROOT = path.resolve(__dirname, '../..');
/** UrlFetch deadline in the playground (Apps Script: 60 s): an address that never answers fails within seconds. */
export const PLAYGROUND_URL_FETCH_TIMEOUT_MS = 8000;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const USER = 'demo@sheetscout.test';
const HOUR_MS = 3_600_000;
/** Companies a round of "Company news" changes. */
const NEWS_COMPANIES = 3;

export interface Playground {
  url: string;
  runtime: GasRuntime;
  close(): Promise<void>;
}

interface OffsetClock extends Clock {
  advance(ms: number): void;
}

/** Real time plus whatever the time controls added, so the sandbox and the emulator agree on "later". */
function createOffsetClock(): OffsetClock {
  let offset = 0;
  return {
    manual: false,
    now: () => Date.now() + offset,
    sleep: blockingSleep,
    advance(ms: number) {
      offset += ms;
    },
  };
}

function buildPage(): { js: string; css: string } {
  const result = esbuild.buildSync({
    entryPoints: [path.join(__dirname, 'page/main.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2019',
    write: false,
    outdir: path.join(__dirname, 'out'),
  });
  const js = result.outputFiles.find((file) => file.path.endsWith('.js'))!.text;
  const css = result.outputFiles.find((file) => file.path.endsWith('.css'))?.text ?? '';
  return { js, css };
}

function reply(status: number, body: unknown, type = 'application/json'): FrontReply {
  return { status, body: typeof body === 'string' ? body : JSON.stringify(body), type };
}

function jsonBody(text: string): Record<string, unknown> {
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

export interface PlaygroundOptions {
  /** Base URL of a running sandbox (its control API is used by the time controls). */
  sandboxUrl: string;
  port?: number;
  account?: keyof typeof PLAYGROUND_ACCOUNTS;
  bundlePath?: string;
  /** Sheets exported from an earlier session (keep.ts), put in place of the demo spreadsheet. */
  sheets?: KeptSheets;
}

export async function startPlayground(options: PlaygroundOptions): Promise<Playground> {
  const bundlePath = options.bundlePath ?? path.join(ROOT, 'dist/Code.js');
  const page = buildPage();
  const pageHtml = fs
    .readFileSync(path.join(__dirname, 'page/index.html'), 'utf8')
    .replace('/*STYLE*/', page.css)
    .replace('/*SCRIPT*/', () => page.js.replace(/<\/script/gi, '<\\/script'));

  const clock = createOffsetClock();
  const runtime = createRuntime({
    bundlePath,
    clock,
    users: [USER],
    addonName: 'Sheet Scout',
    limits: { urlFetchTimeoutMs: PLAYGROUND_URL_FETCH_TIMEOUT_MS },
    // A digest posted to Slack or Google Chat goes to the sandbox's stand-ins (the Posted messages page shows it).
    hostRoutes: webhookHostRoutes(options.sandboxUrl),
  });
  // What google.script.run can call: the bundle's top-level functions.
  const shim = fs
    .readFileSync(path.join(__dirname, 'gas-shim.js'), 'utf8')
    .replace(/\/\*SERVER_FUNCTIONS\*\/\s*\[\]/, JSON.stringify(runtime.functions));
  let ownPort = 0;
  if (!options.sheets) await fillDemoSpreadsheet(runtime, options.sandboxUrl);

  let account = options.account ?? 'sandbox-pro';
  const userProperties = runtime.properties.user(USER);
  /** Connects the demo user as `name`, and lets the demo spreadsheet's formulas use that token too. */
  function connect(name: string): void {
    account = name;
    userProperties.set(SETTINGS_KEYS.baseUrl, options.sandboxUrl);
    userProperties.set(SETTINGS_KEYS.token, PLAYGROUND_ACCOUNTS[name]);
    runtime.properties.document.set(SETTINGS_KEYS.formulaBaseUrl, options.sandboxUrl);
    runtime.properties.document.set(SETTINGS_KEYS.formulaToken, PLAYGROUND_ACCOUNTS[name]);
    runtime.properties.document.set(SETTINGS_KEYS.formulaTokenOwner, name);
  }
  connect(account);
  runtime.open({ user: USER });
  if (options.sheets) loadSheets(runtime, options.sheets, USER);

  let sidebarShown = runtime.ui.sidebars.length;
  let dialogShown = runtime.ui.dialogs.length;
  let activeSidebar: { id: number; title: string; html: string } | null = null;
  let activeDialog: { id: number; title: string; html: string; width?: number; height?: number } | null = null;
  let log: string[] = [];

  /** Picks up a sidebar or dialog the last execution opened. */
  function collectUi(): void {
    if (runtime.ui.sidebars.length > sidebarShown) {
      const shown = runtime.ui.sidebars[runtime.ui.sidebars.length - 1];
      sidebarShown = runtime.ui.sidebars.length;
      activeSidebar = { id: sidebarShown, title: shown.title, html: shown.html };
    }
    if (runtime.ui.dialogs.length > dialogShown) {
      const shown = runtime.ui.dialogs[runtime.ui.dialogs.length - 1];
      dialogShown = runtime.ui.dialogs.length;
      activeDialog = {
        id: dialogShown,
        title: shown.title,
        html: shown.html,
        width: shown.width,
        height: shown.height,
      };
    }
  }

  /** Why an execution would call the playground itself (the user's service address, or the one being saved), or null. */
  function selfAddressProblem(name: string, args: unknown[]): string | null {
    const addresses = [userProperties.get(SETTINGS_KEYS.baseUrl)];
    if (name === 'saveAccountToken')
      addresses.push(String((args[0] as { baseUrl?: unknown } | undefined)?.baseUrl ?? ''));
    for (const address of addresses) {
      let url: URL;
      try {
        url = new URL(String(address ?? ''));
      } catch {
        continue;
      }
      if (LOOPBACK_HOSTS.has(url.hostname) && Number(url.port || 80) === ownPort) {
        return `${url.origin} is this playground, not a Sheet Scout service: the sandbox service is at ${options.sandboxUrl}`;
      }
    }
    return null;
  }

  function execute(
    name: string,
    args: unknown[],
    kind: 'menu' | 'sidebar',
  ): { ok: true; value: unknown } | { ok: false; message: string } {
    const problem = selfAddressProblem(name, args);
    if (problem) return { ok: false, message: problem };
    try {
      const value = runtime.run(name, args, { kind, user: USER });
      collectUi();
      return { ok: true, value: value === undefined ? null : JSON.parse(JSON.stringify(value)) };
    } catch (error) {
      collectUi();
      const message = error instanceof Error ? error.message : String(error);
      log = [...log.slice(-19), `${name}: ${message}`];
      return { ok: false, message };
    }
  }

  function state(): unknown {
    const model = runtime.spreadsheet;
    const sheets = model.sheets.map((sheet) => {
      // Like Sheets: empty rows and columns past the data (at least 26 x 100, and 5 columns and 20 rows to spare
      // within the sheet's size), so there is room to type after a spill.
      const rows = Math.min(Math.max(sheet.lastRow() + 20, 100), sheet.maxRows);
      const columns = Math.min(Math.max(sheet.lastColumn() + 5, 26), sheet.maxColumns);
      const a1 = `A1:${columnLetter(columns)}${rows}`;
      return {
        name: sheet.name,
        hidden: Boolean(sheet.hidden),
        values: sheet.getDisplayValues(a1),
        formulas: sheet.getFormulas(a1),
        notes: sheet.getNotes(a1),
        // Sheets' message for an error value (e.g. a spill collision's #REF!), shown when the pointer rests on it.
        errors: sheet.getErrors(a1),
      };
    });
    return {
      sheets,
      activeSheet: model.activeSheet.name,
      // What a script selected (range.activate(), "Show in sheet") is shown in the grid like the user's own selection.
      selection: model.selection ? { sheet: model.selection.sheet.name, a1: rectA1(model.selection.rect) } : null,
      menu: runtime.ui.menus.find((menu) => menu.addon) ?? null,
      sidebar: activeSidebar ? { id: activeSidebar.id, title: activeSidebar.title } : null,
      dialog: activeDialog
        ? { id: activeDialog.id, title: activeDialog.title, width: activeDialog.width, height: activeDialog.height }
        : null,
      // The newest toast only, numbered so the page shows each one once (Sheets shows one toast at a time).
      toast:
        runtime.ui.toasts.length > 0
          ? { id: runtime.ui.toasts.length, ...runtime.ui.toasts[runtime.ui.toasts.length - 1] }
          : null,
      alerts: runtime.ui.alerts.slice(-3),
      account,
      accounts: Object.keys(PLAYGROUND_ACCOUNTS),
      // To the minute, as the page shows it: a state that did not change reads the same (the page skips redrawing it).
      clock: Math.floor(clock.now() / 60_000) * 60_000,
      timeZone: model.timeZone,
      triggers: runtime.triggers.list().length,
      log,
    };
  }

  async function handle(request: FrontRequest): Promise<FrontReply> {
    const url = request.url;
    if (request.method === 'GET' && url === '/') return reply(200, pageHtml, 'text/html');
    if (request.method === 'GET' && url === '/api/state') return reply(200, state());
    if (request.method === 'GET' && url === '/api/export') return reply(200, exportSheets(runtime));
    if (request.method === 'GET' && url === '/posted')
      return reply(200, postedPage(await new SandboxControl(options.sandboxUrl).webhookPosts()), 'text/html');
    const frame = /^\/(sidebar|dialog)\/(\d+)$/.exec(url);
    if (request.method === 'GET' && frame) {
      const shown = frame[1] === 'sidebar' ? activeSidebar : activeDialog;
      if (!shown || String(shown.id) !== frame[2]) return reply(404, 'closed', 'text/plain');
      return reply(
        200,
        shown.html.replace(/<head>/i, () => `<head><script>${shim}</script>`),
        'text/html',
      );
    }
    const builtPage = /^\/page\/(\w+)$/.exec(url);
    if (request.method === 'GET' && builtPage) {
      // Any built panel or dialog by name, bridged like the sidebar (used by the sidebar benchmark).
      const file = path.join(path.dirname(bundlePath), `${builtPage[1]}.html`);
      if (!fs.existsSync(file)) return reply(404, 'no such page', 'text/plain');
      return reply(
        200,
        fs.readFileSync(file, 'utf8').replace(/<head>/i, () => `<head><script>${shim}</script>`),
        'text/html',
      );
    }
    if (request.method !== 'POST') return reply(404, { ok: false, message: 'not found' });
    const body = jsonBody(request.body);
    switch (url) {
      case '/api/run':
        return reply(200, execute(String(body.name), Array.isArray(body.args) ? body.args : [], 'sidebar'));
      case '/api/menu':
        return reply(200, execute(String(body.handler), [], 'menu'));
      case '/api/close-sidebar':
        activeSidebar = null;
        activeDialog = null;
        return reply(200, { ok: true });
      case '/api/cell':
        runtime.userEdit(`${quoteSheetName(String(body.sheet))}!${String(body.a1)}`, String(body.text ?? ''), {
          user: USER,
        });
        collectUi();
        return reply(200, { ok: true });
      case '/api/select': {
        const sheet = runtime.spreadsheet.sheet(String(body.sheet));
        runtime.spreadsheet.activeSheet = sheet;
        runtime.spreadsheet.selection = { sheet, rect: sheet.rect(String(body.a1)) };
        return reply(200, { ok: true });
      }
      case '/api/rows': {
        const sheet = runtime.spreadsheet.sheet(String(body.sheet));
        if (body.action === 'insert') sheet.insertRows(Number(body.row), Number(body.count ?? 1));
        if (body.action === 'delete') sheet.deleteRows(Number(body.row), Number(body.count ?? 1));
        if (body.action === 'sort') {
          const column = Number(body.column);
          sheet.sortRows(
            { row: 2, column: 1, numRows: Math.max(0, sheet.lastRow() - 1), numColumns: sheet.lastColumn() },
            [{ column, ascending: body.ascending !== false }],
          );
        }
        return reply(200, { ok: true });
      }
      case '/api/time': {
        const ms = Math.max(0, Number(body.ms) || 0);
        // `jump`: one step, the triggers due then fired once (missed hours skipped, as after a machine's sleep).
        const fired = await moveTime(ms, body.jump === true ? ms : HOUR_MS);
        collectUi();
        return reply(200, { ok: true, fired });
      }
      case '/api/news': {
        const changes = await companyNews(String(body.sheet ?? ''));
        collectUi();
        return reply(200, { ok: true, changes });
      }
      case '/api/account': {
        const name = String(body.account);
        if (!(name in PLAYGROUND_ACCOUNTS)) return reply(400, { ok: false, message: `unknown account ${name}` });
        connect(name);
        return reply(200, { ok: true });
      }
      default:
        return reply(404, { ok: false, message: 'not found' });
    }
  }

  /**
   * Moves the clocks `ms` on, firing the triggers due on the way: `stepMs` at a time (an hour: as the hourly timer runs
   * through a day or a week, a run started in one hour collected the next).
   */
  async function moveTime(ms: number, stepMs: number): Promise<number> {
    const sandbox = new SandboxControl(options.sandboxUrl);
    let fired = 0;
    let left = ms;
    do {
      const step = Math.min(left, Math.max(1, stepMs));
      clock.advance(step);
      await sandbox.advanceClock(step);
      fired += runtime.triggers.fireDue().length;
      left -= step;
    } while (left > 0);
    return fired;
  }

  /** A round of company news at the sandbox among the domains of `sheetName` (toasted with what changed). */
  async function companyNews(sheetName: string): Promise<CompanyNewsItem[]> {
    const sheet = runtime.spreadsheet.getSheet(sheetName) ?? runtime.spreadsheet.sheets[0];
    const domains = new Set<string>();
    for (const row of sheet.getDisplayValues())
      for (const value of row) {
        const parsed = parseDomain(value);
        if (parsed.kind === 'domain') domains.add(parsed.domain);
      }
    const changes = await new SandboxControl(options.sandboxUrl).companyNews([...domains], NEWS_COMPANIES);
    const words = { employee_count: 'employees', hq_city: 'city' } as const;
    const what = changes.map((change) => `${change.domain} ${words[change.field]} ${change.before} → ${change.after}`);
    runtime.ui.toasts.push({
      title: 'Company news at the service',
      message:
        changes.length === 0
          ? `No company of "${sheet.name}" is in the sandbox's index.`
          : `${what.join('; ')}. A watch run or a refresh finds ${changes.length === 1 ? 'it' : 'them'}.`,
      timeoutSeconds: 15,
    });
    return changes;
  }

  const front = await startFront(options.port ?? 0, handle);
  ownPort = front.port;
  runtime.ui.answerer = (question) => front.ask(question);
  return {
    url: `http://127.0.0.1:${front.port}/`,
    runtime,
    async close() {
      await front.close();
      await runtime.close();
    },
  };
}

function quoteSheetName(name: string): string {
  return /^[A-Za-z0-9_]+$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}
