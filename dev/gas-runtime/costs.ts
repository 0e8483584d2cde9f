// What Apps Script charges in time: the emulator's cost model. Each execution accumulates its modelled time (the
// start of the execution, each service call, the cells a range read or write moves, committing buffered sheet writes,
// the values and bytes a cache call moves, each UrlFetch round at the sandbox's stated latency and the effective
// concurrency of fetchAll, CPU for JSON text and the first domain's unpacking, sleeps and lock waits); it is
// deterministic, so the same run gives the same figure on any machine. The execution time limits (30 s, 6 minutes) and the daily trigger runtime are
// checked against it as well as against real time, and on a manual clock it is the time that passes (Date.now()
// inside the bundle moves with it), so a design that only fits because the emulator is free fails its tests.
//
// Every figure names its source. Published measurements are averages of scripts timing the calls from inside Apps
// Script; where no figure is published the value is an estimate marked as such and chosen on the slow side of what
// comparable calls measure.

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
    'https://ruby-bash.developreference.com/article/29263774/What+is+faster+ScriptDb+or+SpreadsheetApp): one ' +
    'setValues of 4,000 cells under 50 ms; adding flush() 610 ms; ' +
    'flush() after each of 400 row writes 12 s against 164 ms without',
  interleave:
    'Google, "Optimizing Spreadsheet Operations" (https://googleappsscript.blogspot.com/2010/06/' +
    'optimizing-spreadsheet-operations.html) and the Apps Script best practices: a read commits the buffered ' +
    'writes first, so alternating reads and writes is slow',
  poehnelt:
    'Justin Poehnelt, "Storage Wars" (https://justin.poehnelt.com/posts/apps-script-key-value-stores): a ' +
    'SpreadsheetApp write then read averages 800+ ms',
  estimate: 'estimate: no published figure; chosen on the slow side of comparable measured calls',
  qiitaSize:
    'https://qiita.com/mitonattou919/items/a0fdd1a9e4559ee4a512 (the same calls with a 100 KB value: get 23 ms ' +
    'against 20 ms, put 57 ms against 56 ms: ~0.03 ms per KB read, ~0.01 ms per KB written)',
  nodeJson:
    'measured in Node 20 on the shared 2-core machine: JSON.parse and JSON.stringify of profile-shaped JSON take ' +
    '1.5-5 us per KB (the slower end kept)',
  nodeUnpack:
    'measured in Node 20 on the shared 2-core machine: a cold unpack of the public suffix list (build/packed-data.js) ' +
    'allocates 301 KB of typed arrays in 30-190 ms, median ~75 ms: ~0.25 ms per KB',
} as const;

/**
 * How much slower Apps Script runs the bundle's own code than Node on a developer machine. Google publishes no figure
 * (practitioners' benchmarks give relative costs only), so this is an estimate: Apps Script runs the same V8, in a
 * fresh isolate per execution on shared servers.
 */
export const PLATFORM_CPU_FACTOR: { factor: number; source: string } = {
  factor: 2,
  source: 'estimate: no published figure (same V8 engine, a cold isolate per execution on shared servers)',
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
  unpackPerKb: { ms: 0.25 * PLATFORM_CPU_FACTOR.factor, source: `${SOURCE.nodeUnpack}; x PLATFORM_CPU_FACTOR` } as Cost,
};

/** CacheService calls beyond their fixed cost (CALLS): each key or value they move, and the bytes. */
export const CACHE = {
  perValue: { ms: 0.25, source: `${SOURCE.estimate} (each key a getAll asks for, each value a putAll stores)` } as Cost,
  readPerKb: { ms: 0.03, source: SOURCE.qiitaSize } as Cost,
  writePerKb: { ms: 0.01, source: SOURCE.qiitaSize } as Cost,
};

/** The start of an execution: a fresh V8 isolate loads the whole bundle (every google.script.run call, formula, trigger). */
export const EXECUTION_START: Cost & { perBundleKbMs: number } = {
  ms: 250,
  perBundleKbMs: 0.25,
  source: SOURCE.estimate,
};

/** google.script.run's round trip between the panel and the server, beyond the execution itself. */
export const CLIENT_ROUND_TRIP: Cost = { ms: 150, source: SOURCE.estimate };

/** Spreadsheet reads and writes: a call, each cell it moves, and committing buffered writes. */
export const SHEET = {
  read: { ms: 40, source: SOURCE.estimate } as Cost,
  readPerCell: { ms: 0.01, source: SOURCE.estimate } as Cost,
  write: { ms: 30, source: SOURCE.flush } as Cost,
  writePerCell: { ms: 0.005, source: SOURCE.flush } as Cost,
  /** flush(), a read while writes are buffered (it commits them first), or the end of an execution with writes buffered. */
  commit: { ms: 600, source: `${SOURCE.flush}; ${SOURCE.interleave}; ${SOURCE.poehnelt}` } as Cost,
  /** flush() with nothing buffered. */
  idleFlush: { ms: 30, source: SOURCE.estimate } as Cost,
};

/** UrlFetch: each request's round trip through Google's fetch service, on top of the latency the service states. */
export const URL_FETCH = {
  request: { ms: 80, source: SOURCE.estimate } as Cost,
};

/** Calls by Class.method, then by Class (`Class.*`); a call of neither costs `DEFAULT_CALL`. */
const CALLS: Record<string, Cost> = {
  'Properties.getProperty': { ms: 30, source: SOURCE.ziritione },
  'Properties.getProperties': { ms: 34, source: `${SOURCE.ziritione} (one read of the store)` },
  'Properties.getKeys': { ms: 34, source: `${SOURCE.ziritione} (one read of the store)` },
  'Properties.setProperty': { ms: 62, source: SOURCE.ziritione },
  'Properties.setProperties': { ms: 64, source: `${SOURCE.ziritione} (one write of the store)` },
  'Properties.deleteProperty': { ms: 62, source: `${SOURCE.ziritione} (a write)` },
  'Properties.deleteAllProperties': { ms: 62, source: `${SOURCE.ziritione} (a write)` },
  'Cache.get': { ms: 20, source: `${SOURCE.qiita} (the slower of the two reports; ziritione measured 3-4 ms)` },
  'Cache.getAll': { ms: 20, source: `${SOURCE.qiita} (the slower of the two reports' get)` },
  'Cache.put': { ms: 93, source: SOURCE.ziritione },
  'Cache.putAll': { ms: 93, source: `${SOURCE.ziritione} (one write)` },
  'Cache.remove': { ms: 90, source: SOURCE.qiita },
  'Cache.removeAll': { ms: 90, source: `${SOURCE.qiita} (one remove)` },
  'Lock.tryLock': { ms: 50, source: SOURCE.estimate },
  'Lock.waitLock': { ms: 50, source: SOURCE.estimate },
  'Lock.releaseLock': { ms: 30, source: SOURCE.estimate },
  'ScriptApp.getProjectTriggers': { ms: 150, source: SOURCE.estimate },
  'ScriptApp.getUserTriggers': { ms: 150, source: SOURCE.estimate },
  'ScriptApp.deleteTrigger': { ms: 300, source: SOURCE.estimate },
  'ClockTriggerBuilder.create': { ms: 500, source: SOURCE.estimate },
  'SpreadsheetTriggerBuilder.create': { ms: 500, source: SOURCE.estimate },
  'HtmlService.createHtmlOutputFromFile': { ms: 30, source: SOURCE.estimate },
  'HtmlService.createTemplateFromFile': { ms: 30, source: SOURCE.estimate },
  'Ui.showSidebar': { ms: 100, source: SOURCE.estimate },
  'Ui.showModalDialog': { ms: 100, source: SOURCE.estimate },
  'Ui.showModelessDialog': { ms: 100, source: SOURCE.estimate },
  'Spreadsheet.toast': { ms: 50, source: SOURCE.estimate },
  'Spreadsheet.insertSheet': { ms: 200, source: SOURCE.estimate },
  'Spreadsheet.deleteSheet': { ms: 200, source: SOURCE.estimate },
  'DeveloperMetadataFinder.find': { ms: 40, source: `${SOURCE.estimate} (as a range read)` },
  'console.*': { ms: 2, source: SOURCE.estimate },
  'Logger.*': { ms: 2, source: SOURCE.estimate },
  // Objects already in the script: a response's status, headers and text, a blob, a builder, a trigger's getters.
  'HTTPResponse.*': { ms: 0.05, source: `${SOURCE.estimate} (no round trip)` },
  'Blob.*': { ms: 0.05, source: `${SOURCE.estimate} (no round trip)` },
  'Utilities.*': { ms: 0.05, source: `${SOURCE.estimate} (computed in the script's runtime)` },
  'Utilities.sleep': { ms: 0, source: 'the sleep itself is the time (charged as a wait)' },
  'Trigger.*': { ms: 0.05, source: `${SOURCE.estimate} (no round trip)` },
  'TriggerBuilder.*': { ms: 0.05, source: `${SOURCE.estimate} (no round trip)` },
  'ClockTriggerBuilder.*': { ms: 0.05, source: `${SOURCE.estimate} (no round trip until create())` },
  'SpreadsheetTriggerBuilder.*': { ms: 0.05, source: `${SOURCE.estimate} (no round trip until create())` },
};

/** Object navigation and small getters of the services (getSheetByName, getRange, getName, getMaxRows...). */
const DEFAULT_CALL: Cost = { ms: 1, source: SOURCE.estimate };

/** The modelled cost of one service call (range reads and writes, HTTP and waits are charged on top by the services). */
export function callCost(className: string, method: string): number {
  return (CALLS[`${className}.${method}`] ?? CALLS[`${className}.*`] ?? DEFAULT_CALL).ms;
}

/** The modelled start of an execution of a bundle of `bundleBytes`. */
export function executionStartCost(bundleBytes: number): number {
  return EXECUTION_START.ms + (bundleBytes / 1024) * EXECUTION_START.perBundleKbMs;
}

/** What a cache call moves beyond its fixed cost: `values` keys or values, `readKb` and `writtenKb` of text. */
export function cacheDataCost(values: number, readKb: number, writtenKb: number): number {
  return values * CACHE.perValue.ms + readKb * CACHE.readPerKb.ms + writtenKb * CACHE.writePerKb.ms;
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
