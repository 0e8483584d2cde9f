// Bulk enrichment through the built bundle in the emulator against the sandbox over HTTP: a messy column end to end,
// sorting/inserting/deleting rows mid-job, faults (429 with Retry-After, 500/503, dropped connections) with
// executions killed at random points, the continuation trigger, and a missing token.
import { createManualClock, type GasRuntime, type ManualClock } from '../../../dev/gas-runtime';
import { SETTINGS_KEYS } from '../../../src/shared/connection';
import type { EnrichPreview, EnrichProgress } from '../../../src/enrichment/contract';
import type { SeededCompany } from '../../../dev/sandbox/control-client';
import { USER, TOKEN, runtimeFor, closeAfterTest, sandboxSuite } from '../harness';
import { drive, formulaCount, sheetValues, start, LEADS } from './harness';

const suite = sandboxSuite();

const FIELDS = ['company_name', 'hq_country', 'employee_count', 'founding_year'];
let enriched: SeededCompany[];
let pending: SeededCompany[];

beforeAll(async () => {
  enriched = await suite.control.companies(1700, true);
  pending = await suite.control.companies(6, false);
});

beforeEach(async () => {
  await suite.control.setEnrichmentDelay(0);
});

function runtime(rows: unknown[][], fetchAllConcurrency: number | null = null): GasRuntime {
  return closeAfterTest(
    runtimeFor(suite.url, {
      sheets: { [LEADS]: rows },
      clock: createManualClock(),
      behaviours: { fetchAllConcurrency },
    }),
  );
}

/** A column as users paste it: URLs with paths, e-mails, odd case, duplicates, blanks, junk, IDN, unknown domains. */
function messyRows(): unknown[][] {
  const rows: unknown[][] = [['Website']];
  enriched.slice(0, 60).forEach((company, i) => {
    const d = company.domain;
    rows.push([
      i % 4 === 0 ? `https://www.${d}/about?x=${i}` : i % 4 === 1 ? d.toUpperCase() : i % 4 === 2 ? `ceo@${d}` : d,
    ]);
    if (i % 6 === 0) rows.push([` ${d.toUpperCase()} `]);
  });
  pending.slice(0, 4).forEach((company) => rows.push([company.domain]));
  rows.push(
    ['n/a'],
    ['hello world'],
    ['1.2.3.4'],
    [''],
    ['localhost'],
    [''],
    ['nosuchcompany-zz.com'],
    ['bücher-nirgendwo.de'],
  );
  return rows;
}

const byDomain = (): Map<string, SeededCompany> =>
  new Map([...enriched, ...pending].map((company) => [company.domain, company]));

/** Checks that every row's fields (all four, or the name only) belong to the domain in that row. */
function expectRowsMatchDomains(values: unknown[][], nameOnly = false): number {
  const companies = byDomain();
  let checked = 0;
  for (const row of values.slice(1)) {
    const text = String(row[0]).trim().toLowerCase();
    const domain = text
      .replace(/^https?:\/\/(www\.)?/, '')
      .replace(/^.*@/, '')
      .replace(/\/.*$/, '');
    const company = companies.get(domain);
    if (!company) continue;
    if (nameOnly) expect([row[0], row[1]]).toEqual([row[0], company.name]);
    else
      expect([row[0], row[1], row[2], row[3], row[4]]).toEqual([
        row[0],
        company.name,
        company.hq_country,
        company.employee_count,
        company.founding_year,
      ]);
    checked++;
  }
  return checked;
}

function lookedUpDomain(url: string): string {
  return decodeURIComponent(url.replace(/^.*\/v1\/companies\//, ''));
}

describe('bulk enrichment through the bundle', () => {
  it('enriches a messy column: values in the right rows, clear cell messages, one request per unique domain', async () => {
    const rt = runtime(messyRows());
    const preview = rt.run<EnrichPreview>('getEnrichmentPreview', [{ fields: FIELDS }], { kind: 'sidebar' });
    expect(preview).toMatchObject({
      ok: true,
      domainColumn: 1,
      hasHeaderRow: true,
      rows: messyRows().length - 1,
      uniqueDomains: 66,
      blank: 2,
      invalid: 4,
      toLookUp: 66,
      credits: 0,
    });

    start(rt, { fields: FIELDS });
    const { progress } = await drive(rt);
    expect(progress).toMatchObject({
      status: 'done',
      percent: 100,
      resolvedDomains: 66,
      counts: { written: 74, notFound: 2, errors: 0, gaveUp: 0 },
    });

    const values = sheetValues(rt);
    expect(values[0]).toEqual(['Website', 'Company name', 'Country', 'Employees', 'Founded']);
    expect(expectRowsMatchDomains(values)).toBe(74);
    const messages = new Map(values.slice(1).map((row) => [String(row[0]), row[1]]));
    expect(messages.get('n/a')).toBe('Invalid domain: "n/a"');
    expect(messages.get('localhost')).toBe('Invalid domain: "localhost"');
    expect(messages.get('nosuchcompany-zz.com')).toBe('Not found: no company profile for this domain');
    expect(messages.get('bücher-nirgendwo.de')).toBe('Not found: no company profile for this domain');
    expect(values.filter((row) => row[0] === '').every((row) => row.slice(1).every((cell) => cell === ''))).toBe(true);
    expect(formulaCount(rt)).toBe(0);

    // Unique domains once each, plus one more lookup for each domain that answered 202 first.
    const lookups = rt.httpLog.filter((entry) => entry.url.includes('/v1/companies/'));
    expect(lookups).toHaveLength(66 + 4);
    expect(lookups.filter((entry) => entry.status === 202)).toHaveLength(4);
    expect(rt.httpLog.every((entry) => entry.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);

    // A second run on the same data: nothing left to fill, no request at all.
    const before = await suite.control.lookupsServed();
    start(rt, { fields: FIELDS });
    const again = await drive(rt);
    expect(again.progress).toMatchObject({ status: 'done', totalDomains: 0 });
    expect(await suite.control.lookupsServed()).toBe(before);
    expect(sheetValues(rt)).toEqual(values);

    // Overwriting everything is served by the shared profile cache (the one the custom functions use).
    start(rt, { fields: FIELDS, overwrite: true });
    const overwritten = await drive(rt);
    expect(overwritten.progress).toMatchObject({ status: 'done', totalDomains: 66, cacheHits: 66, lookups: 0 });
    expect(await suite.control.lookupsServed()).toBe(before);
    expect(sheetValues(rt)).toEqual(values);
  });

  it('re-runs a finished job over more domains than the cache has items without a single request', async () => {
    const fields = ['company_name', 'linkedin', 'hq_country'];
    const known = enriched.slice(0, 1300).map((company) => company.domain);
    const unknown = Array.from({ length: 20 }, (_, i) => `no-such-company-${i}.com`);
    const variants = known
      .slice(0, 200)
      .map((domain, i) => (i % 2 === 0 ? domain.toUpperCase() : `https://www.${domain}/`));
    const rt = runtime([['Website'], ...[...known, ...unknown, ...variants].map((value) => [value])]);
    start(rt, { fields });
    const first = await drive(rt, { maxSteps: 50 });
    expect(first.progress).toMatchObject({ status: 'done', counts: { written: 1500, notFound: 20 } });
    const filled = sheetValues(rt);
    const lookupsSent = () => rt.httpLog.filter((entry) => entry.url.includes('/v1/companies/')).length;
    expect(lookupsSent()).toBe(1320);
    // Some profiles have no LinkedIn page: their empty cells must not read as "not enriched yet".
    expect(
      filled.slice(1).filter((row) => row[2] === '' && row[1] !== '' && !String(row[1]).startsWith('Not found')).length,
    ).toBeGreaterThan(0);
    // 1,320 lookups live in the packed cache's buckets, far below Google's 1,000 items (900 after an eviction); the
    // one other item is the document's learned throughput.
    const keys = rt.cache.document.keys();
    expect(keys.filter((key) => key.startsWith('sheet-scout:throughput:'))).toEqual(['sheet-scout:throughput:panel']);
    expect(keys.length).toBeLessThanOrEqual(257);

    // Overwriting everything within the cache's 6 hours: every profile comes from the cache.
    start(rt, { fields, overwrite: true });
    expect((await drive(rt, { maxSteps: 50 })).progress).toMatchObject({
      status: 'done',
      totalDomains: 1320,
      cacheHits: 1320,
      lookups: 0,
    });
    expect(lookupsSent()).toBe(1320);

    // A day later the cache is empty: a re-run skips every finished row and sends nothing.
    (rt.clock as ManualClock).advance(24 * 60 * 60_000);
    expect(rt.cache.document.keys()).toEqual([]);
    const preview = rt.run<EnrichPreview>('getEnrichmentPreview', [{ fields }], { kind: 'sidebar' });
    expect(preview).toMatchObject({ ok: true, alreadyFilled: 1520, toLookUp: 0 });
    start(rt, { fields });
    expect((await drive(rt)).progress).toMatchObject({ status: 'done', totalDomains: 0 });
    expect(lookupsSent()).toBe(1320);
    expect(sheetValues(rt)).toEqual(filled);
  }, 60_000);

  it('writes each result into its own row while the user sorts, inserts and deletes rows between chunks', async () => {
    const total = 1600;
    const rows: unknown[][] = [['Domain'], ...enriched.slice(0, total).map((company) => [company.domain])];
    // One request at a time (fetchAll's concurrency in the cost model) at 100 ms each: the job takes about five minutes
    // of modelled time, several executions of the panel, between which the user sorts, inserts and deletes rows.
    await suite.control.setFault({ route: 'lookup', latencyMs: 100 });
    const rt = runtime(rows, 1);
    start(rt, { fields: FIELDS });
    const sheet = rt.spreadsheet.sheet('Leads');
    const { progress } = await drive(rt, {
      before: (step) => {
        if (step === 1)
          sheet.sortRows({ row: 2, column: 1, numRows: sheet.lastRow() - 1, numColumns: sheet.lastColumn() }, [
            { column: 1, ascending: false },
          ]);
        if (step === 1) sheet.insertRows(5, 1);
        if (step === 2) sheet.deleteRows(10, 3);
        if (step === 2)
          sheet.sortRows({ row: 2, column: 1, numRows: sheet.lastRow() - 1, numColumns: sheet.lastColumn() }, [
            { column: 2, ascending: true },
          ]);
      },
    });
    expect(progress.status).toBe('done');
    expect(progress.chunks).toBeGreaterThanOrEqual(3);
    const values = sheetValues(rt);
    expect(expectRowsMatchDomains(values)).toBe(total - 3);
    expect(progress.counts.written + progress.counts.deleted).toBe(total);
  });

  it('ends with the same sheet as a fault-free run under 20 % faults and killed executions, without repeating finished lookups', async () => {
    const reference = runtime(messyRows());
    start(reference, { fields: FIELDS });
    await drive(reference);
    const expected = sheetValues(reference);

    await suite.control.reset();
    await suite.control.setEnrichmentDelay(0);
    const rt = runtime(messyRows());
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const statuses = [429, 500, 503] as const;
    const killedExecutions = new Set<number>();
    const result = await drive(rt, {
      start: { fields: FIELDS },
      maxSteps: 400,
      before: async (step) => {
        await suite.control.setFault({
          route: 'lookup',
          errorRate: 0.1,
          dropRate: 0.1,
          errorStatus: statuses[step % 3],
          retryAfterSeconds: 1,
          seed: step + 1,
        });
        return step < 8 || random() < 0.3 ? 1 + Math.floor(random() * 250) : undefined;
      },
      after: (_step, killed, logFrom) => {
        if (killed) for (const entry of rt.httpLog.slice(logFrom)) killedExecutions.add(entry.executionId);
      },
    });
    expect(result.kills).toBeGreaterThanOrEqual(3);
    expect(result.progress.status).toBe('done');
    expect(sheetValues(rt)).toEqual(expected);
    expect(formulaCount(rt)).toBe(0);

    // A lookup answered in an execution that finished normally without a dropped connection is never sent again.
    const dirty = new Set(rt.httpLog.filter((entry) => entry.error).map((entry) => entry.executionId));
    const settled = new Map<string, number>();
    const repeats: string[] = [];
    rt.httpLog.forEach((entry, index) => {
      if (!entry.url.includes('/v1/companies/')) return;
      const domain = lookedUpDomain(entry.url);
      if (settled.has(domain)) repeats.push(`${domain} #${index}`);
      if (
        (entry.status === 200 || entry.status === 404) &&
        !killedExecutions.has(entry.executionId) &&
        !dirty.has(entry.executionId)
      )
        settled.set(domain, index);
    });
    expect(repeats).toEqual([]);
    expect(rt.httpLog.some((entry) => entry.status === 429)).toBe(true);
    expect(rt.httpLog.some((entry) => entry.status === 500 || entry.status === 503)).toBe(true);
    expect(dirty.size).toBeGreaterThan(0);
  });

  it('continues from the time trigger when no sidebar drives the job, with one trigger at most', async () => {
    const rows: unknown[][] = [['Website'], ...enriched.slice(0, 500).map((company) => [company.domain])];
    // One request at a time at 100 ms each: the start's execution cannot finish the job, and the panel is closed.
    await suite.control.setFault({ route: 'lookup', latencyMs: 100 });
    const rt = runtime(rows, 1);
    start(rt, { fields: ['company_name'] });
    const listed = rt.triggers.list().filter((trigger) => trigger.handler === 'sheetScoutTimer');
    expect(listed).toHaveLength(1);
    // The shared timer runs hourly in a published add-on (the emulator reports an add-on installation).
    (rt.clock as ManualClock).advance(60 * 60_000);
    const fired = rt.triggers.fireDue();
    expect(fired).toEqual([expect.objectContaining({ handler: 'sheetScoutTimer', ok: true })]);
    const progress = rt.run<EnrichProgress>('getEnrichmentProgress', [], { kind: 'sidebar' });
    expect(progress).toMatchObject({ status: 'done', counts: { written: 500 } });
    expect(rt.triggers.list().filter((trigger) => trigger.handler === 'sheetScoutTimer')).toHaveLength(0);
    expect(expectRowsMatchDomains(sheetValues(rt), true)).toBe(500);
  });

  it('pauses without a token, says what to do, and resumes once the token is set', async () => {
    const rt = runtime([['Website'], [enriched[0].domain], [enriched[1].domain]]);
    rt.properties.user(USER).delete(SETTINGS_KEYS.token);
    start(rt, { fields: ['company_name'] });
    const paused = await drive(rt);
    expect(paused.progress).toMatchObject({
      status: 'paused',
      message: 'Set up Sheet Scout: Extensions > Sheet Scout > Settings',
    });
    expect(rt.httpLog).toHaveLength(0);
    rt.properties.user(USER).set(SETTINGS_KEYS.token, TOKEN);
    rt.run('resumeEnrichment', [], { kind: 'sidebar' });
    const done = await drive(rt);
    expect(done.progress).toMatchObject({ status: 'done', counts: { written: 2 } });
  });

  it('picks the domain column by its header when the selection spans several columns', () => {
    const rows = [
      ['Name', 'Email', 'Website'],
      ['A', `ana@${enriched[0].domain}`, enriched[1].domain],
      ['B', `bo@${enriched[2].domain}`, enriched[3].domain],
    ];
    const rt = runtime(rows);
    const sheet = rt.spreadsheet.sheet('Leads');
    rt.spreadsheet.selection = { sheet, rect: { row: 1, column: 1, numRows: 3, numColumns: 3 } };
    const preview = rt.run<EnrichPreview>('getEnrichmentPreview', [{ fields: ['company_name'] }], { kind: 'sidebar' });
    expect(preview).toMatchObject({
      ok: true,
      domainColumn: 3,
      note: 'Selection spans columns A–C: using column C (by its header).',
    });
  });
});
