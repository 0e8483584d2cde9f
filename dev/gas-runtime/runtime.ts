// The emulated Apps Script runtime: loads the built bundle, runs each call as one execution in a fresh
// realm with the services installed (kind, user, authorization mode and time limit decide what works),
// fires installable triggers, simulates opening the file and typing into cells, and has custom-function
// formulas evaluated after each execution (spreadsheet/custom-formulas.ts).
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import * as acorn from 'acorn';
import { Clock, createRealClock } from './clock';
import { GasError, GasExecutionError, Msg } from './errors';
import { AuthMode, Execution, ExecutionKind, ServiceCallInfo } from './execution';
import { acquireSharedHttpClient, releaseSharedHttpClient, SyncHttpClient } from './http/sync-http';
import { Realm } from './realm';
import { createLogging, createSession, createUtilities } from './services/basic';
import { CacheStore, createCacheService } from './services/cache';
import { createHtmlService } from './services/html';
import { createLockService, lockKeys, LockRegistry } from './services/lock';
import { createPropertiesService, PropertyStore } from './services/properties';
import { createScriptApp, TriggerInfo, TriggerRegistry } from './services/script-app';
import { createUrlFetchApp, UrlFetchQuota } from './services/url-fetch';
import { GridRect } from './spreadsheet/a1';
import { CustomFormulaEngine } from './spreadsheet/custom-formulas';
import { SheetModel, SpreadsheetModel } from './spreadsheet/model';
import { createSpreadsheetApp } from './spreadsheet/service';
import { createUi, UiRecords } from './spreadsheet/ui';
import { zonedFields } from './spreadsheet/values';
import { Counters, createCounters, DEFAULT_LIMITS, HttpLogEntry, Limits, LogEntry, ServiceContext, ServiceEnv } from './state';

export interface RuntimeOptions {
  /** Built bundle to load (default <repo>/dist/Code.js). */
  bundlePath?: string;
  /** Bundle source text instead of a file (tests). */
  bundleSource?: string;
  /** Directory of the HTML files (default: the bundle's directory). */
  htmlDir?: string;
  /** Default: a new spreadsheet with one sheet 'Sheet1'. */
  spreadsheet?: SpreadsheetModel;
  /** Default: the real clock. */
  clock?: Clock;
  /** Known user emails; the first owns the spreadsheet and is the default executing user. */
  users?: string[];
  limits?: Partial<Limits>;
  /**
   * Run the bundle as a published editor add-on (default false): ScriptApp then allows one time-driven trigger per
   * user per document and runs time-driven triggers at most hourly (everyMinutes(n) and after(ms) are clamped).
   */
  addOn?: boolean;
  scriptId?: string;
  /** Script time zone (Session.getScriptTimeZone, trigger schedules). Default: the spreadsheet's. */
  timeZone?: string;
  /** Caption of the add-on menu (createAddonMenu). */
  addonName?: string;
  /** Also print Logger/console output to stderr. */
  echoLogs?: boolean;
  /** Evaluate custom-function formulas after each execution and user edit (default true). */
  evaluateFormulas?: boolean;
}

export interface RunOptions {
  kind?: ExecutionKind;
  user?: string;
  authMode?: AuthMode;
  /** The n-th service call of this execution throws "Exceeded maximum execution time". */
  killAtServiceCall?: number;
  /** Called before every service call of this execution (a test may start another execution here). */
  onServiceCall?: (call: ServiceCallInfo) => void;
}

export interface TriggerFireResult {
  handler: string;
  triggerId: string;
  ok: boolean;
  error?: string;
}

interface ExecutionSpec extends RunOptions {
  name: string;
  kind: ExecutionKind;
  authMode: AuthMode;
  user: string;
  /** Builds the arguments inside the execution (events need the execution's own enums and objects). */
  args: (exec: Execution, parts: InstalledServices) => unknown[];
  formulaCell?: { sheet: SheetModel; row: number; column: number };
  /** Launched by formula recalculation: does not overwrite `counters.urlFetch.lastExecution`. */
  internal?: boolean;
}

interface InstalledServices {
  spreadsheet(): Record<string, unknown>;
  range(sheet: SheetModel, rect: GridRect): Record<string, unknown>;
  authMode(mode: AuthMode): unknown;
}

const DEFAULT_BUNDLE = path.resolve(__dirname, '../../dist/Code.js');
const INVOKE_SOURCE = `(function () {
  var call = globalThis.__gasRuntimeCall__;
  delete globalThis.__gasRuntimeCall__;
  return call.fn.apply(globalThis, call.args);
})()`;
const INVOKE_SCRIPT = new vm.Script(INVOKE_SOURCE, { filename: 'gas-runtime-invoke.js' });

/** Top-level `function name() {}` declarations of a script (what Apps Script can call). */
function topLevelFunctions(source: string): string[] {
  const program = acorn.parse(source, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true }) as unknown as {
    body: Array<{ type: string; id?: { name: string } }>;
  };
  return program.body.filter((n) => n.type === 'FunctionDeclaration' && n.id).map((n) => n.id!.name);
}

/** Compiled bundles by file name and text: many runtimes over one bundle parse and compile it once. */
const bundleCache = new Map<string, { script: vm.Script; functions: string[] }>();
const BUNDLE_CACHE_SIZE = 8;

function loadBundle(source: string, filename: string): { script: vm.Script; functions: string[] } {
  const key = `${filename}\0${source}`;
  let entry = bundleCache.get(key);
  if (!entry) {
    entry = { script: new vm.Script(source, { filename }), functions: topLevelFunctions(source) };
    bundleCache.set(key, entry);
    if (bundleCache.size > BUNDLE_CACHE_SIZE) bundleCache.delete(bundleCache.keys().next().value!);
  }
  return entry;
}

const defaultAuthMode = (kind: ExecutionKind): AuthMode =>
  kind === 'custom-function' ? 'CUSTOM_FUNCTION' : kind === 'simple-trigger' ? 'LIMITED' : 'FULL';

export class GasRuntime {
  readonly spreadsheet: SpreadsheetModel;
  readonly clock: Clock;
  readonly limits: Limits;
  readonly users: string[];
  readonly owner: string;
  readonly counters: Counters;
  readonly httpLog: HttpLogEntry[] = [];
  readonly logs: LogEntry[] = [];
  readonly ui = new UiRecords();
  readonly properties: { script: PropertyStore; document: PropertyStore; user(email?: string): PropertyStore };
  readonly cache: { script: CacheStore; document: CacheStore; user(email?: string): CacheStore };
  readonly triggers: {
    list(): TriggerInfo[];
    nextDueAt(): number | null;
    /** Fires every time-driven trigger whose time (runtime clock) has come, once each, earliest first. */
    fireDue(): TriggerFireResult[];
  };
  readonly locks: {
    /** Holds a lock as "another process" until the returned function is called. */
    hold(kind: 'script' | 'document' | 'user', user?: string): () => void;
  };

  private readonly script: vm.Script;
  private readonly functionNames: string[];
  private readonly env: ServiceEnv;
  private readonly lockRegistry = new LockRegistry();
  private readonly triggerRegistry = new TriggerRegistry();
  private readonly formulas: CustomFormulaEngine;
  private readonly evaluateFormulas: boolean;
  private readonly addonName: string;
  private httpClient: SyncHttpClient | undefined;
  private nextExecutionId = 0;
  private depth = 0;

  constructor(options: RuntimeOptions = {}) {
    const bundlePath = options.bundlePath ?? DEFAULT_BUNDLE;
    let source = options.bundleSource;
    if (source === undefined) {
      if (!fs.existsSync(bundlePath)) throw new Error(`Bundle not found: ${bundlePath} (run the build first)`);
      source = fs.readFileSync(bundlePath, 'utf8');
    }
    const bundle = loadBundle(source, options.bundleSource === undefined ? bundlePath : 'Code.js');
    this.script = bundle.script;
    this.functionNames = bundle.functions;
    this.spreadsheet = options.spreadsheet ?? new SpreadsheetModel();
    this.clock = options.clock ?? createRealClock();
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.users = options.users?.length ? [...options.users] : ['owner@example.com'];
    this.owner = this.users[0];
    this.evaluateFormulas = options.evaluateFormulas !== false;
    this.addonName = options.addonName ?? 'Add-on';
    const quota = new UrlFetchQuota(() => this.clock.now());
    this.counters = createCounters(() => quota.usedToday());
    const perUser = <T>(make: () => T) => {
      const stores = new Map<string, T>();
      return (email: string = this.owner) => {
        let store = stores.get(email);
        if (!store) stores.set(email, (store = make()));
        return store;
      };
    };
    this.properties = { script: new PropertyStore(), document: new PropertyStore(), user: perUser(() => new PropertyStore()) };
    this.cache = { script: new CacheStore(this.clock), document: new CacheStore(this.clock), user: perUser(() => new CacheStore(this.clock)) };
    this.env = {
      clock: this.clock,
      limits: this.limits,
      addOn: options.addOn === true,
      spreadsheet: this.spreadsheet,
      owner: this.owner,
      scriptId: options.scriptId ?? '1EmulatedScriptIdForSheetScout000000000000000000000000',
      timeZone: options.timeZone ?? this.spreadsheet.timeZone,
      htmlDir: options.htmlDir ?? path.dirname(bundlePath),
      properties: this.properties as ServiceEnv['properties'],
      caches: this.cache as ServiceEnv['caches'],
      locks: this.lockRegistry,
      triggers: this.triggerRegistry,
      http: () => (this.httpClient ??= acquireSharedHttpClient()),
      urlFetchQuota: quota,
      counters: this.counters,
      httpLog: this.httpLog,
      logs: this.logs,
      echoLogs: options.echoLogs === true,
      ui: this.ui,
    };
    this.formulas = new CustomFormulaEngine(this.spreadsheet, this.functionNames, (name, args, formulaCell, user) =>
      this.execute({
        name,
        kind: 'custom-function',
        authMode: 'CUSTOM_FUNCTION',
        user,
        formulaCell,
        internal: true,
        args: (exec) => exec.realm.import(args) as unknown[],
      }),
    );
    this.triggers = {
      list: () => this.triggerRegistry.list(),
      nextDueAt: () => this.triggerRegistry.nextDueAt(),
      fireDue: () => this.fireDueTriggers(),
    };
    this.locks = {
      hold: (kind, user = this.owner) => {
        const key = kind === 'script' ? lockKeys.script : kind === 'user' ? lockKeys.user(user) : lockKeys.document(this.spreadsheet.id);
        const holder = `host-${key}`;
        if (!this.lockRegistry.tryAcquire(key, holder)) throw new Error(`Lock ${key} is already held`);
        return () => this.lockRegistry.release(key, holder);
      },
    };
  }

  /** Top-level functions the bundle declares. */
  get functions(): readonly string[] {
    return this.functionNames;
  }

  /**
   * Runs one global function as one execution. Arguments are deep-copied into the execution (for
   * 'sidebar' calls with google.script.run's rules: no Dates or functions, private `name_` functions
   * refused; the result comes back with Dates as null). Throws GasExecutionError when the execution fails.
   */
  run<T = unknown>(name: string, args: unknown[] = [], opts: RunOptions = {}): T {
    const kind = opts.kind ?? 'menu';
    if (kind === 'sidebar') {
      if (name.endsWith('_')) throw new GasExecutionError(Msg.scriptFunctionNotFound(name), 'Exception', undefined);
      try {
        Realm.assertRpcArguments(args);
      } catch (error) {
        throw new GasExecutionError((error as Error).message, 'Error', undefined);
      }
    }
    return this.execute({
      ...opts,
      name,
      kind,
      authMode: opts.authMode ?? defaultAuthMode(kind),
      user: opts.user ?? this.owner,
      args: (exec, parts) => {
        if (args.length === 0 && (kind === 'simple-trigger' || kind === 'trigger')) return [this.defaultEvent(name, kind, exec, parts, opts.user ?? this.owner)];
        return exec.realm.import(args) as unknown[];
      },
    }) as T;
  }

  /**
   * Simulates a user opening the file: every custom formula is evaluated again, the simple `onOpen`
   * trigger runs (AuthMode LIMITED by default, NONE when the add-on is only installed), and installable
   * on-open triggers fire. Returns the onOpen error message, if it failed.
   */
  open(opts: { user?: string; authMode?: AuthMode } = {}): { onOpenError?: string } {
    const user = opts.user ?? this.owner;
    if (this.evaluateFormulas) this.recalculate({ all: true, user });
    let onOpenError: string | undefined;
    if (this.functionNames.includes('onOpen')) {
      try {
        this.run('onOpen', [], { kind: 'simple-trigger', authMode: opts.authMode ?? 'LIMITED', user });
      } catch (error) {
        onOpenError = (error as Error).message;
      }
    }
    for (const t of this.triggerRegistry.list().filter((t) => t.eventType === 'ON_OPEN')) this.fireTrigger(t);
    return { onOpenError };
  }

  /**
   * Simulates a user typing `text` into a cell ("Sheet1!B2" or "B2" on the active sheet): typed-input
   * parsing, recalculation of dependent custom formulas, then the simple `onEdit` trigger and installable
   * on-edit triggers.
   */
  userEdit(a1: string, text: string, opts: { user?: string } = {}): void {
    const user = opts.user ?? this.owner;
    const { sheet, rect } = this.spreadsheet.resolve(a1);
    const oldValue = sheet.cell(rect.row, rect.column)?.value ?? '';
    sheet.typeInto(rect, text);
    if (this.evaluateFormulas) this.recalculate({ user });
    const editEvent = (exec: Execution, parts: InstalledServices) => {
      const e = exec.realm.object();
      Object.assign(e, {
        authMode: parts.authMode('LIMITED'),
        range: parts.range(sheet, { row: rect.row, column: rect.column, numRows: 1, numColumns: 1 }),
        source: parts.spreadsheet(),
        user: this.userObject(exec, user),
        value: text,
        oldValue: exec.realm.import(oldValue),
      });
      return [e];
    };
    if (this.functionNames.includes('onEdit')) {
      try {
        this.execute({ name: 'onEdit', kind: 'simple-trigger', authMode: 'LIMITED', user, args: editEvent });
      } catch {
        // A failing simple trigger only shows in the execution log.
      }
    }
    for (const t of this.triggerRegistry.list().filter((t) => t.eventType === 'ON_EDIT')) {
      try {
        this.execute({ name: t.handler, kind: 'trigger', authMode: 'FULL', user: t.owner, args: editEvent });
      } catch {
        // Failures of installable triggers are reported to their owner by email, not to the editor.
      }
    }
  }

  /** Runs the function behind a menu item, found by captions (menu, then item, then sub-items). */
  clickMenuItem(...captions: string[]): unknown {
    const item = this.ui.findMenuItem(...captions);
    if (!item?.functionName) throw new Error(`No menu item ${captions.join(' > ')}`);
    return this.run(item.functionName, [], { kind: 'menu' });
  }

  /** Releases the shared HTTP worker (stopped when no runtime uses it any more). */
  async close(): Promise<void> {
    const used = this.httpClient !== undefined;
    this.httpClient = undefined;
    if (used) await releaseSharedHttpClient();
  }

  // ---------------------------------------------------------------- executions

  private limitFor(kind: ExecutionKind): number {
    if (kind === 'custom-function') return this.limits.customFunctionMs;
    if (kind === 'simple-trigger') return this.limits.simpleTriggerMs;
    return this.limits.executionMs;
  }

  private execute(spec: ExecutionSpec): unknown {
    const exec = new Execution(++this.nextExecutionId, this.clock, {
      kind: spec.kind,
      user: spec.user,
      authMode: spec.authMode,
      limitMs: this.limitFor(spec.kind),
      killAtServiceCall: spec.killAtServiceCall,
      onServiceCall: spec.onServiceCall,
    });
    this.counters.executions++;
    this.depth++;
    // A real-time backstop for scripts that loop without calling services (the vm watchdog costs ~0.3 ms
    // per use, so only the call itself is guarded, not the bundle's top-level code).
    const safetyTimeout = { timeout: Math.max(1000, Math.ceil(exec.limitMs)) };
    try {
      const parts = this.install(exec, spec.formulaCell);
      this.script.runInContext(exec.realm.context);
      const fn = exec.realm.global[spec.name];
      if (typeof fn !== 'function') throw new GasError(Msg.scriptFunctionNotFound(spec.name));
      Object.defineProperty(exec.realm.global, '__gasRuntimeCall__', { value: { fn, args: spec.args(exec, parts) }, configurable: true });
      const result = INVOKE_SCRIPT.runInContext(exec.realm.context, safetyTimeout);
      if (exec.killed || exec.elapsedMs() > exec.limitMs) throw exec.kill();
      return exec.realm.export(result, spec.kind === 'sidebar' ? 'rpc' : 'copy');
    } catch (error) {
      throw this.hostError(error, exec);
    } finally {
      exec.ended = true;
      this.lockRegistry.releaseAll(exec.id);
      if (!spec.internal) this.counters.urlFetch.lastExecution = exec.urlFetchCalls;
      this.depth--;
      if (this.depth === 0 && !this.formulas.busy) {
        if (this.evaluateFormulas) this.recalculate({ user: spec.user });
        else this.spreadsheet.drainEdits();
      }
    }
  }

  private hostError(error: unknown, exec: Execution): GasExecutionError {
    if (error instanceof GasExecutionError) return error;
    const timedOut = exec.killed || (error as { code?: string })?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
    if (timedOut) return new GasExecutionError(Msg.exceededTime, 'Exception', (error as Error)?.stack, true);
    if (error instanceof GasError) return new GasExecutionError(error.message, error.gasName, undefined);
    const e = error as { name?: unknown; message?: unknown; stack?: unknown } | null;
    if (e !== null && typeof e === 'object') {
      return new GasExecutionError(String(e.message ?? e), String(e.name ?? 'Error'), typeof e.stack === 'string' ? e.stack : undefined);
    }
    return new GasExecutionError(String(error), 'Error', undefined);
  }

  /** Puts the services on the execution's global object (created on first use). */
  private install(exec: Execution, formulaCell: ExecutionSpec['formulaCell']): InstalledServices {
    const ctx: ServiceContext = { env: this.env, exec };
    const global = exec.realm.global;
    const lazy = <T>(make: () => T) => {
      let value: T | undefined;
      return () => (value ??= make());
    };
    const html = lazy(() => createHtmlService(ctx));
    const ui = lazy(() => createUi(ctx, html().outputs, this.addonName));
    const sheets = lazy(() => createSpreadsheetApp(ctx, { formulaCell, ui }));
    const scriptApp = lazy(() => createScriptApp(ctx));
    const logging = lazy(() => createLogging(ctx));
    const services: Record<string, () => unknown> = {
      SpreadsheetApp: () => sheets().app,
      UrlFetchApp: lazy(() => createUrlFetchApp(ctx)),
      PropertiesService: lazy(() => createPropertiesService(ctx)),
      CacheService: lazy(() => createCacheService(ctx)),
      LockService: lazy(() => createLockService(ctx)),
      ScriptApp: scriptApp,
      HtmlService: () => html().service,
      Session: lazy(() => createSession(ctx)),
      Utilities: lazy(() => createUtilities(ctx)),
      Logger: () => logging().Logger,
      console: () => logging().console,
    };
    for (const [name, get] of Object.entries(services)) {
      let replaced: { value: unknown } | undefined;
      Object.defineProperty(global, name, {
        configurable: true,
        enumerable: false,
        get: () => (replaced ? replaced.value : get()),
        set: (value: unknown) => {
          replaced = { value };
        },
      });
    }
    return {
      spreadsheet: () => sheets().spreadsheet(),
      range: (sheet, rect) => sheets().range(sheet, rect),
      authMode: (mode) => (scriptApp().AuthMode as Record<string, unknown>)[mode],
    };
  }

  private userObject(exec: Execution, email: string): Record<string, unknown> {
    const user = exec.realm.object();
    Object.defineProperty(user, 'getEmail', { value: () => (exec.activeUserEmail() === '' ? '' : email) });
    Object.defineProperty(user, 'toString', { value: () => 'User' });
    return user;
  }

  /** Event object Apps Script passes to a trigger function called without explicit arguments. */
  private defaultEvent(name: string, kind: ExecutionKind, exec: Execution, parts: InstalledServices, user: string): unknown {
    const e = exec.realm.object();
    if (kind === 'simple-trigger' || name === 'onOpen' || name === 'onInstall') {
      Object.assign(e, { authMode: parts.authMode(exec.authMode), source: parts.spreadsheet(), user: this.userObject(exec, user) });
      return e;
    }
    const now = this.clock.now();
    const f = zonedFields(now, 'UTC');
    const startOfYear = Date.UTC(f.year, 0, 1);
    Object.assign(e, {
      authMode: parts.authMode('FULL'),
      year: f.year,
      month: f.month,
      'day-of-month': f.day,
      'day-of-week': f.weekday === 0 ? 7 : f.weekday,
      'week-of-year': Math.floor((now - startOfYear) / (7 * 86_400_000)) + 1,
      hour: f.hour,
      minute: f.minute,
      second: f.second,
      timezone: 'UTC',
    });
    return e;
  }

  // ---------------------------------------------------------------- triggers

  private fireTrigger(trigger: TriggerInfo): TriggerFireResult {
    try {
      this.execute({
        name: trigger.handler,
        kind: 'trigger',
        authMode: 'FULL',
        user: trigger.owner,
        args: (exec, parts) => {
          const e = this.defaultEvent(trigger.handler, 'trigger', exec, parts, trigger.owner) as Record<string, unknown>;
          e.triggerUid = trigger.id;
          if (trigger.eventType === 'ON_OPEN') {
            e.source = parts.spreadsheet();
            e.user = this.userObject(exec, trigger.owner);
          }
          return [e];
        },
      });
      return { handler: trigger.handler, triggerId: trigger.id, ok: true };
    } catch (error) {
      return { handler: trigger.handler, triggerId: trigger.id, ok: false, error: (error as Error).message };
    }
  }

  private fireDueTriggers(): TriggerFireResult[] {
    const results: TriggerFireResult[] = [];
    const fired = new Set<string>();
    for (;;) {
      const now = this.clock.now();
      const next = this.triggerRegistry.due(now).find((t) => !fired.has(t.id));
      if (!next) break;
      fired.add(next.id);
      const record = this.triggerRegistry.record(next.id)!;
      if (record.oneShot) record.spent = true;
      else {
        // Missed periods are skipped: the trigger runs once now and is next due one interval later.
        while (record.nextRunAt! <= now) record.nextRunAt! += record.intervalMs!;
      }
      results.push(this.fireTrigger(next));
    }
    return results;
  }

  // ---------------------------------------------------------------- custom formulas

  /**
   * Evaluates custom-function formulas touched by edits since the last call (runs automatically after
   * each execution); with `all`, every custom formula ("reopening the file").
   */
  recalculate(opts: { all?: boolean; user?: string } = {}): void {
    this.formulas.recalculate({ all: opts.all, user: opts.user ?? this.owner });
  }
}
