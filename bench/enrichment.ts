// Bulk enrichment benchmark: the add-in's job over 2,000 rows (1,500 unique domains, some not yet enriched so they
// answer 202 first) through the built bundle in the emulator, against the sandbox with 200 ms of latency per lookup;
// and a naive one-cell-at-a-time script (getValue, one sequential fetch, setValue per row) over the first 200 rows,
// scaled to 2,000. Prints HTTP calls, sheet reads/writes, wall time, rows/s, the ideal time for the concurrency used,
// and the summary line. The sandbox finishes an enrichment 1 s after the first lookup (its default is 5 s).
// BENCH_DEBUG=1 also prints the fetchAll batch sizes per execution; BENCH_SKIP_NAIVE=1 skips the baseline (tuning).
import { createRuntime, createRealClock, SpreadsheetModel } from '../dev/gas-runtime';
import { LIMITS, type EnrichProgress } from '../src/enrichment/job';
import { drive, runtimeWith, start, startSandbox, TOKEN, USER } from '../test/integration/enrichment/harness';
import { shuffled } from './_shuffle';

const ROWS = 2000;
const UNIQUE = 1500;
const PENDING = 50;
const LATENCY_MS = 200;
const NAIVE_ROWS = 200;
const FIELDS = ['company_name', 'hq_country', 'employee_count', 'founding_year', 'short_description'];

const NAIVE_SCRIPT = `
function naiveEnrich(rows, baseUrl, token) {
  var sheet = SpreadsheetApp.getActiveSheet();
  for (var r = 2; r <= rows + 1; r++) {
    var domain = String(sheet.getRange(r, 1).getValue()).trim().toLowerCase();
    var response = UrlFetchApp.fetch(baseUrl + '/v1/companies/' + encodeURIComponent(domain), {
      headers: { Authorization: 'Bearer ' + token }, muteHttpExceptions: true });
    var name = response.getResponseCode() === 200 ? JSON.parse(response.getContentText()).company_name : 'n/a';
    sheet.getRange(r, 2).setValue(name);
  }
}`;

export async function run(): Promise<void> {
  const { sandbox, control } = await startSandbox();
  try {
    await control.call('POST', '/_sandbox/reset');
    await control.call('POST', '/_sandbox/config', { enrichmentDelayMs: 1000 });
    const ready = await control.companies(UNIQUE - PENDING, true);
    const pending = await control.companies(PENDING, false);
    const domains = shuffled([...ready, ...pending].map((company) => company.domain), 42);
    const duplicates = Array.from({ length: ROWS - UNIQUE }, (_, i) => domains[(i * 7) % UNIQUE]);
    const column = shuffled(
      [...domains, ...duplicates.map((domain, i) => (i % 3 === 0 ? domain.toUpperCase() : i % 3 === 1 ? `https://www.${domain}/` : domain))],
      7,
    );
    const rows: unknown[][] = [['Website'], ...column.map((value) => [value])];
    await control.call('POST', '/_sandbox/faults', { route: 'lookup', latencyMs: LATENCY_MS });

    // (a) The add-in's bulk job, driven like the sidebar (one execution per chunk), real clock.
    const runtime = runtimeWith(sandbox.url, rows, createRealClock());
    const statsBefore = await control.lookupCount();
    runtime.counters.reset();
    const began = Date.now();
    start(runtime, { fields: FIELDS });
    const { progress } = await drive(runtime, { realTime: true });
    const wallMs = Date.now() - began;
    const httpCalls = (await control.lookupCount()) - statsBefore;
    const sheetIo = runtime.counters.sheet.reads + runtime.counters.sheet.writes;
    const accepted = runtime.httpLog.filter((entry) => entry.status === 202).length;
    const fetchAlls = runtime.counters.urlFetch.fetchAllCalls;
    if (process.env.BENCH_DEBUG) {
      const groups: string[] = [];
      let last = '';
      let size = 0;
      for (const entry of runtime.httpLog) {
        const key = `${entry.executionId}/${entry.durationMs}`;
        if (key !== last && size > 0) groups.push(`${last.split('/')[0]}:${size}`);
        if (key !== last) size = 0;
        last = key;
        size++;
      }
      groups.push(`${last.split('/')[0]}:${size}`);
      console.log(`fetchAll batches (execution:size): ${groups.join(' ')}`);
      const byExecution = new Map<number, Set<number>>();
      for (const entry of runtime.httpLog) byExecution.set(entry.executionId, (byExecution.get(entry.executionId) ?? new Set()).add(entry.durationMs));
      console.log(`http ms per execution: ${[...byExecution].map(([id, set]) => `${id}:${[...set].reduce((a, b) => a + b, 0)}`).join(' ')}`);
    }
    await runtime.close();
    report(progress);

    if (process.env.BENCH_SKIP_NAIVE) return;
    // (b) Naive baseline over the first rows, in its own runtime against the same sandbox and latency.
    await control.call('POST', '/_sandbox/config', { enrichmentDelayMs: 1000 });
    const spreadsheet = new SpreadsheetModel({ rows: ROWS + 50, sheetNames: ['Leads'] });
    spreadsheet.sheet('Leads').setValues(`A1:A${rows.length}`, rows as string[][]);
    const naive = createRuntime({ bundleSource: NAIVE_SCRIPT, spreadsheet, users: [USER] });
    naive.counters.reset();
    const naiveBegan = Date.now();
    naive.run('naiveEnrich', [NAIVE_ROWS, sandbox.url, TOKEN], { kind: 'menu' });
    const naiveMs = Date.now() - naiveBegan;
    const naiveIo = naive.counters.sheet.reads + naive.counters.sheet.writes;
    const naiveHttp = naive.counters.urlFetch.total;
    await naive.close();

    const scale = ROWS / NAIVE_ROWS;
    const naiveScaledMs = naiveMs * scale;
    const concurrency = LIMITS.batchSize;
    const idealMs = Math.ceil(httpCalls / concurrency) * LATENCY_MS;
    const speedup = naiveScaledMs / wallMs;
    const ratio = wallMs / idealMs;
    const chunks = progress.chunks;
    console.log('');
    console.log(`add-in job : ${ROWS} rows, ${UNIQUE} unique domains (${PENDING} not yet enriched), ${FIELDS.length} fields`);
    console.log(`  http calls ${httpCalls} (= ${UNIQUE} unique + ${accepted} after a 202: ${httpCalls === UNIQUE + accepted ? 'yes' : 'NO'}) in ${fetchAlls} fetchAll calls`);
    console.log(`  sheet io ${sheetIo} (reads ${runtime.counters.sheet.reads}, writes ${runtime.counters.sheet.writes}) for ${chunks} chunks; goal <= 2 x chunks + 10 = ${2 * chunks + 10}`);
    console.log(`  wall ${(wallMs / 1000).toFixed(2)} s, ${(ROWS / (wallMs / 1000)).toFixed(1)} rows/s`);
    console.log(`  ideal for concurrency ${concurrency} at ${LATENCY_MS} ms: ceil(${httpCalls} / ${concurrency}) x ${LATENCY_MS} ms = ${(idealMs / 1000).toFixed(2)} s; ratio ${ratio.toFixed(2)}`);
    console.log(`naive      : ${NAIVE_ROWS} rows in ${(naiveMs / 1000).toFixed(2)} s (${(NAIVE_ROWS / (naiveMs / 1000)).toFixed(1)} rows/s), http ${naiveHttp}, sheet io ${naiveIo}`);
    console.log(`  scaled to ${ROWS} rows: ${(naiveScaledMs / 1000).toFixed(1)} s, http ${naiveHttp * scale}, sheet io ${naiveIo * scale}`);
    console.log(`speedup ${speedup.toFixed(1)}x`);
    console.log(
      `enrichment: rows=${ROWS} unique=${UNIQUE} http_calls=${httpCalls} sheet_io=${sheetIo} wall_s=${(wallMs / 1000).toFixed(2)} speedup_vs_naive=${speedup.toFixed(1)} ratio_to_ideal=${ratio.toFixed(2)}`,
    );
  } finally {
    await sandbox.stop();
  }
}

function report(progress: EnrichProgress): void {
  console.log(`job: ${progress.status}, ${progress.percent} %, written ${progress.counts.written} rows, not found ${progress.counts.notFound}, gave up ${progress.counts.gaveUp}, errors ${progress.counts.errors}, chunks ${progress.chunks}, lookups ${progress.lookups}, cache hits ${progress.cacheHits}`);
}
