// The emulated Apps Script runtime of one document (spreadsheet) of a project (project.ts): runs each call as one
// execution of the project's bundle in a fresh realm with the services installed (kind, user, authorization mode and
// time limit decide what works), fires installable triggers in this document, simulates opening the file and typing
// into cells, and has custom-function formulas evaluated after each execution (spreadsheet/custom-formulas.ts).
import vm from 'node:vm';
import type { Clock } from './clock';
import { GasError, GasExecutionError, Msg } from './errors';
import { AuthMode, Execution, ExecutionKind, ServiceCallInfo } from './execution';
import { acquireSharedHttpClient, releaseSharedHttpClient, SyncHttpClient } from './http/sync-http';
import { Realm } from './realm';
import { createLogging, createSession, createUtilities } from './services/basic';
import type { DocumentOptions, GasProject, ProjectOptions, ProjectShared, TriggerFireResult } from './project';
import type { QuotaUsage } from './quotas';
import { createCacheService } from './services/cache';
import { createHtmlService } from './services/html';
import { createLockService, lockKeys } from './services/lock';
import { createPropertiesService } from './services/properties';
import { createScriptApp } from './services/script-app';
import { createUrlFetchApp } from './services/url-fetch';
import { GridRect } from './spreadsheet/a1';
import { CustomFormulaEngine } from './spreadsheet/custom-formulas';
import { SheetModel, SpreadsheetModel } from './spreadsheet/model';
import { createSpreadsheetApp } from './spreadsheet/service';
import { createUi } from './spreadsheet/ui';
import { zonedFields } from './spreadsheet/values';
import { CacheStore } from './state/cache-store';
import { Counters, HttpLogEntry, Limits, LogEntry, ServiceContext, ServiceEnv } from './state/env';
import { PropertyStore } from './state/property-store';
import type { TriggerInfo } from './state/trigger-registry';
import { UiRecords } from './state/ui-records';
import { CLIENT_ROUND_TRIP, executionStartCost } from './costs';

/** Options of `createRuntime`: a project (bundle, clock, users, limits...) with one document. */
export type RuntimeOptions = ProjectOptions & DocumentOptions;

export interface RunOptions {
  kind?: ExecutionKind;
  user?: string;
  authMode?: AuthMode;
  /** The n-th service call of this execution throws "Exceeded maximum execution time". */
  killAtServiceCall?: number;
  /** Called before every service call of this execution (a test may start another execution here). */
  onServiceCall?: (call: ServiceCallInfo) => void;
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
  /** Runs without its document active (an add-on's timer, under the behaviours option). */
  documentless?: boolean;
}

interface InstalledServices {
  spreadsheet(): Record<string, unknown>;
  range(sheet: SheetModel, rect: GridRect): Record<string, unknown>;
  authMode(mode: AuthMode): unknown;
}

const INVOKE_SOURCE = `(function () {
  var call = globalThis.__gasRuntimeCall__;
  delete globalThis.__gasRuntimeCall__;
  return call.fn.apply(globalThis, call.args);
})()`;
const INVOKE_SCRIPT = new vm.Script(INVOKE_SOURCE, { filename: 'gas-runtime-invoke.js' });

/**
 * The real-time watchdog of an execution on a manual clock, as a multiple of its limit. Only modelled time counts
 * against the limit there, and real time can run well past it: the service's latency is real, the HTTP worker runs
 * at most 64 requests of a fetchAll at once where the cost model charges one round for all, and the emulator's own
 * work grows on a busy machine (a formula of 17 fetchAll rounds that models 19.5 s takes 27.6 s of real time on an
 * idle 2-core machine). The watchdog only has to stop a script that loops without calling services.
 */
const MANUAL_CLOCK_WATCHDOG_FACTOR = 3;

const defaultAuthMode = (kind: ExecutionKind): AuthMode =>
  kind === 'custom-function' ? 'CUSTOM_FUNCTION' : kind === 'simple-trigger' ? 'LIMITED' : 'FULL';

export class GasRuntime {
  /** The project this document belongs to (shared stores, triggers, quotas; `project.addDocument()` for more). */
  readonly project: GasProject<GasRuntime>;
  readonly spreadsheet: SpreadsheetModel;
  readonly clock: Clock;
  readonly limits: Limits;
  readonly users: string[];
  readonly owner: string;
  /** The project's counters (shared by its documents). */
  readonly counters: Counters;
  /** The project's request log (shared by its documents). */
  readonly httpLog: HttpLogEntry[];
  /** The project's log records (shared by its documents). */
  readonly logs: LogEntry[];
  readonly ui = new UiRecords();
  /** Script and user stores are the project's; the document store is this document's. */
  readonly properties: { script: PropertyStore; document: PropertyStore; user(email?: string): PropertyStore };
  /** Script and user caches are the project's; the document cache is this document's. */
  readonly cache: { script: CacheStore; document: CacheStore; user(email?: string): CacheStore };
  /** Installable triggers of this document (time-driven triggers created from it, spreadsheet triggers on it). */
  readonly triggers: {
    list(): TriggerInfo[];
    nextDueAt(): number | null;
    /** Fires every time-driven trigger of this document whose time (runtime clock) has come, once each, earliest first. */
    fireDue(): TriggerFireResult[];
    /** Deletes a trigger as its owner does in Apps Script's trigger list (or Google, when they revoke access). */
    remove(id: string): void;
  };
  readonly locks: {
    /** Holds a lock as "another process" until the returned function is called. */
    hold(kind: 'script' | 'document' | 'user', user?: string): () => void;
  };

  private readonly shared: ProjectShared;
  private readonly env: ServiceEnv;
  private readonly formulas: CustomFormulaEngine;
  private httpClient: SyncHttpClient | undefined;
  private depth = 0;

  constructor(project: GasProject<GasRuntime>, shared: ProjectShared, spreadsheet: SpreadsheetModel) {
    this.project = project;
    this.shared = shared;
    this.spreadsheet = spreadsheet;
    this.clock = shared.clock;
    this.limits = shared.limits;
    this.users = shared.users;
    this.owner = shared.owner;
    this.counters = shared.counters;
    this.httpLog = shared.httpLog;
    this.logs = shared.logs;
    this.properties = { script: shared.properties.script, document: new PropertyStore(), user: shared.properties.user };
    this.cache = { script: shared.caches.script, document: new CacheStore(this.clock), user: shared.caches.user };
    this.env = {
      clock: this.clock,
      limits: this.limits,
      addOn: shared.addOn,
      behaviours: shared.behaviours,
      hostRoutes: shared.hostRoutes,
      spreadsheet: this.spreadsheet,
      owner: this.owner,
      scriptId: shared.scriptId,
      timeZone: shared.timeZone ?? this.spreadsheet.timeZone,
      htmlDir: shared.htmlDir,
      properties: this.properties as ServiceEnv['properties'],
      caches: this.cache as ServiceEnv['caches'],
      locks: shared.locks,
      triggers: shared.triggers,
      http: () => (this.httpClient ??= acquireSharedHttpClient()),
      quotas: shared.quotas,
      counters: this.counters,
      httpLog: this.httpLog,
      logs: this.logs,
      echoLogs: shared.echoLogs,
      ui: this.ui,
    };
    this.formulas = new CustomFormulaEngine(
      this.spreadsheet,
      shared.functionNames,
      (name, args, formulaCell, user) =>
        this.execute({
          name,
          kind: 'custom-function',
          authMode: 'CUSTOM_FUNCTION',
          user,
          formulaCell,
          internal: true,
          args: (exec) => exec.realm.import(args) as unknown[],
        }),
      shared.behaviours.reuseIdenticalFormulaResults,
    );
    const mine = () => shared.triggers.list().filter((t) => t.documentId === this.spreadsheet.id);
    this.triggers = {
      list: mine,
      nextDueAt: () => {
        const times = mine()
          .filter((t) => t.eventType === 'CLOCK' && !t.spent && t.nextRunAt !== undefined)
          .map((t) => t.nextRunAt!);
        return times.length ? Math.min(...times) : null;
      },
      fireDue: () => project.fireDueTriggers(this.spreadsheet.id),
      remove: (id) => shared.triggers.remove(id),
    };
    this.locks = {
      hold: (kind, user = this.owner) => {
        const key =
          kind === 'script'
            ? lockKeys.script
            : kind === 'user'
              ? lockKeys.user(user)
              : lockKeys.document(this.spreadsheet.id);
        const holder = `host-${key}`;
        if (!shared.locks.tryAcquire(key, holder)) throw new Error(`Lock ${key} is already held`);
        return () => shared.locks.release(key, holder);
      },
    };
  }

  /** The project's daily quota usage of a user (default: the owner): `{ urlFetch, triggerRuntimeMs, propertyOps }`. */
  quotaUsage(email?: string): QuotaUsage {
    return this.project.quotaUsage(email);
  }

  /** Top-level functions the bundle declares. */
  get functions(): readonly string[] {
    return this.shared.functionNames;
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
        if (args.length === 0 && (kind === 'simple-trigger' || kind === 'trigger'))
          return [this.defaultEvent(name, kind, exec, parts, opts.user ?? this.owner)];
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
    if (this.shared.evaluateFormulas) this.recalculate({ all: true, user });
    let onOpenError: string | undefined;
    if (this.shared.functionNames.includes('onOpen')) {
      try {
        this.run('onOpen', [], { kind: 'simple-trigger', authMode: opts.authMode ?? 'LIMITED', user });
      } catch (error) {
        onOpenError = (error as Error).message;
      }
    }
    for (const t of this.triggers.list().filter((t) => t.eventType === 'ON_OPEN')) this.fireInstalledTrigger(t);
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
    if (this.shared.evaluateFormulas) this.recalculate({ user });
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
    if (this.shared.functionNames.includes('onEdit')) {
      try {
        this.execute({ name: 'onEdit', kind: 'simple-trigger', authMode: 'LIMITED', user, args: editEvent });
      } catch {
        // A failing simple trigger only shows in the execution log.
      }
    }
    for (const t of this.triggers.list().filter((t) => t.eventType === 'ON_EDIT')) {
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

  /** Releases the shared HTTP worker (stopped once no runtime has used it for a moment). */
  async close(): Promise<void> {
    const used = this.httpClient !== undefined;
    this.httpClient = undefined;
    if (used) releaseSharedHttpClient();
  }

  // ---------------------------------------------------------------- executions

  private limitFor(kind: ExecutionKind): number {
    if (kind === 'custom-function') return this.limits.customFunctionMs;
    if (kind === 'simple-trigger') return this.limits.simpleTriggerMs;
    return this.limits.executionMs;
  }

  private execute(spec: ExecutionSpec): unknown {
    const { running, quotas, limits } = this.shared;
    const runningForUser = running.get(spec.user) ?? 0;
    if (runningForUser >= limits.simultaneousExecutionsPerUser) {
      throw new GasExecutionError(Msg.tooManySimultaneous, 'Exception', undefined);
    }
    if (spec.kind === 'trigger' && quotas.begin(spec.user, 'triggerRuntimeMs') >= limits.triggerRuntimePerDayMs) {
      throw new GasExecutionError(Msg.triggerRuntimeQuota, 'Exception', undefined);
    }
    running.set(spec.user, runningForUser + 1);
    const exec = new Execution(this.shared.nextExecutionId(), this.clock, {
      kind: spec.kind,
      user: spec.user,
      authMode: spec.authMode,
      limitMs: this.limitFor(spec.kind),
      killAtServiceCall: spec.killAtServiceCall,
      onServiceCall: spec.onServiceCall,
      scopes: this.shared.scopes,
      ungranted: new Set(this.shared.ungranted.get(spec.user) ?? []),
      unauthorizedCalls: this.shared.behaviours.unauthorizedCalls,
      documentless: spec.documentless,
      codeFromStrings: this.shared.behaviours.codeFromStrings,
      startCostMs: executionStartCost(this.shared.bundleBytes) + (spec.kind === 'sidebar' ? CLIENT_ROUND_TRIP.ms : 0),
      onCharge: (label, ms) => {
        const entry = (this.counters.modelled.byLabel[label] ??= { count: 0, ms: 0 });
        entry.count++;
        entry.ms += ms;
      },
    });
    this.counters.executions++;
    this.depth++;
    // A real-time backstop for scripts that loop without calling services (the vm watchdog costs ~0.3 ms
    // per use, so only the call itself is guarded, not the bundle's top-level code): at the limit on the real clock,
    // where real time counts against it, and well past it on a manual clock, where only modelled time does.
    const watchdogMs = exec.limitMs * (this.clock.manual ? MANUAL_CLOCK_WATCHDOG_FACTOR : 1);
    const safetyTimeout = { timeout: Math.max(1000, Math.ceil(watchdogMs)) };
    try {
      const parts = this.install(exec, spec.formulaCell);
      this.shared.script.runInContext(exec.realm.context);
      const fn = exec.realm.global[spec.name];
      if (typeof fn !== 'function') throw new GasError(Msg.scriptFunctionNotFound(spec.name));
      Object.defineProperty(exec.realm.global, '__gasRuntimeCall__', {
        value: { fn, args: spec.args(exec, parts) },
        configurable: true,
      });
      const result = INVOKE_SCRIPT.runInContext(exec.realm.context, safetyTimeout);
      if (exec.killed || exec.elapsedMs() > exec.limitMs) throw exec.kill();
      return exec.realm.export(result, spec.kind === 'sidebar' ? 'rpc' : 'copy');
    } catch (error) {
      throw this.hostError(error, exec);
    } finally {
      // Writes still buffered are committed as the execution ends, in its time (costs.ts).
      if (!exec.killed) exec.commitSheetWrites();
      exec.ended = true;
      running.set(spec.user, (running.get(spec.user) ?? 1) - 1);
      if (spec.kind === 'trigger') quotas.add(spec.user, 'triggerRuntimeMs', exec.elapsedMs());
      const modelled = exec.modelledMs();
      this.counters.modelled.totalMs += modelled;
      this.counters.modelled.maxExecutionMs = Math.max(this.counters.modelled.maxExecutionMs, modelled);
      this.counters.modelled.lastExecutionMs = modelled;
      const log = this.counters.modelled.executions;
      log.push({ name: spec.name, kind: spec.kind, ms: modelled });
      if (log.length > 1000) log.splice(0, log.length - 1000);
      this.shared.locks.releaseAll(exec.id);
      if (!spec.internal) this.counters.urlFetch.lastExecution = exec.urlFetchCalls;
      this.depth--;
      if (this.depth === 0 && !this.formulas.busy) {
        if (this.shared.evaluateFormulas) this.recalculate({ user: spec.user });
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
      return new GasExecutionError(
        String(e.message ?? e),
        String(e.name ?? 'Error'),
        typeof e.stack === 'string' ? e.stack : undefined,
      );
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
    const ui = lazy(() => createUi(ctx, html().outputs, this.shared.addonName));
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
  private defaultEvent(
    name: string,
    kind: ExecutionKind,
    exec: Execution,
    parts: InstalledServices,
    user: string,
  ): unknown {
    const e = exec.realm.object();
    if (kind === 'simple-trigger' || name === 'onOpen' || name === 'onInstall') {
      Object.assign(e, {
        authMode: parts.authMode(exec.authMode),
        source: parts.spreadsheet(),
        user: this.userObject(exec, user),
      });
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

  /** Runs one installable trigger of this document as its owner (the project's `fireDueTriggers` calls this). */
  fireInstalledTrigger(trigger: TriggerInfo): TriggerFireResult {
    const fired = { handler: trigger.handler, triggerId: trigger.id, documentId: this.spreadsheet.id };
    try {
      this.execute({
        name: trigger.handler,
        kind: 'trigger',
        authMode: 'FULL',
        user: trigger.owner,
        documentless:
          trigger.eventType === 'CLOCK' && this.shared.addOn && !this.shared.behaviours.addOnTimerHasDocument,
        args: (exec, parts) => {
          const e = this.defaultEvent(trigger.handler, 'trigger', exec, parts, trigger.owner) as Record<
            string,
            unknown
          >;
          e.triggerUid = trigger.id;
          if (trigger.eventType === 'ON_OPEN') {
            e.source = parts.spreadsheet();
            e.user = this.userObject(exec, trigger.owner);
          }
          return [e];
        },
      });
      return { ...fired, ok: true };
    } catch (error) {
      return { ...fired, ok: false, error: (error as Error).message };
    }
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
