// One Apps Script project used from several documents: the bundle, the clock, the users, what every document of
// the project shares (script and user properties, script and user caches, the installable-trigger registry, locks,
// per-user daily quotas and simultaneous executions, counters, request and log records) and the documents
// themselves, one GasRuntime per spreadsheet (document properties, document cache and lock, the spreadsheet and its
// UI). `createRuntime(options)` is a project with one document.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { compileBundle } from './bundle-cache';
import { Clock, createRealClock } from './clock';
import { DAILY_QUOTAS, DailyQuotaMeter, QuotaLevel, QuotaUsage } from './quotas';
import { SpreadsheetModel } from './spreadsheet/model';
import { type Behaviours, DEFAULT_BEHAVIOURS } from './state/behaviours';
import { CacheStore } from './state/cache-store';
import { Counters, createCounters, DEFAULT_LIMITS, HttpLogEntry, Limits, LogEntry } from './state/env';
import { LockRegistry } from './state/lock-registry';
import { PropertyStore } from './state/property-store';
import { TriggerInfo, TriggerRegistry } from './state/trigger-registry';

export interface ProjectOptions {
  /** Built bundle to load (default <repo>/dist/Code.js). */
  bundlePath?: string;
  /** Bundle source text instead of a file (tests). */
  bundleSource?: string;
  /** Directory of the HTML files (default: the bundle's directory). */
  htmlDir?: string;
  /** Default: the real clock. */
  clock?: Clock;
  /** Known user emails; the first owns the spreadsheets and the script and is the default executing user. */
  users?: string[];
  /** Daily quota figures per user (default 'consumer'); `limits` set explicitly win. */
  quotas?: QuotaLevel;
  limits?: Partial<Limits>;
  /**
   * Run the bundle as a published editor add-on (default false): ScriptApp then allows one time-driven trigger per
   * user per document and runs time-driven triggers at most hourly (everyMinutes(n) and after(ms) are clamped).
   */
  addOn?: boolean;
  scriptId?: string;
  /** Script time zone (Session.getScriptTimeZone, trigger schedules). Default: each document's spreadsheet's. */
  timeZone?: string;
  /** Caption of the add-on menu (createAddonMenu). */
  addonName?: string;
  /** Also print Logger/console output to stderr. */
  echoLogs?: boolean;
  /** Evaluate custom-function formulas after each execution and user edit (default true). */
  evaluateFormulas?: boolean;
  /**
   * The project's manifest (default: `appsscript.json` beside the bundle, when there is one). Its `oauthScopes`, when
   * listed, are the only scopes the bundle's service calls may use (scopes.ts).
   */
  manifest?: Manifest | null;
  /** Undocumented behaviours (default DEFAULT_BEHAVIOURS). */
  behaviours?: Partial<Behaviours>;
  /**
   * UrlFetch host routes, as a hosts file would set them: a request to an origin listed here (say
   * `https://hooks.slack.com`) is sent to the base URL given for it instead (`http://127.0.0.1:8787/webhooks/slack`),
   * its path and query kept; the script, the request log and error texts see the address it asked for.
   */
  hostRoutes?: Record<string, string>;
}

/** The part of appsscript.json the emulator reads. */
export interface Manifest {
  oauthScopes?: string[];
}

export interface TriggerFireResult {
  handler: string;
  triggerId: string;
  /** Spreadsheet id of the document the trigger ran in. */
  documentId: string;
  ok: boolean;
  error?: string;
}

/** What the project needs of each of its documents (runtime.ts: GasRuntime). */
export interface ProjectDocument {
  readonly spreadsheet: SpreadsheetModel;
  /** Runs one installable trigger of this document as its owner. */
  fireInstalledTrigger(trigger: TriggerInfo): TriggerFireResult;
  /** Releases the document's HTTP worker reference. */
  close(): Promise<void>;
}

export interface DocumentOptions {
  /** Default: a new spreadsheet with one sheet 'Sheet1' and an id of its own. */
  spreadsheet?: SpreadsheetModel;
}

/** What the documents of one project share; each GasRuntime reads it. */
export interface ProjectShared {
  script: vm.Script;
  /** The bundle's size: every execution loads it (costs.ts, EXECUTION_START). */
  bundleBytes: number;
  functionNames: string[];
  htmlDir: string;
  clock: Clock;
  limits: Limits;
  users: string[];
  owner: string;
  addOn: boolean;
  scriptId: string;
  timeZone: string | undefined;
  addonName: string;
  echoLogs: boolean;
  evaluateFormulas: boolean;
  /** The manifest's oauthScopes (null: not listed, every call allowed); `addScopes` adds to them. */
  scopes: ReadonlySet<string> | null;
  /** By user: declared scopes they have not granted yet (added by a newer version: addScopes; authorize grants). */
  ungranted: Map<string, Set<string>>;
  behaviours: Behaviours;
  hostRoutes: Record<string, string>;
  properties: { script: PropertyStore; user(email?: string): PropertyStore };
  caches: { script: CacheStore; user(email?: string): CacheStore };
  triggers: TriggerRegistry;
  locks: LockRegistry;
  quotas: DailyQuotaMeter;
  /** Executions running now (nested), per user. */
  running: Map<string, number>;
  counters: Counters;
  httpLog: HttpLogEntry[];
  logs: LogEntry[];
  nextExecutionId(): number;
}

const DEFAULT_BUNDLE = path.resolve(__dirname, '../../dist/Code.js');

/** The manifest beside the bundle (`appsscript.json` in its directory), or null when there is none. */
function manifestBeside(bundlePath: string): Manifest | null {
  const file = path.join(path.dirname(bundlePath), 'appsscript.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest) : null;
}

function declaredScopes(manifest: Manifest | null): ReadonlySet<string> | null {
  return manifest?.oauthScopes ? new Set(manifest.oauthScopes) : null;
}

/** Stores made on first use, one per user (the owner's when no email is given). */
function perUser<T>(owner: string, make: () => T): (email?: string) => T {
  const stores = new Map<string, T>();
  return (email: string = owner) => {
    let store = stores.get(email);
    if (!store) stores.set(email, (store = make()));
    return store;
  };
}

type DocumentFactory<Doc extends ProjectDocument> = (
  project: GasProject<Doc>,
  shared: ProjectShared,
  spreadsheet: SpreadsheetModel,
) => Doc;

/** The project; `Doc` is the runtime of one document (index.ts: `GasProject` is `GasProject<GasRuntime>`). */
export class GasProject<Doc extends ProjectDocument = ProjectDocument> {
  readonly clock: Clock;
  readonly limits: Limits;
  readonly users: string[];
  readonly owner: string;
  readonly counters: Counters;
  readonly httpLog: HttpLogEntry[];
  readonly logs: LogEntry[];
  readonly properties: { script: PropertyStore; user(email?: string): PropertyStore };
  readonly cache: { script: CacheStore; user(email?: string): CacheStore };
  readonly triggers: {
    /** Installable triggers of every document, every user. */
    list(): TriggerInfo[];
    nextDueAt(): number | null;
    /** Fires every due time-driven trigger of every document, once each, earliest first, in its own document. */
    fireDue(): TriggerFireResult[];
  };
  /** Which daily quota figures apply (`limits` holds them). */
  readonly quotaLevel: QuotaLevel;

  private readonly shared: ProjectShared;
  private readonly docs: Doc[] = [];

  constructor(
    options: ProjectOptions,
    private readonly makeDocument: DocumentFactory<Doc>,
  ) {
    const bundlePath = options.bundlePath ?? DEFAULT_BUNDLE;
    let source = options.bundleSource;
    if (source === undefined) {
      if (!fs.existsSync(bundlePath)) throw new Error(`Bundle not found: ${bundlePath} (run the build first)`);
      source = fs.readFileSync(bundlePath, 'utf8');
    }
    const bundle = compileBundle(source, options.bundleSource === undefined ? bundlePath : 'Code.js');
    this.clock = options.clock ?? createRealClock();
    const level = options.quotas ?? 'consumer';
    this.limits = { ...DEFAULT_LIMITS, ...DAILY_QUOTAS[level], ...options.limits };
    this.users = options.users?.length ? [...options.users] : ['owner@example.com'];
    this.owner = this.users[0];
    const quotas = new DailyQuotaMeter(() => this.clock.now());
    this.counters = createCounters(() => quotas.used('urlfetch'));
    this.quotaLevel = level;
    this.httpLog = [];
    this.logs = [];
    this.properties = { script: new PropertyStore(), user: perUser(this.owner, () => new PropertyStore()) };
    this.cache = { script: new CacheStore(this.clock), user: perUser(this.owner, () => new CacheStore(this.clock)) };
    let executionIds = 0;
    this.shared = {
      script: bundle.script,
      bundleBytes: Buffer.byteLength(source, 'utf8'),
      functionNames: bundle.functions,
      htmlDir: options.htmlDir ?? path.dirname(bundlePath),
      clock: this.clock,
      limits: this.limits,
      users: this.users,
      owner: this.owner,
      addOn: options.addOn === true,
      scriptId: options.scriptId ?? '1EmulatedScriptIdForSheetScout000000000000000000000000',
      timeZone: options.timeZone,
      addonName: options.addonName ?? 'Add-on',
      echoLogs: options.echoLogs === true,
      evaluateFormulas: options.evaluateFormulas !== false,
      scopes: declaredScopes(
        options.manifest !== undefined
          ? options.manifest
          : options.bundleSource === undefined
            ? manifestBeside(bundlePath)
            : null,
      ),
      ungranted: new Map(),
      behaviours: { ...DEFAULT_BEHAVIOURS, ...options.behaviours },
      hostRoutes: { ...options.hostRoutes },
      properties: this.properties,
      caches: this.cache,
      triggers: new TriggerRegistry(),
      locks: new LockRegistry(),
      quotas,
      running: new Map(),
      counters: this.counters,
      httpLog: this.httpLog,
      logs: this.logs,
      nextExecutionId: () => ++executionIds,
    };
    this.triggers = {
      list: () => this.shared.triggers.list(),
      nextDueAt: () => this.shared.triggers.nextDueAt(),
      fireDue: () => this.fireDueTriggers(),
    };
  }

  /** The documents opened so far, in order. */
  get documents(): readonly Doc[] {
    return this.docs;
  }

  /** What a user (default: the owner) has used of the daily quotas in the current 24-hour windows. */
  quotaUsage(email: string = this.owner): QuotaUsage {
    return this.shared.quotas.usage(email);
  }

  /**
   * A newer version of the add-on declares more scopes: every user of the project has them ungranted until they
   * authorize again (`authorize`). Their triggers keep running: getAuthorizationInfo(FULL) says REQUIRED, with an
   * authorization URL, and a call of a service they have not authorized throws (behaviour `unauthorizedCalls`). Menu
   * items and panels run as before (Google asks for the consent before a menu item runs; the emulator does not model
   * the prompt).
   */
  addScopes(scopes: readonly string[]): void {
    const declared = this.shared.scopes;
    if (declared) this.shared.scopes = new Set([...declared, ...scopes]);
    for (const user of this.users) {
      const missing = this.shared.ungranted.get(user) ?? new Set<string>();
      for (const scope of scopes) if (!declared?.has(scope)) missing.add(scope);
      this.shared.ungranted.set(user, missing);
    }
  }

  /** The user (default: the owner) authorizes the current version: they grant every declared scope. */
  authorize(email: string = this.owner): void {
    this.shared.ungranted.delete(email);
  }

  /**
   * The user's other scripts and add-ons use `amount` of a daily quota (Google's quotas are the user's, shared by
   * every script they run): e.g. `spentElsewhere('triggerRuntimeMs', 90 * 60_000)` spends a consumer account's trigger
   * runtime for the next 24 hours, so the project's own triggers fail before running.
   */
  spentElsewhere(
    meter: 'urlfetch' | 'triggerRuntimeMs' | 'properties',
    amount: number,
    email: string = this.owner,
  ): void {
    this.shared.quotas.add(email, meter, amount);
  }

  /** Top-level functions the bundle declares. */
  get functions(): readonly string[] {
    return this.shared.functionNames;
  }

  /**
   * Adds a document of this project: a runtime over its own spreadsheet (default: a new one with an id of its own)
   * that shares everything project-wide with the other documents.
   */
  addDocument(options: DocumentOptions = {}): Doc {
    const spreadsheet = options.spreadsheet ?? new SpreadsheetModel({ id: this.unusedSpreadsheetId() });
    if (this.docs.some((doc) => doc.spreadsheet.id === spreadsheet.id)) {
      throw new Error(
        `A document with spreadsheet id ${spreadsheet.id} is already open in this project (give each model its own id)`,
      );
    }
    const doc = this.makeDocument(this, this.shared, spreadsheet);
    this.docs.push(doc);
    return doc;
  }

  /** The open document whose spreadsheet has this id. */
  document(spreadsheetId: string): Doc | undefined {
    return this.docs.find((doc) => doc.spreadsheet.id === spreadsheetId);
  }

  /**
   * Fires due time-driven triggers (of one document, or of all), once each, earliest first; each runs as its owner
   * in the document it was created from. Missed periods are skipped.
   */
  fireDueTriggers(documentId?: string): TriggerFireResult[] {
    const registry = this.shared.triggers;
    const results: TriggerFireResult[] = [];
    if (this.shared.behaviours.installableTriggers === 'never-fire') return results;
    const fired = new Set<string>();
    for (;;) {
      const now = this.clock.now();
      const next = registry
        .due(now)
        .find((t) => !fired.has(t.id) && (documentId === undefined || t.documentId === documentId));
      if (!next) break;
      fired.add(next.id);
      const record = registry.record(next.id)!;
      if (record.oneShot) record.spent = true;
      else while (record.nextRunAt! <= now) record.nextRunAt! += record.intervalMs!;
      const doc = this.document(next.documentId);
      if (!doc)
        throw new Error(`Trigger ${next.id} belongs to document ${next.documentId}, which is not open in this project`);
      results.push(doc.fireInstalledTrigger(next));
    }
    return results;
  }

  /** Releases the HTTP worker references of every document. */
  async close(): Promise<void> {
    for (const doc of this.docs) await doc.close();
  }

  private unusedSpreadsheetId(): string {
    let n = this.docs.length + 1;
    while (this.docs.some((doc) => doc.spreadsheet.id === `spreadsheet-${n}`)) n++;
    return `spreadsheet-${n}`;
  }
}
