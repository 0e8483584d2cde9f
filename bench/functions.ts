// `npm run bench -- functions`: =COMPANY_LOOKUP(A2:A501) in the emulated sheet against the sandbox with 200 ms
// injected latency per lookup. Prints the cold call's wall time, HTTP calls made vs unique domains (the 500 inputs
// hold duplicates written differently), and the HTTP calls of a warm recalculation (the file reopened); each with its
// modelled time (bench/_modelled.ts). Goals: cold <= 10 s, warm <= 1 s modelled.
import { createManualClock } from '../dev/gas-runtime';
import { SETTINGS_KEYS } from '../src/shared/connection';
import { runtimeFor, startSandbox } from '../test/integration/harness';
import { goal, markModelled, modelledFields, modelledSince, seconds } from './_modelled';

const ROWS = 500;
const UNIQUE = 420;
const LATENCY_MS = 200;

export async function run(): Promise<void> {
  const { sandbox, control } = await startSandbox({ clock: 'manual' });
  // The runtime's clock is the modelled time (a manual clock the cost model moves), so the figures repeat exactly.
  const runtime = runtimeFor(sandbox.url, {
    user: 'owner@example.com',
    token: null,
    addonName: 'Sheet Scout',
    clock: createManualClock(await control.now()),
  });
  try {
    const domains = (await control.companies(UNIQUE, true)).map((company) => company.domain);
    // The other rows repeat earlier companies as a user would paste them: URL, www., upper case, e-mail.
    const variants = [
      (d: string) => `https://www.${d}/about`,
      (d: string) => d.toUpperCase(),
      (d: string) => `info@${d}`,
    ];
    const inputs = [...domains];
    for (let i = 0; inputs.length < ROWS; i++)
      inputs.push(variants[i % variants.length](domains[(i * 7) % domains.length]));

    runtime.properties.document.set(SETTINGS_KEYS.formulaToken, 'sbx_pro_token');
    runtime.properties.document.set(SETTINGS_KEYS.formulaBaseUrl, sandbox.url);
    runtime.open();
    runtime.spreadsheet.sheet().setValues(
      `A2:A${ROWS + 1}`,
      inputs.map((input) => [input]),
    );
    await control.call('POST', '/_sandbox/faults', { route: 'lookup', latencyMs: LATENCY_MS });
    await control.call('POST', '/_sandbox/stats/reset');

    const coldMark = markModelled(runtime.counters);
    const started = Date.now();
    runtime.userEdit('B2', `=COMPANY_LOOKUP(A2:A${ROWS + 1})`);
    const coldSeconds = (Date.now() - started) / 1000;
    const cold = modelledSince(runtime.counters, coldMark, 'custom-function');
    const coldStats = await control.stats();
    const httpCalls = coldStats.lookup ?? 0;
    const fetchAllCalls = runtime.counters.urlFetch.fetchAllCalls;
    const results = runtime.spreadsheet.sheet().getValues(`B2:C${ROWS + 1}`);
    const filled = results.filter((row) => row[1] !== '' && !String(row[0]).startsWith('Pending')).length;
    const pending = results.filter((row) => String(row[0]).startsWith('Pending')).length;

    await control.call('POST', '/_sandbox/stats/reset');
    const urlFetchBefore = runtime.counters.urlFetch.total;
    const warmMark = markModelled(runtime.counters);
    const warmStarted = Date.now();
    runtime.open();
    const warmSeconds = (Date.now() - warmStarted) / 1000;
    const warm = modelledSince(runtime.counters, warmMark, 'custom-function');
    const warmStats = await control.stats();
    const warmHttpCalls = Math.max(warmStats.lookup ?? 0, runtime.counters.urlFetch.total - urlFetchBefore);

    console.log(
      `=COMPANY_LOOKUP(A2:A${ROWS + 1}), ${UNIQUE} unique domains, ${LATENCY_MS} ms injected latency per lookup`,
    );
    console.log(
      `  cold:  ${coldSeconds.toFixed(2)} s wall, ${seconds(cold.ms)} s modelled in ${cold.executions} formula execution(s), ${httpCalls} lookups in ${fetchAllCalls} fetchAll calls, ${filled} rows filled, ${pending} pending`,
    );
    console.log(
      `  warm (file reopened): ${warmSeconds.toFixed(2)} s wall, ${seconds(warm.ms)} s modelled in ${warm.executions} formula execution(s), ${warmHttpCalls} HTTP calls`,
    );
    console.log(goal('COMPANY_LOOKUP 500 rows cold (modelled)', cold.ms / 1000, 10, 's'));
    console.log(goal('COMPANY_LOOKUP 500 rows warm (modelled)', warm.ms / 1000, 1, 's'));
    console.log(
      `functions: cold_s=${coldSeconds.toFixed(2)} http_calls=${httpCalls} unique=${UNIQUE} warm_http_calls=${warmHttpCalls} ` +
        `${modelledFields(cold)} warm_modelled_s=${seconds(warm.ms)}`,
    );
  } finally {
    await runtime.close();
    await sandbox.stop();
  }
}
