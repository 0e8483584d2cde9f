// Issue 29 item 5: the Enrich panel shows the sheet's own last run. Through the built bundle in the emulator against
// the sandbox: a run on "Leads" is not shown on "Prospects" (before, "Last run: done · Rows filled" showed there), and
// after "Prospects" is enriched too, each sheet shows its own run, named.
import { createManualClock, type GasRuntime } from '../../../dev/gas-runtime';
import type { EnrichPreview } from '../../../src/enrichment/contract';
import { runtimeFor, closeAfterTest, sandboxSuite } from '../harness';
import { drive, start, LEADS } from './harness';

const suite = sandboxSuite();
const PROSPECTS = 'Prospects';

function preview(rt: GasRuntime, sheet: string): EnrichPreview {
  const model = rt.spreadsheet.sheet(sheet);
  rt.spreadsheet.activeSheet = model;
  rt.spreadsheet.selection = { sheet: model, rect: { row: 1, column: 1, numRows: 1, numColumns: 1 } };
  return rt.run<EnrichPreview>('getEnrichmentPreview', [{}], { kind: 'sidebar' });
}

it("shows each sheet's own last run, and none on a sheet never enriched", async () => {
  const companies = await suite.control.companies(6, true);
  const rt = closeAfterTest(
    runtimeFor(suite.url, {
      sheets: {
        [LEADS]: [['Website'], ...companies.slice(0, 4).map((c) => [c.domain])],
        [PROSPECTS]: [['Website'], ...companies.slice(4).map((c) => [c.domain])],
      },
      clock: createManualClock(),
    }),
  );
  preview(rt, LEADS);
  start(rt, { fields: ['company_name'] });
  await drive(rt);
  expect(preview(rt, LEADS).job).toMatchObject({ sheetName: LEADS, status: 'done', counts: { written: 4 } });
  expect(preview(rt, PROSPECTS).job).toBeNull();

  start(rt, { fields: ['company_name'] });
  await drive(rt);
  expect(preview(rt, PROSPECTS).job).toMatchObject({ sheetName: PROSPECTS, status: 'done', counts: { written: 2 } });
  expect(preview(rt, LEADS).job).toMatchObject({ sheetName: LEADS, status: 'done', counts: { written: 4 } });
});
