// The one set-up of every integration test and benchmark that drives the built bundle: the sandbox in a child process
// with its typed control client (alone, or as a test file's suite: started once, reset before each test, the runtimes
// a test opened closed after it), an emulated runtime over dist/Code.js whose user holds a sandbox token, a manual
// clock for it that moves the sandbox's clock too, and sheets filled from rows (row 1 first; any width). Feature
// harnesses add only their own steps on top.
import path from 'node:path';
import {
  createManualClock,
  createRuntime,
  SpreadsheetModel,
  type GasRuntime,
  type ManualClock,
  type RuntimeOptions,
} from '../../dev/gas-runtime';
import { SyncHttpClient } from '../../dev/gas-runtime/http/sync-http';
import { spawnSandbox, type SpawnedSandbox, type SpawnOptions } from '../../dev/sandbox/spawn';
import { SandboxControl } from '../../dev/sandbox/control-client';
import { SETTINGS_KEYS } from '../../src/shared/connection';
import { columnLetter } from '../../src/shared/a1';

export const BUNDLE = path.resolve(__dirname, '../../dist/Code.js');
export const USER = 'ana@example.com';
export const TOKEN = 'sbx_pro_token';

export interface SandboxStack<Control extends SandboxControl = SandboxControl> {
  sandbox: SpawnedSandbox;
  control: Control;
}

/** Starts a sandbox and its control client (a subclass of SandboxControl when a feature adds calls). */
export async function startSandbox<Control extends SandboxControl = SandboxControl>(
  options: SpawnOptions = {},
  makeControl: (url: string) => Control = (url) => new SandboxControl(url) as Control,
): Promise<SandboxStack<Control>> {
  const sandbox = await spawnSandbox(options);
  return { sandbox, control: makeControl(sandbox.url) };
}

/** A test file's sandbox: the stack of the running suite (read it inside hooks and tests). */
export interface SandboxSuite {
  readonly sandbox: SpawnedSandbox;
  readonly control: SandboxControl;
  readonly url: string;
}

/** What a test opens and sandboxSuite closes after it: a runtime, a sandbox-linked clock. */
interface Closable {
  close(): Promise<void>;
}

/** Runtimes and clocks opened for the running test, closed after it by sandboxSuite (closing is idempotent). */
const openedThisTest: Closable[] = [];

/** Registers a runtime (or a sandbox-linked clock) to be closed after the running test. */
export function closeAfterTest<T extends Closable>(opened: T): T {
  openedThisTest.push(opened);
  return opened;
}

/**
 * Starts the sandbox before a test file's tests and stops it after them; each test starts from a reset sandbox
 * (unless `resetEachTest` is false), and the runtimes registered with closeAfterTest are closed after it.
 */
export function sandboxSuite(options: SpawnOptions & { resetEachTest?: boolean } = {}): SandboxSuite {
  const { resetEachTest = true, ...spawn } = options;
  let stack: SandboxStack | undefined;
  const running = (): SandboxStack => {
    if (!stack) throw new Error('The sandbox starts in beforeAll: use the suite inside hooks and tests');
    return stack;
  };
  beforeAll(async () => {
    stack = await startSandbox(spawn);
  }, 30_000);
  afterAll(async () => {
    await stack?.sandbox.stop();
  });
  if (resetEachTest) {
    beforeEach(async () => {
      await running().control.reset();
    });
  }
  afterEach(async () => {
    for (const opened of openedThisTest.splice(0)) await opened.close();
  });
  return {
    get sandbox() {
      return running().sandbox;
    },
    get control() {
      return running().control;
    },
    get url() {
      return running().sandbox.url;
    },
  };
}

/** A runtime's manual clock whose moves also move the sandbox's manual clock (sandboxLinkedClock). */
export interface LinkedClock extends ManualClock {
  /** Stops the thread that carries its moves to the sandbox. */
  close(): Promise<void>;
}

/**
 * A manual clock for a runtime that moves the manual clock of the sandbox at `url` by as much whenever it moves (the
 * executions' modelled time and sleeps, a test's advance): the sandbox's rate limit and delays then see the add-in's
 * time, so a run gives the same answers on any machine. Each move reaches the sandbox before the clock returns (the
 * emulator's time passes inside executions, which block the thread), one synchronous request each.
 */
export function sandboxLinkedClock(url: string, startMs: number): LinkedClock {
  const clock = createManualClock(startMs);
  const http = new SyncHttpClient();
  const moveSandbox = (ms: number): void => {
    if (!(ms > 0)) return;
    const [result] = http.fetchAll([
      {
        url: `${url}/_sandbox/clock/advance`,
        method: 'post',
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ ms })),
        followRedirects: false,
        validateHttpsCertificates: true,
        timeoutMs: 10_000,
      },
    ]);
    if (!result.ok || result.status !== 200) {
      throw new Error(`The sandbox clock did not move: ${result.ok ? `status ${result.status}` : result.message}`);
    }
  };
  return {
    manual: true,
    now: () => clock.now(),
    sleep(ms) {
      clock.sleep(ms);
      moveSandbox(ms);
    },
    advance(ms) {
      clock.advance(ms);
      moveSandbox(ms);
    },
    set(epochMs) {
      const ms = epochMs - clock.now();
      clock.advance(ms);
      moveSandbox(ms);
    },
    close: () => http.close(),
  };
}

export interface RuntimeSpec extends Omit<RuntimeOptions, 'bundlePath' | 'spreadsheet'> {
  /** Sheets by name, each with its rows (row 1 first); the first is the active one. Default: one empty Sheet1. */
  sheets?: Record<string, unknown[][]>;
  /** Least rows of each sheet (default 1,000, or 50 more than the rows given). */
  minRows?: number;
  /** Least columns of each sheet (default 26, or the widest row given). */
  minColumns?: number;
  /** The user's token and the sandbox's address in their settings (default the pro token); null: neither is set. */
  token?: string | null;
  /** The user who runs the panels (default USER; added to `users`). */
  user?: string;
  /** Options of the spreadsheet model (e.g. metadataFollowsSort). */
  spreadsheetOptions?: { metadataFollowsSort?: boolean };
}

/** Writes rows into a sheet from A1, padding short rows with empty cells. */
export function fillRows(spreadsheet: SpreadsheetModel, sheetName: string, rows: unknown[][]): void {
  if (rows.length === 0) return;
  const width = Math.max(...rows.map((row) => row.length));
  const padded = rows.map((row) => Array.from({ length: width }, (_, i) => (row[i] ?? '') as string | number));
  spreadsheet.sheet(sheetName).setValues(`A1:${columnLetter(width)}${rows.length}`, padded);
}

/** A runtime over the built bundle, its sheets filled, whose user reaches the sandbox at `url` with a token. */
export function runtimeFor(url: string, spec: RuntimeSpec = {}): GasRuntime {
  const {
    sheets = { Sheet1: [] },
    minRows = 1000,
    minColumns = 26,
    token = TOKEN,
    user = USER,
    spreadsheetOptions,
    ...options
  } = spec;
  const names = Object.keys(sheets);
  const longest = Math.max(0, ...names.map((name) => sheets[name].length));
  const widest = Math.max(minColumns, ...names.flatMap((name) => sheets[name].map((row) => row.length)));
  const spreadsheet = new SpreadsheetModel({
    rows: Math.max(minRows, longest + 50),
    columns: widest,
    sheetNames: names,
    ...spreadsheetOptions,
  });
  for (const name of names) fillRows(spreadsheet, name, sheets[name]);
  const users = [user, ...(options.users ?? []).filter((other) => other !== user)];
  const runtime = createRuntime({ bundlePath: BUNDLE, spreadsheet, ...options, users });
  if (token !== null) {
    runtime.properties.user(user).set(SETTINGS_KEYS.token, token);
    runtime.properties.user(user).set(SETTINGS_KEYS.baseUrl, url);
  }
  return runtime;
}

/**
 * The rows of one of the add-in's hidden sheets as its store wrote them: the header and data rows without the seal
 * column every hidden table starts with (src/shared/storage/sealed-table.ts). Empty when the sheet does not exist.
 */
export function hiddenRows(spreadsheet: SpreadsheetModel, name: string): unknown[][] {
  const sheet = spreadsheet.getSheet(name);
  return sheet ? sheet.getValues().map((row) => row.slice(1)) : [];
}
