// Company search benchmark: 2,000 results (8 pages of 250) of a described market with two filters and 1,000 excluded
// domains, through the built bundle in the emulator against the sandbox with 300 ms of latency per search request:
// the panel's preview (all pages in one parallel fetchAll) and its write into a new sheet (one setValues); then a
// naive script that fetches the pages one after another and appends one row per company. Prints HTTP calls,
// fetchAll rounds, sheet reads/writes and wall times, and the summary line.
import { createRuntime, createRealClock, SpreadsheetModel } from '../dev/gas-runtime';
import type { PreviewAnswer, WriteAnswer } from '../src/search/service';
import { emptyFilterForm, type SearchSpec } from '../src/search/spec';
import { startSandbox, USER, runtimeFor } from '../test/integration/harness';
import { markModelled, modelledFields, modelledSince, seconds } from './_modelled';

const COUNT = 2000;
const LATENCY_MS = 300;
const TOKEN = 'sbx_pro_token';

const NAIVE_SCRIPT = `
function naiveSearch(count, baseUrl, token, body) {
  var sheet = SpreadsheetApp.getActiveSheet();
  sheet.appendRow(['Company', 'Domain', 'Country', 'Employees', 'Founded']);
  for (var offset = 0; offset < count; offset += 250) {
    body.pagination = { offset: offset, limit: Math.min(250, count - offset) };
    var response = UrlFetchApp.fetch(baseUrl + '/v1/companies/search', { method: 'post', contentType: 'application/json',
      payload: JSON.stringify(body), headers: { Authorization: 'Bearer ' + token }, muteHttpExceptions: true });
    var results = JSON.parse(response.getContentText()).results;
    for (var i = 0; i < results.length; i++) {
      var r = results[i];
      sheet.appendRow([r.name, r.domain, r.hq_country, r.employee_count, r.founding_year]);
    }
    if (results.length < 250) break;
  }
}`;

function elapsed<T>(work: () => T): { value: T; ms: number } {
  const started = Date.now();
  const value = work();
  return { value, ms: Date.now() - started };
}

export async function run(): Promise<void> {
  const { sandbox, control } = await startSandbox();
  try {
    await control.setFault({ route: 'search', latencyMs: LATENCY_MS });
    const excluded = Array.from({ length: 1000 }, (_, i) => `excluded-company-${i}.com`);
    const spec: SearchSpec = {
      mode: 'describe',
      query: 'software',
      reference: '',
      count: COUNT,
      filters: {
        ...emptyFilterForm(),
        sizes: ['10001+'],
        sizeMode: 'exclude',
        foundedFrom: 1900,
        excludeDomains: excluded,
      },
    };

    const runtime = runtimeFor(sandbox.url, { token: TOKEN, minRows: 200 });
    const previewMark = markModelled(runtime.counters);
    const preview = elapsed(() => runtime.run<PreviewAnswer>('previewCompanySearch', [spec], { kind: 'sidebar' }));
    if (!preview.value.ok) throw new Error(preview.value.message);
    const afterPreview = {
      requests: runtime.counters.urlFetch.total,
      rounds: runtime.counters.urlFetch.fetchAllCalls,
      reads: runtime.counters.sheet.reads,
      writes: runtime.counters.sheet.writes,
    };
    const previewModelled = modelledSince(runtime.counters, previewMark);
    runtime.counters.reset();
    const writeMark = markModelled(runtime.counters);
    const write = elapsed(() =>
      runtime.run<WriteAnswer>(
        'writeCompanySearch',
        [
          {
            searchId: preview.value.ok ? preview.value.searchId : null,
            spec,
            columns: ['name', 'domain', 'country', 'size', 'founded'],
            target: { kind: 'new' },
          },
        ],
        { kind: 'sidebar' },
      ),
    );
    if (!write.value.ok) throw new Error(write.value.message);
    const afterWrite = {
      requests: runtime.counters.urlFetch.total,
      reads: runtime.counters.sheet.reads,
      writes: runtime.counters.sheet.writes,
    };
    const writeModelled = modelledSince(runtime.counters, writeMark);
    await runtime.close();

    const naiveRuntime = createRuntime({
      bundleSource: NAIVE_SCRIPT,
      spreadsheet: new SpreadsheetModel({ rows: COUNT + 10 }),
      users: [USER],
      clock: createRealClock(),
    });
    const filters = { exclude: { size: spec.filters.sizes, domains: excluded }, range: { founded: { min: 1900 } } };
    const naive = elapsed(() =>
      naiveRuntime.run('naiveSearch', [COUNT, sandbox.url, TOKEN, { q: 'software', filters }], { kind: 'menu' }),
    );
    const naiveCounts = {
      requests: naiveRuntime.counters.urlFetch.total,
      writes: naiveRuntime.counters.sheet.writes,
      rows: naiveRuntime.spreadsheet.sheets[0].lastRow() - 1,
      modelledMs: naiveRuntime.counters.modelled.totalMs,
    };
    await naiveRuntime.close();

    const total = preview.ms + write.ms;
    console.log(
      `search latency per request: ${LATENCY_MS} ms; results asked: ${COUNT}; excluded domains: ${excluded.length}`,
    );
    console.log(
      `add-in preview: ${preview.value.count} results, ${afterPreview.requests} requests in ${afterPreview.rounds} fetchAll round(s), ${afterPreview.reads} sheet reads, ${afterPreview.writes} sheet writes, ${preview.ms} ms`,
    );
    console.log(
      `add-in write:   ${write.value.written} rows into "${write.value.sheet.name}", ${afterWrite.requests} requests (results reused from the cache), ${afterWrite.reads} sheet reads, ${afterWrite.writes} sheet writes, ${write.ms} ms`,
    );
    console.log(
      `naive script:   ${naiveCounts.rows} rows, ${naiveCounts.requests} sequential requests, ${naiveCounts.writes} sheet writes, ${naive.ms} ms`,
    );
    console.log(
      `ideal for sequential paging: ${Math.ceil(COUNT / 250) * LATENCY_MS} ms of latency alone; one parallel round: ${LATENCY_MS} ms`,
    );
    console.log(
      `search: results=${preview.value.count} requests=${afterPreview.requests} fetchAllRounds=${afterPreview.rounds} previewMs=${preview.ms} writeMs=${write.ms} totalMs=${total} sheetWrites=${afterWrite.writes} naiveMs=${naive.ms} naiveSheetWrites=${naiveCounts.writes} speedup=${(naive.ms / total).toFixed(1)}x ` +
        `${modelledFields({ ms: previewModelled.ms + writeModelled.ms, executions: previewModelled.executions + writeModelled.executions, maxExecutionMs: Math.max(previewModelled.maxExecutionMs, writeModelled.maxExecutionMs) })} ` +
        `naive_modelled_s=${seconds(naiveCounts.modelledMs)}`,
    );
  } finally {
    await sandbox.stop();
  }
}
