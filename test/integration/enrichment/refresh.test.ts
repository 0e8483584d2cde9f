// "Refresh data older than N days" through the built bundle in the emulator against the sandbox over HTTP: the job
// dates what it enriched in a hidden sheet (no developer metadata), a month later the preview counts the stale rows,
// the service's data changes, the user sorts the sheet and inserts a row, and the refresh rewrites exactly the changed
// cells of the right rows with a note "Was ... until <date>", sends one lookup per domain, and leaves the rest alone.
import { createManualClock, type GasRuntime, type ManualClock } from '../../../dev/gas-runtime';
import type { SpawnedSandbox } from '../../../dev/sandbox/spawn';
import type { RefreshChangesAnswer, RefreshChunkResult, RefreshPreview } from '../../../src/enrichment/contract';
import type { SeededCompany, SandboxControl } from '../../../dev/sandbox/control-client';
import { hiddenRows, startSandbox, runtimeFor } from '../harness';
import { drive, start, LEADS } from './harness';

const DAY = 86_400_000;
let sandbox: SpawnedSandbox;
let control: SandboxControl;
let runtime: GasRuntime;
let companies: SeededCompany[];

beforeAll(async () => {
  ({ sandbox, control } = await startSandbox());
  await control.reset();
  companies = (await control.companies(40, true)).filter((company) => company.employee_count !== '10001+').slice(0, 6);
});

afterAll(async () => {
  await runtime?.close();
  await control.reset();
  await sandbox.stop();
});

const sheet = () => runtime.spreadsheet.sheet('Leads');
const rowOf = (domain: string) =>
  sheet()
    .getValues()
    .findIndex((row) => row[0] === domain) + 1;

it('refreshes only the changed cells of stale rows, in the right rows after a sort, with notes and a summary', async () => {
  const rows = [['Website'], ...companies.map((company) => [company.domain])];
  runtime = runtimeFor(sandbox.url, { sheets: { [LEADS]: rows }, clock: createManualClock(Date.UTC(2026, 9, 20, 12)) });
  start(runtime, { fields: ['company_name', 'employee_count', 'hq_city'] });
  await drive(runtime);
  const dates = runtime.spreadsheet.getSheet('Sheet Scout enrichment dates');
  expect(dates?.hidden).toBe(true);
  // Packed records, many to a cell: [sheet id, domain, time, fingerprints] (after the seal column).
  const records = hiddenRows(runtime.spreadsheet, 'Sheet Scout enrichment dates')
    .slice(1)
    .flatMap(([block]) => JSON.parse(String(block)) as unknown[][]);
  expect(records.map((record) => record[1]).sort()).toEqual(companies.map((c) => c.domain).sort());
  expect(dates?.lastRow()).toBe(2);
  expect(runtime.spreadsheet.metadataChars()).toBe(0);
  const fresh = runtime.run<RefreshPreview>('getRefreshPreview', [{ days: 30 }], { kind: 'sidebar' });
  expect(fresh).toMatchObject({ ok: true, staleRows: 0 });

  (runtime.clock as ManualClock).advance(35 * DAY);
  const [grown, moved] = companies;
  await control.changeCompany(grown.domain, { employee_count: '10001+' });
  await control.changeCompany(moved.domain, { hq_city: 'Lisbon', employee_count: '10001+' });
  sheet().sortRows({ row: 2, column: 1, numRows: 6, numColumns: 4 }, [{ column: 1, ascending: false }]);
  sheet().insertRows(3, 1);
  // The inserted row gets a domain enriched before, with its field cells empty: not the refresh's to fill (issue 28).
  sheet().typeInto('A3', grown.domain);

  const preview = runtime.run<RefreshPreview>('getRefreshPreview', [{ days: 30 }], { kind: 'sidebar' });
  expect(preview).toMatchObject({ ok: true, staleRows: 6, domains: 6, requests: 6, credits: 0 });
  const before = sheet().getValues();
  const logFrom = runtime.httpLog.length;
  const result = runtime.run<RefreshChunkResult>('runRefreshChunk', [{ days: 30 }], { kind: 'sidebar' });
  expect(result).toMatchObject({
    ok: true,
    checked: 6,
    changedRows: 2,
    changedCells: 3,
    changedByField: [
      { header: 'Employees', rows: 2 },
      { header: 'City', rows: 1 },
    ],
    remaining: 0,
  });
  expect(runtime.httpLog.slice(logFrom).filter((entry) => /\/v1\/companies\//.test(entry.url))).toHaveLength(6);

  const after = sheet().getValues();
  const notes = sheet().getNotes();
  const today = '2026-11-24';
  expect(after[2]).toEqual([grown.domain, '', '', '']);
  const grownRow = after.findIndex((row, index) => index !== 2 && row[0] === grown.domain) + 1;
  expect(after[grownRow - 1][2]).toBe('10001+');
  expect(notes[grownRow - 1][2]).toBe(`Was ${grown.employee_count} until ${today}`);
  const movedRow = rowOf(moved.domain);
  expect(after[movedRow - 1][3]).toBe('Lisbon');
  expect(notes[movedRow - 1][3]).toBe(`Was ${moved.hq_city} until ${today}`);
  // Every other cell is as it was, without a note.
  const changed = new Set([`${grownRow}:3`, `${movedRow}:3`, `${movedRow}:4`]);
  after.forEach((row, r) =>
    row.forEach((value, c) => {
      if (changed.has(`${r + 1}:${c + 1}`)) return;
      expect(value).toEqual(before[r][c]);
      expect(notes[r][c]).toBe('');
    }),
  );
  expect(runtime.run<RefreshPreview>('getRefreshPreview', [{ days: 30 }], { kind: 'sidebar' })).toMatchObject({
    staleRows: 0,
  });
  // The panel's "Changes" (issue 27): the three cells, with the rows that hold their companies now.
  const listed = runtime.run<RefreshChangesAnswer>('getRefreshChanges', [7], { kind: 'sidebar' });
  if (!listed.ok) throw new Error(listed.message);
  expect(
    listed.changes.map(({ row, domain, header, before, after }) => ({ row, domain, header, before, after })),
  ).toEqual(
    expect.arrayContaining([
      { row: grownRow, domain: grown.domain, header: 'Employees', before: grown.employee_count, after: '10001+' },
      { row: movedRow, domain: moved.domain, header: 'Employees', before: moved.employee_count, after: '10001+' },
      { row: movedRow, domain: moved.domain, header: 'City', before: moved.hq_city, after: 'Lisbon' },
    ]),
  );
  expect(listed).toMatchObject({ ok: true, more: false, changes: { length: 3 } });
  expect(runtime.spreadsheet.getSheet('Sheet Scout refresh changes')?.hidden).toBe(true);
});

it('keeps what the user typed over enriched cells (and cells they filled before), and says how many', async () => {
  await runtime?.close();
  await control.reset();
  const [typedOver, filledBefore, untouched] = companies.slice(0, 3);
  const rows = [
    ['Website', 'Company name', 'Employees'],
    [typedOver.domain, '', ''],
    [filledBefore.domain, '', 'about 40'],
    [untouched.domain, '', ''],
  ];
  runtime = runtimeFor(sandbox.url, { sheets: { [LEADS]: rows }, clock: createManualClock(Date.UTC(2026, 9, 20, 12)) });
  start(runtime, { fields: ['company_name', 'employee_count'] });
  await drive(runtime);
  expect(sheet().getValues()[2][2]).toBe('about 40');
  // The user corrects a company's name by hand; then the service changes every one of them.
  sheet().typeInto('B2', 'Acme (our name for it)');
  (runtime.clock as ManualClock).advance(35 * DAY);
  for (const company of [typedOver, filledBefore, untouched])
    await control.changeCompany(company.domain, { name: `${company.name} Group`, employee_count: '10001+' });

  const result = runtime.run<RefreshChunkResult>('runRefreshChunk', [{ days: 30 }], { kind: 'sidebar' });
  expect(result).toMatchObject({ ok: true, checked: 3, keptEdits: 2 });
  const after = sheet().getValues();
  expect(after[1].slice(1)).toEqual(['Acme (our name for it)', '10001+']);
  expect(after[2].slice(1)).toEqual([`${filledBefore.name} Group`, 'about 40']);
  expect(after[3].slice(1)).toEqual([`${untouched.name} Group`, '10001+']);
  expect(sheet().getNotes()[1][1]).toBe('');
  // The next refresh keeps them too.
  (runtime.clock as ManualClock).advance(35 * DAY);
  await control.changeCompany(typedOver.domain, { name: 'Acme Renamed' });
  expect(runtime.run<RefreshChunkResult>('runRefreshChunk', [{ days: 30 }], { kind: 'sidebar' })).toMatchObject({
    ok: true,
    keptEdits: 2,
  });
  expect(sheet().getValues()[1][1]).toBe('Acme (our name for it)');
});

it("refreshes a value the service wrote with a leading ' like any other (not taken for a hand edit)", async () => {
  await control.reset();
  const [quoted, plain] = companies;
  await control.changeCompany(quoted.domain, { name: "'Quoted Inc" });
  runtime = runtimeFor(sandbox.url, {
    sheets: { [LEADS]: [['Website'], [quoted.domain], [plain.domain]] },
    clock: createManualClock(Date.UTC(2026, 9, 20, 12)),
  });
  start(runtime, { fields: ['company_name'] });
  await drive(runtime);
  expect(sheet().getValues()[1][1]).toBe("'Quoted Inc");
  (runtime.clock as ManualClock).advance(35 * DAY);
  await control.changeCompany(quoted.domain, { name: "'Quoted Group" });
  await control.changeCompany(plain.domain, { name: "'Plain Group" });
  expect(runtime.run<RefreshChunkResult>('runRefreshChunk', [{ days: 30 }], { kind: 'sidebar' })).toMatchObject({
    ok: true,
    changedCells: 2,
    keptEdits: 0,
  });
  expect(sheet().getValues()[1][1]).toBe("'Quoted Group");
  expect(sheet().getNotes()[1][1]).toMatch(/^Was 'Quoted Inc until /);
  // Unchanged, it is left alone: no churn of the same value with a new note.
  (runtime.clock as ManualClock).advance(35 * DAY);
  expect(runtime.run<RefreshChunkResult>('runRefreshChunk', [{ days: 30 }], { kind: 'sidebar' })).toMatchObject({
    ok: true,
    changedCells: 0,
    keptEdits: 0,
  });
});

it("reads an earlier version's dates sheet (a row per domain), refreshes by it, and packs it at the first write", async () => {
  await runtime?.close();
  await control.reset();
  const [typedOver, changed, untouched] = companies.slice(0, 3);
  runtime = runtimeFor(sandbox.url, {
    sheets: { [LEADS]: [['Website'], [typedOver.domain], [changed.domain], [untouched.domain]] },
    clock: createManualClock(Date.UTC(2026, 9, 20, 12)),
  });
  start(runtime, { fields: ['company_name'] });
  await drive(runtime);
  // What an earlier version left: a header and a row per domain (sheet id, domain, time, fingerprints as JSON), in a
  // document without the sealing key of this version's hidden sheets.
  const dates = runtime.spreadsheet.getSheet('Sheet Scout enrichment dates');
  if (!dates) throw new Error('no dates sheet');
  const packed = hiddenRows(runtime.spreadsheet, 'Sheet Scout enrichment dates')
    .slice(1)
    .flatMap(([block]) => JSON.parse(String(block)) as unknown[][]);
  for (const sheet of runtime.spreadsheet.sheets.filter((one) => one.name.startsWith('Sheet Scout ')))
    runtime.spreadsheet.deleteSheet(sheet);
  runtime.properties.document.delete('sheetscout.seal.key');
  const legacy = runtime.spreadsheet.insertSheet('Sheet Scout enrichment dates');
  legacy.hidden = true;
  legacy.setValues(`A1:D${packed.length + 1}`, [
    ['Sheet id', 'Domain', 'Enriched at', 'Written'],
    ...packed.map(([id, domain, at, written]) => [Number(id), String(domain), String(at), JSON.stringify(written)]),
  ]);
  (runtime.clock as ManualClock).advance(35 * DAY);
  expect(runtime.run<RefreshPreview>('getRefreshPreview', [{ days: 30 }], { kind: 'sidebar' })).toMatchObject({
    ok: true,
    staleRows: 3,
  });
  // A hand edit is told apart by the earlier version's fingerprints.
  sheet().typeInto('B2', 'Our own name');
  for (const company of [typedOver, changed])
    await control.changeCompany(company.domain, { name: `${company.name} Ltd` });
  const result = runtime.run<RefreshChunkResult>('runRefreshChunk', [{ days: 30 }], { kind: 'sidebar' });
  expect(result).toMatchObject({ ok: true, checked: 3, changedCells: 1, keptEdits: 1 });
  expect(
    sheet()
      .getValues()
      .map((row) => row[1]),
  ).toEqual(['Company name', 'Our own name', `${changed.name} Ltd`, untouched.name]);
  // Now sealed and packed, every domain kept, and fresh.
  const after = hiddenRows(runtime.spreadsheet, 'Sheet Scout enrichment dates');
  expect(after[0][0]).toMatch(/^Sheet Scout enrichment dates \(packed/);
  const records = after.slice(1).flatMap(([block]) => (block ? (JSON.parse(String(block)) as unknown[][]) : []));
  expect(records.map((record) => record[1]).sort()).toEqual(
    [typedOver, changed, untouched].map((c) => c.domain).sort(),
  );
  expect(after.slice(1).every((row) => row.slice(1).every((cell) => cell === ''))).toBe(true);
  expect(runtime.run<RefreshPreview>('getRefreshPreview', [{ days: 30 }], { kind: 'sidebar' })).toMatchObject({
    staleRows: 0,
  });
});
