// Composition root for one Apps Script execution: builds the ports (properties, cache, clock, lock, HTTP) and the
// service clients from Apps Script's globals. Endpoints and triggers call appContext(); logic modules receive what
// they need from it as parameters. Only this file and src/platform/ touch the services directly.
import type { CachePort, ClockPort, HttpPort, KeyValueStore, LockPort } from './ports';
import { createServiceClient, type ServiceClient, type ServiceClientDeps } from './api/client';
import { createCachePort } from './platform/cache';
import { createAppsScriptClock } from './platform/clock';
import { createLockPort } from './platform/lock';
import { createPropertiesStore } from './platform/properties-store';
import { createUrlFetchHttp } from './platform/url-fetch-http';
import { formulaConnection, userConnection, type SettingsStores } from './account/settings';

export interface AppContext {
  stores: SettingsStores & { script: KeyValueStore };
  /** The spreadsheet's cache (shared by its users and formulas); the script cache outside a spreadsheet. */
  cache: CachePort;
  clock: ClockPort;
  http: HttpPort;
  documentLock(): LockPort;
  /** Client with the acting user's token (sidebar, menu, jobs, triggers). */
  userClient(options?: Pick<ServiceClientDeps, 'retry' | 'maxParallel'>): ServiceClient;
  /** Client with the token shared with this spreadsheet's formulas (custom functions). */
  formulaClient(options?: Pick<ServiceClientDeps, 'retry' | 'maxParallel'>): ServiceClient;
}

export function appContext(): AppContext {
  const documentProperties = PropertiesService.getDocumentProperties();
  const stores = {
    user: createPropertiesStore(PropertiesService.getUserProperties()),
    document: documentProperties ? createPropertiesStore(documentProperties) : null,
    script: createPropertiesStore(PropertiesService.getScriptProperties()),
  };
  const clock = createAppsScriptClock(Utilities);
  const http = createUrlFetchHttp(UrlFetchApp);
  const documentCache = CacheService.getDocumentCache();
  return {
    stores,
    cache: createCachePort(documentCache ?? CacheService.getScriptCache()),
    clock,
    http,
    documentLock: () => createLockPort(LockService.getDocumentLock() ?? LockService.getScriptLock()),
    userClient: (options) => createServiceClient({ http, clock, settings: userConnection(stores), ...options }),
    formulaClient: (options) => createServiceClient({ http, clock, settings: formulaConnection(stores.document), ...options }),
  };
}
