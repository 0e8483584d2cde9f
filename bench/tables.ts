// `npm run bench -- tables`: the mapping dialog on a wide sheet (120 columns, every 3rd an agent with a long prompt
// that consumes the column before it), in the emulator against the sandbox with 200 ms injected latency (modelled
// time: on its manual clock the sandbox states the latency without waiting it out). Prints the sheet reads and wall
// time of opening the dialog, the properties a save writes (9 KB per value), the HTTP calls and wall time of pushing
// all columns, and the time the dialog's live validation takes for the whole mapping.
import type { GasRuntime } from '../dev/gas-runtime';
import { runtimeFor, startSandbox } from '../test/integration/harness';
import { modelledFields, seconds } from './_modelled';
import { RECORDS_SHEET } from '../src/shared/storage/internal-sheets';
import type { ColumnDraft } from '../src/tables/model';
import type { PushResponse, TablesState } from '../src/tables/service';
import { validateMapping } from '../src/tables/validate';

const COLUMNS = 120;
const LATENCY_MS = 200;
const TABLE = 'tbl_labs_companies';

function timed<T>(work: () => T): { value: T; ms: number } {
  const started = process.hrtime.bigint();
  const value = work();
  return { value, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

export async function run(): Promise<void> {
  const { sandbox, control } = await startSandbox({ clock: 'manual' });
  let created: GasRuntime | undefined;
  try {
    const headers = Array.from({ length: COLUMNS }, (_, i) => `Field ${i + 1}`);
    const runtime = (created = runtimeFor(sandbox.url, {
      user: 'owner@example.com',
      addonName: 'Sheet Scout',
      sheets: { Sheet1: [headers] },
      minColumns: COLUMNS + 10,
    }));

    runtime.counters.reset();
    const opened = timed(() => runtime.run<TablesState>('getTablesState', [], { kind: 'sidebar' }));
    const openReads = runtime.counters.sheet.reads;
    const openModelled = runtime.counters.modelled.lastExecutionMs;
    const prompt = `Using {PREV}, research {input} in depth: ${'products, customers, pricing, hiring, news; '.repeat(12)}`;
    // A new mapping starts with every column skipped: the bench includes them all.
    const drafts: ColumnDraft[] = opened.value.drafts.map((draft, i) =>
      i % 3 === 2
        ? {
            ...draft,
            include: true,
            kind: 'agent',
            agent: { ...draft.agent, prompt: prompt.replace('PREV', opened.value.drafts[i - 1].key) },
          }
        : { ...draft, include: true },
    );
    const validation = timed(() => validateMapping(drafts));
    if (validation.value.some((issue) => issue.severity === 'error')) throw new Error(validation.value[0].message);

    const sheetId = opened.value.sheetId;
    const saved = timed(() => runtime.run('saveTablesMapping', [{ sheetId, drafts }], { kind: 'sidebar' }));
    const saveModelled = runtime.counters.modelled.lastExecutionMs;
    // Mappings live in the hidden records sheet (the document's 500 KB of properties stay free).
    const records = runtime.spreadsheet.sheet(RECORDS_SHEET).getValues().flat().map(String);
    const storedBytes = records.reduce((sum, value) => sum + Buffer.byteLength(value), 0);
    const largestValue = Math.max(0, ...records.map((value) => Buffer.byteLength(value)));

    await control.call('POST', '/_sandbox/faults', { route: 'columns', latencyMs: LATENCY_MS });
    await control.call('POST', '/_sandbox/stats/reset');
    runtime.counters.reset();
    const pushed = timed(() =>
      runtime.run<PushResponse>('pushTablesColumns', [{ sheetId, drafts, table: TABLE, position: { at: 'end' } }], {
        kind: 'sidebar',
      }),
    );
    if (pushed.value.status !== 'created')
      throw new Error(`push failed: ${pushed.value.status} ${'message' in pushed.value ? pushed.value.message : ''}`);
    const stats = (await control.call('GET', '/_sandbox/stats')) as Record<string, number>;
    const pushModelled = runtime.counters.modelled.lastExecutionMs;
    const reopened = timed(() => runtime.run<TablesState>('getTablesState', [], { kind: 'sidebar' }));

    console.log(
      `Tables dialog on a ${COLUMNS}-column sheet (${drafts.filter((d) => d.kind === 'agent').length} agent columns, ${prompt.length}-character prompts), ${LATENCY_MS} ms injected latency on create-columns (in the modelled figures)`,
    );
    console.log(`  open:     ${opened.ms.toFixed(0)} ms wall, ${openReads} sheet reads`);
    console.log(
      `  validate: ${validation.ms.toFixed(1)} ms for the whole mapping (runs on every keystroke in the dialog)`,
    );
    console.log(
      `  save:     ${saved.ms.toFixed(0)} ms wall, ${(storedBytes / 1000).toFixed(1)} KB in the hidden records sheet (largest cell ${largestValue} characters, limit 50,000)`,
    );
    console.log(
      `  push:     ${pushed.ms.toFixed(0)} ms wall, ${pushed.value.columns.length} columns created in ${stats.columns ?? 0} HTTP call(s), ${runtime.counters.sheet.reads} sheet reads`,
    );
    console.log(
      `  reopen:   ${reopened.ms.toFixed(0)} ms wall, ${reopened.value.drafts.filter((d) => d.kind === 'agent').length} agent columns restored`,
    );
    console.log(
      `tables: columns=${COLUMNS} open_ms=${opened.ms.toFixed(0)} open_sheet_reads=${openReads} validate_ms=${validation.ms.toFixed(1)} save_ms=${saved.ms.toFixed(0)} stored_kb=${(storedBytes / 1000).toFixed(1)} push_ms=${pushed.ms.toFixed(0)} push_http_calls=${stats.columns ?? 0} ` +
        `open_modelled_s=${seconds(openModelled)} save_modelled_s=${seconds(saveModelled)} push_modelled_s=${seconds(pushModelled)} ` +
        `${modelledFields({ ms: runtime.counters.modelled.totalMs, executions: runtime.counters.executions, maxExecutionMs: runtime.counters.modelled.maxExecutionMs })}`,
    );
  } finally {
    await created?.close();
    await sandbox.stop();
  }
}
