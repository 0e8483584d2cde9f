// Composition root for one Apps Script execution: builds the ports (properties, cache, clock, lock, HTTP) and the
// service clients from Apps Script's globals, once per execution. Endpoints and triggers call appContext(); logic
// modules receive what they need from it as parameters. Only src/platform/ (and src/main.ts) touch the services (a lint rule holds it).
// Every request goes through a daily request budget (src/platform/request-budget.ts): the acting user's requests count
// in their UserProperties; formulas' requests count in the spreadsheet's DocumentProperties, because a custom function
// sees the owner's UserProperties and may not write them.
import type { CachePort, ClockPort, HttpPort, KeyValueStore, LockPort, SizedStore, TablePort } from '../ports';
import { createServiceClient, type ServiceClient, type ServiceClientDeps } from '../api/client';
import { createCachePort, holdingCache } from './cache';
import { createAppsScriptClock } from './clock';
import { createLockPort } from './lock';
import { createPropertiesStore, DOCUMENT_STORE_FULL_MESSAGE } from './properties-store';
import { createUrlFetchHttp } from './url-fetch-http';
import { REQUEST_BUDGET_KEYS, RequestCounter, withRequestBudget } from './request-budget';
import { formulaConnection, userConnection, type SettingsStores } from '../shared/connection';
import type { AdaptiveThroughput } from '../api/throughput';
import { settledFetchAllWidth } from '../shared/installation';
import { documentThroughput, type ThroughputScope } from './throughput-store';
import { RECORDS_HEADERS, RECORDS_SHEET, SheetRecordStore, type RecordStores } from '../shared/storage/record-sheet';
import { activeSpreadsheet } from './spreadsheet';
import { sealedTables } from './sealing';

/** What every feature says when it runs without a spreadsheet (a standalone run, an execution without a document). */
export const NO_SPREADSHEET_MESSAGE = 'Open Sheet Scout from a spreadsheet (Extensions > Sheet Scout)';

export interface AppContext {
  stores: SettingsStores & { script: KeyValueStore };
  /** The spreadsheet's cache (shared by its users and formulas); the script cache outside a spreadsheet. */
  cache: CachePort;
  /** Holds this execution's 6-hour writes to `cache` from now on, until each `flush` writes them in one call. */
  cacheWrites: { hold(): void; flush(): void };
  /** The acting user's cache (per-user hints such as which tasks they may not read). */
  userCache: CachePort;
  clock: ClockPort;
  /** HTTP counted against the acting user's daily request budget. */
  http: HttpPort;
  /** The acting user's daily request budget. */
  requestBudget: RequestCounter;
  /** The spreadsheet's lock; throws the one "open it from a spreadsheet" message outside one. */
  documentLock(): LockPort;
  /** The spreadsheet's DocumentProperties; throws the one "open it from a spreadsheet" message outside one. */
  documentStore(): SizedStore;
  /**
   * The spreadsheet's records sheet (bulky records, src/shared/storage/record-sheet.ts) with the DocumentProperties older
   * versions kept them in; throws the "open it from a spreadsheet" message outside one.
   */
  documentRecords(): RecordStores;
  /**
   * The spreadsheet's hidden sheet `name` as a table of `headers`, its rows sealed (src/shared/storage/sealed-table.ts):
   * the one way to a hidden sheet of the add-in's. Throws the "open it from a spreadsheet" message outside one.
   */
  hiddenTable(name: string, headers: readonly string[]): TablePort;
  /** Client with the acting user's token (sidebar, menu, jobs, triggers), its rounds sized by the document's learned throughput. */
  userClient(options?: Pick<ServiceClientDeps, 'retry'>): ServiceClient;
  /** The throughput this document's panels and jobs, or its formulas, learned (kept in the document cache). */
  throughput(scope: ThroughputScope): AdaptiveThroughput;
  /**
   * Client with the token shared with this spreadsheet's formulas: its requests count in the formulas' budget, or
   * (`countAsUser`, a menu action run by the user) in the user's own.
   */
  formulaClient(options?: Pick<ServiceClientDeps, 'retry'> & { countAsUser?: boolean }): ServiceClient;
}

/** This execution's context: Apps Script starts every execution with fresh globals, so one is built per execution. */
let current: AppContext | null = null;

/**
 * The execution's ports, built on first use: every part of one execution (the timer's slices, a panel call's
 * services) shares them, so a property store is read once however many features it serves.
 */
export function appContext(): AppContext {
  current ??= createAppContext();
  return current;
}

function createAppContext(): AppContext {
  const documentProperties = PropertiesService.getDocumentProperties();
  const stores = {
    user: createPropertiesStore(PropertiesService.getUserProperties()),
    document: documentProperties ? createPropertiesStore(documentProperties, DOCUMENT_STORE_FULL_MESSAGE) : null,
    script: createPropertiesStore(PropertiesService.getScriptProperties()),
  };
  const clock = createAppsScriptClock(Utilities);
  const urlFetch = createUrlFetchHttp(UrlFetchApp);
  const requestBudget = new RequestCounter(stores.user, REQUEST_BUDGET_KEYS.usage, stores.user, clock);
  const http = withRequestBudget(urlFetch, requestBudget);
  const formulaHttp = stores.document
    ? withRequestBudget(
        urlFetch,
        new RequestCounter(stores.document, REQUEST_BUDGET_KEYS.formulaUsage, stores.user, clock, 'formulas'),
      )
    : http;
  const documentCache = CacheService.getDocumentCache();
  const { cache, ...cacheWrites } = holdingCache(createCachePort(documentCache ?? CacheService.getScriptCache()));
  let records: SheetRecordStore | null = null;
  const documentStore = () => {
    if (!stores.document) throw new Error(NO_SPREADSHEET_MESSAGE);
    return stores.document;
  };
  const hiddenTable = sealedTables(documentStore, activeSpreadsheet);
  const throughputs = new Map<ThroughputScope, AdaptiveThroughput>();
  const throughput = (scope: ThroughputScope) => {
    if (!throughputs.has(scope))
      throughputs.set(scope, documentThroughput(cache, scope, clock, settledFetchAllWidth(stores.user)));
    return throughputs.get(scope) as AdaptiveThroughput;
  };
  return {
    stores,
    cache,
    cacheWrites,
    throughput,
    userCache: createCachePort(CacheService.getUserCache()),
    clock,
    http,
    requestBudget,
    documentStore,
    hiddenTable,
    documentRecords: () => {
      const properties = documentStore();
      records ??= new SheetRecordStore(hiddenTable(RECORDS_SHEET, RECORDS_HEADERS), properties);
      return { records, properties };
    },
    documentLock: () => {
      // One document's work never takes the script's lock, which every user of the add-on shares.
      const lock = LockService.getDocumentLock();
      if (!lock || !stores.document) throw new Error(NO_SPREADSHEET_MESSAGE);
      // Its holder reads the stores it guards as the previous holder left them.
      return createLockPort(lock, [stores.document, { forget: () => records?.forget() }]);
    },
    userClient: (options) =>
      createServiceClient({
        http,
        clock,
        settings: () => userConnection(stores),
        ...options,
        throughput: throughput('panel'),
      }),
    formulaClient: ({ countAsUser, ...options } = {}) =>
      createServiceClient({
        http: countAsUser ? http : formulaHttp,
        clock,
        settings: () => formulaConnection(stores.document),
        ...options,
        throughput: throughput('formulas'),
      }),
  };
}
