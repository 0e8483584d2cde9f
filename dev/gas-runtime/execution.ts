// One Apps Script execution (a custom-function call, a menu click, a google.script.run call, a trigger):
// its realm, identity and authorization mode, and the accounting every service call goes through —
// counting, the time limit (Google's "Exceeded maximum execution time" at the next service call past the
// limit, or at the n-th call when a test asks for a kill), the permission rules of each mode, the scopes the
// manifest declares (scopes.ts), the modelled time (costs.ts: the execution's start, each call, what the services
// charge on top), and a hook that lets a test start a second execution while this one is inside a service call.
import { Clock } from './clock';
import { GasError, Msg } from './errors';
import { checkGrant, checkScopes, SCOPE } from './scopes';
import { callCost, commitCost, cpuCost } from './costs';
import { FacadeClass, Realm } from './realm';

export type ExecutionKind = 'custom-function' | 'menu' | 'sidebar' | 'trigger' | 'simple-trigger';
export type AuthMode = 'NONE' | 'LIMITED' | 'FULL' | 'CUSTOM_FUNCTION';

/** What a service call hook learns about the call that is about to happen. */
export interface ServiceCallInfo {
  executionId: number;
  /** 1-based number of this service call within its execution. */
  index: number;
  service: string;
  method: string;
}

export interface ExecutionOptions {
  kind: ExecutionKind;
  user: string;
  authMode: AuthMode;
  limitMs: number;
  killAtServiceCall?: number;
  onServiceCall?: (call: ServiceCallInfo) => void;
  /** The scopes the manifest declares (null: none listed, Google detects them and every call is allowed). */
  scopes: ReadonlySet<string> | null;
  /** Declared scopes the executing user has not granted (a newer version added them), and how a trigger meets them. */
  ungranted?: ReadonlySet<string>;
  unauthorizedCalls?: 'missing-scope' | 'any-scope';
  /** The execution runs without its document active (an add-on's timer, under the behaviours option). */
  documentless?: boolean;
  /** Whether `eval` and `new Function` may build code (the behaviours option; default true). */
  codeFromStrings?: boolean;
  /** Modelled time charged before the script runs (loading the bundle, the panel's round trip). */
  startCostMs?: number;
  /** Told of each charge, by what it was for ('Class.method', 'sheet.read', 'urlfetch', 'start'...). */
  onCharge?: (label: string, ms: number) => void;
}

/** Kinds of access the authorization modes grant or refuse. */
export type Capability =
  'sheet.read' | 'sheet.write' | 'ui' | 'ui.dialog' | 'properties' | 'cache' | 'urlfetch' | 'triggers';

export class Execution {
  readonly realm: Realm;
  readonly kind: ExecutionKind;
  readonly authMode: AuthMode;
  readonly user: string;
  readonly limitMs: number;
  readonly startedAt: number;
  /** No document is active: getActive(), getDocumentProperties(), getDocumentCache() and getDocumentLock() are null. */
  readonly documentless: boolean;
  serviceCalls = 0;
  urlFetchCalls = 0;
  /** Time the execution would have spent blocked without the clock moving (lock waits on a real clock). */
  virtualMs = 0;
  /** Modelled time charged so far (costs.ts); on a manual clock it has moved the clock too. */
  private modelled = 0;
  /** Charged time not yet on the manual clock (it moves in whole milliseconds, as Date.now() reads them). */
  private unclocked = 0;
  /** Sheet writes are buffered: the next read or flush() commits them first (a charge that grows with their cells). */
  sheetWritesPending = false;
  /** Cells written since the last commit. */
  pendingWriteCells = 0;
  /** Set once the time limit struck; every later service call fails the same way. */
  killed = false;
  ended = false;
  private readonly classes = new Map<string, FacadeClass<object>>();

  constructor(
    readonly id: number,
    private readonly clock: Clock,
    private readonly options: ExecutionOptions,
  ) {
    this.kind = options.kind;
    this.authMode = options.authMode;
    this.user = options.user;
    this.limitMs = options.limitMs;
    this.documentless = options.documentless === true;
    this.startedAt = clock.now();
    this.realm = new Realm(
      () => clock.now(),
      options.codeFromStrings !== false,
      (kind, amount) => this.charge(cpuCost(kind, amount), `cpu.${kind}`),
    );
    this.charge(options.startCostMs ?? 0, 'start');
  }

  /** Adds modelled time; on a manual clock the time passes (the bundle's Date.now() moves with it). */
  /** Commits the buffered sheet writes (if any), charged by the cells written since the last commit (costs.ts). */
  commitSheetWrites(flush = false): void {
    if (this.sheetWritesPending) this.charge(commitCost(this.pendingWriteCells), 'sheet.commit');
    else if (flush) this.charge(commitCost(0), 'sheet.commit');
    this.sheetWritesPending = false;
    this.pendingWriteCells = 0;
  }

  charge(ms: number, label: string): void {
    if (!(ms > 0)) return;
    this.modelled += ms;
    if (this.clock.manual) {
      this.unclocked += ms;
      const whole = Math.floor(this.unclocked);
      this.unclocked -= whole;
      this.clock.sleep(whole);
    }
    this.options.onCharge?.(label, ms);
  }

  /** Time spent waiting (Utilities.sleep, a lock): passes on a manual clock, blocks or is virtual on a real one. */
  waited(ms: number, clockMoved: boolean): void {
    if (!(ms > 0)) return;
    this.options.onCharge?.('wait', ms);
    if (this.clock.manual) {
      if (!clockMoved) this.clock.sleep(ms);
    } else if (!clockMoved) this.virtualMs += ms;
    this.modelled += ms;
  }

  /** The execution's modelled time so far (deterministic: the same run gives the same figure). */
  modelledMs(): number {
    return this.clock.manual ? this.clock.now() - this.startedAt : this.modelled;
  }

  /** Time against the limits: the modelled time, or the real time when that is longer (a real clock). */
  elapsedMs(): number {
    return Math.max(this.clock.now() - this.startedAt + this.virtualMs, this.modelledMs());
  }

  /** Whether the execution runs on a manual clock, where only modelled time counts. */
  get manualClock(): boolean {
    return this.clock.manual;
  }

  remainingMs(): number {
    return Math.max(0, this.limitMs - this.elapsedMs());
  }

  /** Declared scopes the executing user has not granted: getAuthorizationInfo(FULL) says REQUIRED while any are. */
  get ungrantedScopes(): ReadonlySet<string> {
    return this.options.ungranted ?? new Set();
  }

  /** Marks the execution as out of time and returns the error to throw. */
  kill(): GasError {
    this.killed = true;
    return new GasError(Msg.exceededTime);
  }

  /** Runs one service call: accounting, limits, the test hook, then the call; errors become context errors. */
  invoke(service: string, method: string, call: () => unknown): unknown {
    try {
      if (this.killed) throw new GasError(Msg.exceededTime);
      this.serviceCalls++;
      if (this.options.killAtServiceCall === this.serviceCalls) throw this.kill();
      this.charge(callCost(service, method), `${service}.${method}`);
      if (this.elapsedMs() > this.limitMs) throw this.kill();
      if (this.authMode !== 'CUSTOM_FUNCTION') checkScopes(service, method, this.options.scopes);
      if (this.kind === 'trigger' && this.options.ungranted)
        checkGrant(service, method, this.options.ungranted, this.options.unauthorizedCalls ?? 'missing-scope');
      this.options.onServiceCall?.({ executionId: this.id, index: this.serviceCalls, service, method });
      return this.realm.import(call());
    } catch (error) {
      throw this.toContextError(error);
    }
  }

  /** Service errors become `Exception`s of the context realm; other host errors keep their name. */
  toContextError(error: unknown): unknown {
    if (error instanceof GasError) return this.realm.exception(error.message, error.gasName);
    if (error instanceof Error) return this.realm.exception(error.message, error.name);
    return error;
  }

  /** The facade class of this execution with the given name (defined once per execution). */
  define<T extends object>(
    className: string,
    methods: { [name: string]: (this: T, ...args: never[]) => unknown },
  ): FacadeClass<T> {
    let cls = this.classes.get(className);
    if (!cls) {
      cls = new FacadeClass<T>(
        this.realm,
        (s, m, call) => this.invoke(s, m, call),
        className,
        methods,
      ) as unknown as FacadeClass<object>;
      this.classes.set(className, cls);
    }
    return cls as unknown as FacadeClass<T>;
  }

  /** The host implementation behind a facade of the named class of this execution, if it is one. */
  unwrap<T extends object>(className: string, facade: unknown): T | undefined {
    return this.classes.get(className)?.unwrap(facade) as T | undefined;
  }

  /** Throws Google's refusal when this execution's mode does not allow `capability`. */
  require(capability: Capability, service: string, method: string): void {
    const mode = this.authMode;
    const qualified = `${service}.${method}`;
    switch (capability) {
      case 'sheet.read':
        if (mode === 'NONE') throw new GasError(Msg.noPermissionScope(qualified, SCOPE.spreadsheetsCurrentOnly));
        return;
      case 'sheet.write':
        if (mode === 'NONE') throw new GasError(Msg.noPermissionScope(qualified, SCOPE.spreadsheetsCurrentOnly));
        if (mode === 'CUSTOM_FUNCTION') throw new GasError(Msg.noPermission(method));
        return;
      case 'ui':
        if (mode === 'CUSTOM_FUNCTION' || this.kind === 'trigger') throw new GasError(Msg.uiContext);
        return;
      case 'ui.dialog':
        if (mode === 'NONE' || mode === 'LIMITED')
          throw new GasError(Msg.noPermissionScope(qualified, SCOPE.containerUi));
        return;
      case 'properties':
      case 'cache':
        if (mode === 'NONE') throw new GasError(Msg.noPermission(qualified));
        return;
      case 'urlfetch':
        if (mode === 'NONE' || mode === 'LIMITED')
          throw new GasError(Msg.noPermissionScope(qualified, SCOPE.externalRequest));
        return;
      case 'triggers':
        if (mode === 'CUSTOM_FUNCTION') throw new GasError(Msg.noPermission(qualified));
        if (mode === 'NONE' || mode === 'LIMITED')
          throw new GasError(Msg.noPermissionScope(qualified, SCOPE.scriptApp));
        return;
    }
  }

  /** Email Session.getActiveUser() reports: empty where Google withholds identity. */
  activeUserEmail(): string {
    if (this.authMode === 'CUSTOM_FUNCTION' || this.authMode === 'NONE' || this.kind === 'simple-trigger') return '';
    return this.user;
  }

  /** Email Session.getEffectiveUser() reports. */
  effectiveUserEmail(): string {
    return this.authMode === 'CUSTOM_FUNCTION' || this.authMode === 'NONE' ? '' : this.user;
  }
}
