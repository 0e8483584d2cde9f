// What Apps Script charges in time: the emulator's cost model. Each execution accumulates its modelled time (the
// start of the execution, each service call, the cells a range read or write moves, committing buffered sheet writes,
// the values and bytes a cache call moves, each UrlFetch round at the sandbox's stated latency and the effective
// concurrency of fetchAll, CPU for JSON text and the first domain's unpacking, sleeps and lock waits); it is
// deterministic, so the same run gives the same figure on any machine. The execution time limits (30 s, 6 minutes) and the daily trigger runtime are
// checked against it as well as against real time, and on a manual clock it is the time that passes (Date.now()
// inside the bundle moves with it), so a design that only fits because the emulator is free fails its tests.
//
// Every figure names its source. Published measurements are averages of scripts timing the calls from inside Apps
// Script; where no figure is published the value is an estimate, marked as such with its reasoning, and chosen on the
// slow side of what comparable calls measure. costTable() lists them all (a unit test holds each to a source or the
// word "estimate", and docs/platform/apps-script-platform.md to the same figures).

export interface Cost {
  ms: number;
  source: string;
}

const SOURCE = {
  ziritione:
    'Luis Peralta, "Google Apps Script APIs performance", https://ziritione.org/post/apps_script_performance ' +
    '(100 runs each: Properties getProperty avg 30-34 ms, setProperty 62-64 ms; Cache get 3-4 ms, put 92-93 ms)',
  qiita:
    'https://qiita.com/mitonattou919/items/a0fdd1a9e4559ee4a512 (CacheService, 10 runs: remove avg 88-90 ms, ' +
    'put 56-57 ms, get 20-23 ms)',
  flush:
    '"What is faster: ScriptDb or SpreadsheetApp?" (a Stack Overflow answer, mirrored at ' +
    'https://ruby-bash.developreference.com/article/29263774/What+is+faster+ScriptDb+or+SpreadsheetApp; 400 rows of ' +
    '10 cells): one setValues of the 4,000 cells under 50 ms, with a flush() 610 ms; 400 row writes 164 ms, with a ' +
    'flush() after each 12 s',
  interleave:
    'Google, "Optimizing Spreadsheet Operations" (https://googleappsscript.blogspot.com/2010/06/' +
    'optimizing-spreadsheet-operations.html) and the Apps Script best practices: a read commits the buffered ' +
    'writes first, so alternating reads and writes is slow',
  qiitaSize:
    'https://qiita.com/mitonattou919/items/a0fdd1a9e4559ee4a512 (the same calls with a 100 KB value: get 23 ms ' +
    'against 20 ms, put 57 ms against 56 ms: ~0.03 ms per KB read, ~0.01 ms per KB written)',
  nodeJson:
    'measured in Node 20 on the shared 2-core machine: JSON.parse and JSON.stringify of profile-shaped JSON take ' +
    '1.5-5 us per KB (the slower end kept)',
  nodeUnpack:
    'measured in Node 20 on the shared 2-core machine: a cold unpack of the packed public suffix list ' +
    "(build/packed-data.js, base 93 streams inflated by src/shared/domain/inflate.ts) and tldts's indexes allocate " +
    '240 KB of typed arrays in a median of ~91 ms cold (the earlier packing: 386 KB, ~97 ms): ~0.38 ms per KB',
  settled: 'settled on a real account by Settings > Check this installation (docs/real-account-checklist.md)',
} as const;

/** A figure no source publishes: `reasoning` says how it was chosen (always on the slow side of what is measured). */
const estimate = (reasoning: string): string => `estimate: ${reasoning}`;

/**
 * How much slower Apps Script runs the bundle's own code than Node on a developer machine. Google publishes no figure
 * (practitioners' benchmarks give relative costs only), so this is an estimate: Apps Script runs the same V8, in a
 * fresh isolate per execution on shared servers.
 */
export const PLATFORM_CPU_FACTOR: { factor: number; source: string } = {
  factor: 2,
  source: estimate(
    'the same V8 engine, a cold isolate per execution on shared servers: twice a developer machine; ' + SOURCE.settled,
  ),
};

/** CPU the script spends in its own code, where the emulator can see it (realm.ts meters it). */
export const CPU = {
  /** JSON.parse and JSON.stringify, per KB of JSON text read or written. */
  jsonPerKb: { ms: 0.005 * PLATFORM_CPU_FACTOR.factor, source: `${SOURCE.nodeJson}; x PLATFORM_CPU_FACTOR` } as Cost,
  /**
   * Per KB of typed arrays allocated: in the bundle only the first domain of an execution does (unpacking the packed
   * public suffix list, and the UTS #46 tables at the first non-ASCII host, src/shared/packed-data.ts, and tldts's
   * indexes of them).
   */
  unpackPerKb: { ms: 0.38 * PLATFORM_CPU_FACTOR.factor, source: `${SOURCE.nodeUnpack}; x PLATFORM_CPU_FACTOR` } as Cost,
};

/** CacheService calls beyond their fixed cost (CALLS): each key or value they move, and the bytes. */
export const CACHE = {
  perValue: {
    ms: 0.25,
    source: estimate(
      'each key a getAll asks for and each value a putAll stores: no bulk timing is published; a quarter of a ' +
        'millisecond per item makes 100 items cost a fifth of a single put (ziritione), on the slow side of the ' +
        'per-KB figures',
    ),
  } as Cost,
  readPerKb: { ms: 0.03, source: SOURCE.qiitaSize } as Cost,
  writePerKb: { ms: 0.01, source: SOURCE.qiitaSize } as Cost,
};

/** PropertiesService calls beyond their fixed cost (CALLS): the bytes a read or write moves. */
export const PROPERTIES = {
  readPerKb: {
    ms: 0.03,
    source: estimate(
      `no size timing of Properties is published; taken as the cache's measured read (${SOURCE.qiitaSize})`,
    ),
  } as Cost,
  writePerKb: {
    ms: 0.01,
    source: estimate(
      `no size timing of Properties is published; taken as the cache's measured write (${SOURCE.qiitaSize})`,
    ),
  } as Cost,
};

/** The start of an execution: a fresh V8 isolate loads the whole bundle (every google.script.run call, formula, trigger). */
export const EXECUTION_START: Cost & { perBundleKbMs: number } = {
  ms: 250,
  perBundleKbMs: 0.25,
  source: estimate(
    "no figure is published; every execution starts a fresh isolate and runs the whole project's top-level code " +
      "(Google's V8 runtime guide): 250 ms to start, and 0.25 ms per KB of bundle, fifty times Node's measured " +
      `load of this bundle (about 5 ms for 490 KB, dev/gas-runtime/README.md); ${SOURCE.settled} (a timed start)`,
  ),
};

/** google.script.run's round trip between the panel and the server, beyond the execution itself. */
export const CLIENT_ROUND_TRIP: Cost = {
  ms: 150,
  source: estimate(
    'no figure is published; one HTTPS round trip from the browser to Google and back with its queueing, above a ' +
      'Properties read (ziritione: 30-34 ms, inside Google); the installation check times it from its dialog',
  ),
};

/** Spreadsheet reads and writes: a call, each cell it moves, and committing buffered writes. */
export const SHEET = {
  read: {
    ms: 40,
    source: estimate(
      'no per-call figure is published; a read goes to the spreadsheet (it commits buffered writes first: ' +
        'interleave), taken above a Properties read (ziritione: 30-34 ms)',
    ),
  } as Cost,
  readPerCell: {
    ms: 0.01,
    source: estimate(
      'twice the most a written cell can cost by the flush source (under 0.012 ms), reads not being buffered',
    ),
  } as Cost,
  /** A write is buffered: the call itself is cheap, committing it (below) is what costs. */
  write: { ms: 0.4, source: `${SOURCE.flush} (164 ms / 400 buffered row writes)` } as Cost,
  writePerCell: {
    ms: 0.012,
    source: `${SOURCE.flush} (4,000 cells in one write under 50 ms: at most 0.012 ms a cell)`,
  } as Cost,
  /**
   * flush(), a read while writes are buffered (it commits them first), or the end of an execution with writes buffered:
   * a fixed part and a part per cell written since the last commit.
   */
  commit: {
    ms: 30,
    source: `${SOURCE.flush} (12 s / 400 flushes of one row: ~30 ms each); ${SOURCE.interleave}`,
  } as Cost,
  commitPerCell: { ms: 0.145, source: `${SOURCE.flush} ((610 - 30) ms / 4,000 cells)` } as Cost,
};

/** UrlFetch: each request's round trip through Google's fetch service, on top of the latency the service states. */
export const URL_FETCH = {
  request: {
    ms: 80,
    source: estimate(
      "no figure is published; Google's fetch service relays each request (its own hop, TLS to the service, " +
        'the response handed back): above a cache put (ziritione: 92 ms for a write to a Google store, reads ' +
        `3-30 ms); ${SOURCE.settled} (fetchAll against the service's own endpoints)`,
    ),
  } as Cost,
};

/** Reasoning shared by the calls no source times. */
const STORE_CALL = (what: string, like: string) =>
  estimate(`${what}: no timing is published; one round trip to a Google store, as ${like} (ziritione)`);
const TRIGGER_CALL = estimate(
  "no timing is published; the project's trigger registry is a Google store like Properties, and listing or " +
    'changing it is charged as several property round trips (ziritione: 30-64 ms each)',
);
const UI_CALL = estimate(
  'no timing is published; the call hands the editor a page or a message: a store write (ziritione)',
);
const LOCAL = (what: string) => estimate(`${what}: no round trip, the object is in the script already`);

/** Calls by Class.method, then by Class (`Class.*`); a call of neither costs `DEFAULT_CALL`. */
const CALLS: Record<string, Cost> = {
  'Properties.getProperty': { ms: 30, source: SOURCE.ziritione },
  'Properties.getProperties': {
    ms: 34,
    source: STORE_CALL(
      'one read of the whole store (the bytes on top, PROPERTIES)',
      'a getProperty of a user store, 34 ms',
    ),
  },
  'Properties.getKeys': {
    ms: 34,
    source: STORE_CALL("one read of the store's keys", 'a getProperty of a user store, 34 ms'),
  },
  'Properties.setProperty': { ms: 62, source: SOURCE.ziritione },
  'Properties.setProperties': {
    ms: 64,
    source: STORE_CALL(
      'one write of several values (the bytes on top, PROPERTIES)',
      'a setProperty of a user store, 64 ms',
    ),
  },
  'Properties.deleteProperty': { ms: 62, source: STORE_CALL('a delete is a write', 'a setProperty, 62 ms') },
  'Properties.deleteAllProperties': { ms: 62, source: STORE_CALL('a delete is a write', 'a setProperty, 62 ms') },
  'Cache.get': { ms: 20, source: `${SOURCE.qiita} (the slower of the two reports; ziritione measured 3-4 ms)` },
  'Cache.getAll': {
    ms: 20,
    source: estimate(
      `one read for all the keys (each key on top, CACHE): as the slower report's get (${SOURCE.qiita})`,
    ),
  },
  'Cache.put': { ms: 93, source: SOURCE.ziritione },
  'Cache.putAll': {
    ms: 93,
    source: estimate(`one write for all the values (each value on top, CACHE): as a put (${SOURCE.ziritione})`),
  },
  'Cache.remove': { ms: 90, source: SOURCE.qiita },
  'Cache.removeAll': { ms: 90, source: estimate(`one write for all the keys: as a remove (${SOURCE.qiita})`) },
  'Lock.tryLock': {
    ms: 50,
    source: STORE_CALL('taking a lock is a write to a shared store', 'between a property read and write'),
  },
  'Lock.waitLock': {
    ms: 50,
    source: STORE_CALL('taking a lock is a write to a shared store', 'between a property read and write'),
  },
  'Lock.releaseLock': { ms: 30, source: STORE_CALL('releasing a lock', 'a property read, 30 ms') },
  'ScriptApp.getProjectTriggers': { ms: 150, source: TRIGGER_CALL },
  'ScriptApp.getUserTriggers': { ms: 150, source: TRIGGER_CALL },
  'ScriptApp.deleteTrigger': { ms: 300, source: TRIGGER_CALL },
  'ScriptApp.getAuthorizationInfo': {
    ms: 30,
    source: STORE_CALL("reading the user's grant for the project", 'a property read, 30 ms'),
  },
  'ClockTriggerBuilder.create': { ms: 500, source: TRIGGER_CALL },
  'SpreadsheetTriggerBuilder.create': { ms: 500, source: TRIGGER_CALL },
  'HtmlService.createHtmlOutputFromFile': {
    ms: 30,
    source: STORE_CALL('reading a project file', 'a property read, 30 ms'),
  },
  'HtmlService.createTemplateFromFile': {
    ms: 30,
    source: STORE_CALL('reading a project file', 'a property read, 30 ms'),
  },
  'Ui.showSidebar': { ms: 100, source: UI_CALL },
  'Ui.showModalDialog': { ms: 100, source: UI_CALL },
  'Ui.showModelessDialog': { ms: 100, source: UI_CALL },
  'Spreadsheet.toast': { ms: 50, source: UI_CALL },
  'Spreadsheet.insertSheet': {
    ms: 200,
    source: estimate('no timing is published; a structural change of the spreadsheet, as five reads'),
  },
  'Spreadsheet.deleteSheet': {
    ms: 200,
    source: estimate('no timing is published; a structural change of the spreadsheet, as five reads'),
  },
  'DeveloperMetadataFinder.find': {
    ms: 40,
    source: estimate('no timing is published; a read of the spreadsheet, as a range read'),
  },
  'console.*': { ms: 2, source: estimate('no timing is published; a log line is queued, not awaited') },
  'Logger.*': { ms: 2, source: estimate('no timing is published; a log line is queued, not awaited') },
  // Objects already in the script: a response's status, headers and text, a blob, a builder, a trigger's getters.
  'HTTPResponse.*': { ms: 0.05, source: LOCAL("a response's status, headers and text") },
  'Blob.*': { ms: 0.05, source: LOCAL('a blob') },
  'Utilities.*': { ms: 0.05, source: LOCAL("computed in the script's runtime") },
  'Utilities.sleep': { ms: 0, source: 'the sleep itself is the time (charged as a wait)' },
  'Trigger.*': { ms: 0.05, source: LOCAL("a trigger's getters") },
  'TriggerBuilder.*': { ms: 0.05, source: LOCAL('a builder') },
  'ClockTriggerBuilder.*': { ms: 0.05, source: LOCAL('a builder, until create()') },
  'SpreadsheetTriggerBuilder.*': { ms: 0.05, source: LOCAL('a builder, until create()') },
};

/** Object navigation and small getters of the services (getSheetByName, getRange, getName, getMaxRows...). */
const DEFAULT_CALL: Cost = {
  ms: 1,
  source: estimate('no timing is published; navigation within objects the script holds (the data moves on a read)'),
};

/** Every figure of the model with its source, by name (docs/platform/apps-script-platform.md lists them). */
export function costTable(): Record<string, Cost> {
  const table: Record<string, Cost> = {
    'execution start': EXECUTION_START,
    'execution start per bundle KB': { ms: EXECUTION_START.perBundleKbMs, source: EXECUTION_START.source },
    'client round trip': CLIENT_ROUND_TRIP,
    'platform CPU factor': { ms: PLATFORM_CPU_FACTOR.factor, source: PLATFORM_CPU_FACTOR.source },
    'default call': DEFAULT_CALL,
  };
  const groups = { CPU, CACHE, PROPERTIES, SHEET, URL_FETCH, CALLS } as Record<string, Record<string, Cost>>;
  for (const [group, costs] of Object.entries(groups))
    for (const [name, cost] of Object.entries(costs)) table[`${group}.${name}`] = cost;
  return table;
}

/** The modelled cost of one service call (range reads and writes, HTTP and waits are charged on top by the services). */
export function callCost(className: string, method: string): number {
  return (CALLS[`${className}.${method}`] ?? CALLS[`${className}.*`] ?? DEFAULT_CALL).ms;
}

/** Committing buffered writes of `cells` cells (flush(), a read after writes, or the end of an execution). */
export function commitCost(cells: number): number {
  return SHEET.commit.ms + cells * SHEET.commitPerCell.ms;
}

/** The modelled start of an execution of a bundle of `bundleBytes`. */
export function executionStartCost(bundleBytes: number): number {
  return EXECUTION_START.ms + (bundleBytes / 1024) * EXECUTION_START.perBundleKbMs;
}

/** What a cache call moves beyond its fixed cost: `values` keys or values, `readKb` and `writtenKb` of text. */
export function cacheDataCost(values: number, readKb: number, writtenKb: number): number {
  return values * CACHE.perValue.ms + readKb * CACHE.readPerKb.ms + writtenKb * CACHE.writePerKb.ms;
}

/** What a property call moves beyond its fixed cost: `readKb` and `writtenKb` of keys and values. */
export function propertyDataCost(readKb: number, writtenKb: number): number {
  return readKb * PROPERTIES.readPerKb.ms + writtenKb * PROPERTIES.writePerKb.ms;
}

/** CPU for `amount` of work of a kind the realm meters (JSON characters, typed-array bytes). */
export function cpuCost(kind: 'json' | 'unpack', amount: number): number {
  return (amount / 1024) * (kind === 'json' ? CPU.jsonPerKb.ms : CPU.unpackPerKb.ms);
}

/**
 * A fetchAll's modelled time: its requests run at once (Google documents no cap on a fetchAll; a published benchmark
 * shows them concurrent), so the slowest one sets it; `concurrency` (the emulator's fetchAllConcurrency switch: no
 * cap is documented, practitioners report 10 to 20 effective,
 * https://magesheet.com/blog/apps-script-urlfetchapp-quotas-retries) runs them in waves of that many instead, each
 * wave a round trip of its own.
 */
export function fetchAllCost(latenciesMs: readonly number[], concurrency: number | null): number {
  if (latenciesMs.length === 0) return 0;
  const width = concurrency && concurrency > 0 ? concurrency : latenciesMs.length;
  let total = 0;
  for (let start = 0; start < latenciesMs.length; start += width)
    total += URL_FETCH.request.ms + Math.max(...latenciesMs.slice(start, start + width));
  return total;
}
