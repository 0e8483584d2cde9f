import { previewEnrichment, startEnrichment } from '../../../src/enrichment/job/service';
import { LIMITS } from '../../../src/enrichment/job/limits';
import { cancelEnrichment, resumeEnrichment } from '../../../src/enrichment/job/job-control';
import { runChunk } from '../../../src/enrichment/job/run';
import type { EnrichProgress } from '../../../src/enrichment/contract';
import { ENRICHING_TEXT, NO_DATA_TEXT, NOT_FOUND_TEXT } from '../../../src/enrichment/sheet/rows';
import type { CompanyProfile } from '../../../src/api/types';
import { jobRecordBound, loadJob } from '../../../src/enrichment/job/job-state';
import { writeCachedLookups } from '../../../src/companies/profile-cache';
import { FAKE_BATCH, world, type World } from './fakes';

const FIELDS = ['company_name', 'hq_country', 'employee_count'];

function domains(n: number, prefix = 'company'): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(4, '0')}.com`);
}

function sheetOf(list: unknown[], header: unknown = 'Website'): unknown[][] {
  return [[header], ...list.map((d) => [d])];
}

/** Drives the job like the sidebar: calls chunks, waiting on the manual clock when told to. */
function drive(w: World, maxSteps = 200, between?: (step: number) => void): EnrichProgress {
  let progress: EnrichProgress | null = null;
  for (let step = 0; step < maxSteps; step++) {
    progress = runChunk(w.deps, 'sidebar');
    if (!progress || progress.nextStepInMs < 0) return progress as EnrichProgress;
    w.clock.sleep(progress.nextStepInMs);
    between?.(step);
  }
  throw new Error(`job not finished after ${maxSteps} steps: ${JSON.stringify(progress)}`);
}

function start(w: World, options = {}) {
  const started = startEnrichment(w.deps, { fields: FIELDS, ...options });
  if (!started.ok) throw new Error(started.message);
  return started.progress;
}

describe('preview', () => {
  it('counts rows, unique domains, blank, invalid, already filled, cached, and shows where fields go', () => {
    const w = world(
      [
        ['Website', 'Company name'],
        ['stripe.com', ''],
        ['STRIPE.COM', ''],
        ['', ''],
        ['hello world', ''],
        ['acme.io', 'Acme (mine)'],
        ['b.com', ''],
      ],
      { numColumns: 2 },
    );
    writeCachedLookups(w.cache, new Map([['b.com', { state: 'not_found' }]]), w.clock.now());
    const preview = previewEnrichment(w.deps, { fields: FIELDS });
    expect(preview).toMatchObject({
      ok: true,
      rows: 6,
      uniqueDomains: 3,
      blank: 1,
      invalid: 1,
      alreadyFilled: 0,
      toLookUp: 3,
      cached: 1,
      credits: 0,
      domainColumn: 1,
    });
    if (!preview.ok) throw new Error();
    expect(preview.fields.filter((f) => f.checked).map((f) => [f.key, f.target])).toEqual([
      ['company_name', 'column B (existing)'],
      ['hq_country', 'new column C'],
      ['employee_count', 'new column D'],
    ]);
    expect(w.client.calls).toEqual([]);
  });

  it('adds no second domain column to a column of bare domains (a sheet Company search made), but does to URLs (issue 29)', () => {
    const bare = previewEnrichment(
      world(
        [
          ['Domain', 'Company'],
          ['a.com', 'A'],
          ['b.io', 'B'],
        ],
        { numColumns: 2 },
      ).deps,
      {
        fields: ['company_name', 'domain'],
      },
    );
    if (!bare.ok) throw new Error(bare.message);
    expect(bare.fields.filter((f) => f.checked).map((f) => [f.key, f.target])).toEqual([
      ['company_name', 'column B (existing)'],
    ]);
    expect(bare.note).toContain('Column A already holds bare domains: no second domain column.');
    const urls = previewEnrichment(world([['Domain'], ['https://www.a.com/'], ['b.io']]).deps, { fields: ['domain'] });
    if (!urls.ok) throw new Error(urls.message);
    expect(urls.fields.filter((f) => f.checked).map((f) => [f.key, f.target])).toEqual([['domain', 'new column B']]);
  });

  it('explains a bad choice', () => {
    const w = world(sheetOf(['stripe.com']));
    expect(previewEnrichment(w.deps, { fields: [] })).toMatchObject({
      ok: false,
      message: 'Pick at least one field to add.',
    });
    expect(previewEnrichment(w.deps, { fields: ['nope'] })).toMatchObject({
      ok: false,
      message: expect.stringContaining('Unknown field: "nope"'),
    });
  });
});

describe('a job', () => {
  it('writes values (escaped, not formulas) into each row, marks invalid and not-found rows, and ends at 100 %', () => {
    const w = world(sheetOf(['stripe.com', 'Stripe.com', 'bad domain', '', 'gone.io', 'https://acme.io/x']));
    w.client.notFound.add('gone.io');
    start(w, { fields: ['company_name', 'short_description', 'employee_count'] });
    const done = drive(w);
    expect(w.sheet.cells[0].map((c) => c.value)).toEqual(['Website', 'Company name', 'Short description', 'Employees']);
    expect(done).toMatchObject({
      status: 'done',
      percent: 100,
      resolvedDomains: 3,
      totalDomains: 3,
      counts: { written: 3, notFound: 1 },
      scope: { invalid: 1, blank: 1 },
    });
    expect(w.sheet.value(2, 2)).toBe('Stripe Inc');
    expect(w.sheet.value(3, 2)).toBe('Stripe Inc');
    expect(w.sheet.value(2, 3)).toBe('=HYPERLINK("http://evil/stripe")');
    expect(w.sheet.cells[1][2].formula).toBeUndefined();
    expect(w.sheet.value(2, 4)).toBe('51-200');
    expect(w.sheet.value(4, 2)).toBe('Invalid domain: "bad domain"');
    expect(w.sheet.value(5, 2)).toBe('');
    expect(w.sheet.value(6, 2)).toBe(NOT_FOUND_TEXT);
    expect(w.sheet.value(7, 2)).toBe('Acme Inc');
    expect(w.client.looked().sort()).toEqual(['acme.io', 'gone.io', 'stripe.com']);
    // Done in its first execution: no timer was ever needed.
    expect(w.triggers.scheduled).toBe(0);
  });

  it('never overwrites user data or formulas unless asked, and overwrites when asked', () => {
    const w = world([
      ['Domain', 'Company name', 'Country'],
      ['a.com', 'Mine', ''],
      ['b.com', '', ''],
      ['c.com', '', ''],
    ]);
    w.sheet.setFormula(3, 3, '=UPPER("x")', 'X');
    w.sheet.setFormula(4, 3, '=IF(TRUE,"","x")', '');
    start(w, { fields: ['company_name', 'hq_country'] });
    drive(w);
    expect(w.sheet.column(2)).toEqual(['Company name', 'Mine', 'B Inc', 'C Inc']);
    expect(w.sheet.cells[2][2].formula).toBe('=UPPER("x")');
    expect(w.sheet.cells[3][2].formula).toBe('=IF(TRUE,"","x")');
    expect(w.sheet.value(2, 3)).toBe('Country of a.com');

    start(w, { fields: ['company_name', 'hq_country'], overwrite: true });
    drive(w);
    expect(w.sheet.column(2)).toEqual(['Company name', 'A Inc', 'B Inc', 'C Inc']);
    expect(w.sheet.cells[2][2].formula).toBeUndefined();
  });

  it('puts every result in the row of its domain when the user sorts, inserts and deletes rows between chunks', () => {
    // Each lookup round takes 2 s: the job needs three executions; a row the job has not reached is deleted before the
    // third writes it.
    const total = 1700;
    const w = world(sheetOf(domains(total)));
    w.client.roundMs = 2000;
    start(w);
    let deletedDomain = '';
    drive(w, 50, (step) => {
      if (step === 0) {
        w.sheet.sortBy(1, true);
        w.sheet.insertRow(2, ['late-row.com']);
      }
      if (step === 1) {
        const open = w.sheet.cells.map((cells, i) => (cells[1]?.value ? 0 : i + 1)).filter((row) => row > 1);
        const row = open[open.length - 1];
        deletedDomain = String(w.sheet.value(row, 1));
        w.sheet.deleteRow(row);
      }
    });
    const values = w.sheet.cells.slice(1).map((row) => row.map((cell) => cell.value));
    for (const row of values) {
      const domain = String(row[0]);
      expect(row[1]).toBe(`${domain[0].toUpperCase()}${domain.split('.')[0].slice(1)} Inc`);
      expect(row[2]).toBe(`Country of ${domain}`);
    }
    const job = loadJob(w.store);
    expect(deletedDomain).not.toBe('');
    expect(job?.counts).toMatchObject({ deleted: 1, written: total });
    expect(values).toHaveLength(total);
    expect(new Set(w.client.looked()).size).toBe(w.client.looked().length);
  });

  it('enriches a row the user adds after the start, above the rows (the cursor still holds)', () => {
    const w = world(sheetOf(domains(10)));
    start(w);
    w.sheet.insertRow(2, ['zeta-late.com']);
    const done = drive(w);
    expect(done).toMatchObject({ status: 'done', counts: { written: 11 } });
    expect(w.sheet.value(w.sheet.rowOf(1, 'zeta-late.com'), 2)).toBe('Zeta-late Inc');
  });

  it('counts rows deleted before their result was written', () => {
    const w = world(sheetOf(['a.com', 'b.com', 'c.com']));
    start(w);
    w.sheet.deleteRow(3);
    const done = drive(w);
    expect(done.counts).toMatchObject({ written: 2, deleted: 1 });
  });

  it('reads the domain column once per execution, and writes the rows of a save (headers with the first) in one write', () => {
    const w = world(sheetOf(domains(2000)));
    start(w);
    const reads = w.sheet.reads;
    const writes = w.sheet.writes;
    const done = drive(w);
    expect(done.chunks).toBe(1);
    // The last row, the header row, the domain column; then the save's check of the rows it writes.
    expect(w.sheet.reads - reads).toBe(4);
    expect(w.sheet.writes - writes).toBe(1);
    expect(w.sheet.commits).toBe(1);
    expect(w.client.calls.every((batch) => batch.length <= FAKE_BATCH)).toBe(true);
  });

  it('handles 10,000 rows: every unique domain looked up once, every row filled', () => {
    const unique = domains(6000);
    const rows = Array.from({ length: 10_000 }, (_, i) =>
      i < 6000 ? unique[i] : unique[(i * 7) % 6000].toUpperCase(),
    );
    const w = world(sheetOf(rows));
    const started = start(w);
    expect(started).toMatchObject({ totalDomains: 6000, scope: { rows: 10_000, uniqueDomains: 6000 } });
    const done = drive(w);
    expect(done).toMatchObject({ status: 'done', percent: 100, resolvedDomains: 6000, counts: { written: 10_000 } });
    expect(w.client.looked()).toHaveLength(6000);
    expect(w.sheet.value(10_001, 2)).toBe(
      `${unique[(9999 * 7) % 6000][0].toUpperCase()}${unique[(9999 * 7) % 6000].split('.')[0].slice(1)} Inc`,
    );
  });

  it('retries 202 answers with spacing, then marks rows still enriching after the cap', () => {
    const w = world(sheetOf(['slow.com', 'never.com', 'fast.com']));
    w.client.enriching.set('slow.com', 2);
    w.client.enriching.set('never.com', 99);
    start(w);
    const first = runChunk(w.deps, 'sidebar');
    expect(first).toMatchObject({ status: 'running' });
    expect(w.sheet.value(4, 2)).toBe('Fast Inc');
    const done = drive(w);
    expect(done).toMatchObject({ status: 'done', counts: { written: 2, gaveUp: 1 } });
    expect(w.sheet.value(2, 2)).toBe('Slow Inc');
    expect(w.sheet.value(3, 2)).toBe(ENRICHING_TEXT);
    const looked = w.client.looked();
    expect(looked.filter((d) => d === 'slow.com')).toHaveLength(3);
    expect(looked.filter((d) => d === 'never.com')).toHaveLength(LIMITS.enrichingDelaysMs.length + 1);
    expect(looked.filter((d) => d === 'fast.com')).toHaveLength(1);
  });

  it('keeps the job record bounded when thousands of domains wait: new lookups wait for room among the retries', () => {
    const list = domains(3000, 'a-rather-long-company-name-');
    const w = world(sheetOf(list));
    for (const domain of list) w.client.enriching.set(domain, 2);
    const started = startEnrichment(w.deps, { fields: FIELDS });
    expect(started.ok).toBe(true);
    const job = loadJob(w.store)!;
    const bound = jobRecordBound(job, list, LIMITS);
    let largest = 0;
    let mostWaiting = 0;
    // The record as saved, before every lookup round.
    w.client.beforeCall = () => {
      const now = loadJob(w.store)!;
      largest = Math.max(largest, Buffer.byteLength(JSON.stringify(now)));
      mostWaiting = Math.max(mostWaiting, now.retries.length);
    };
    const done = drive(w, 2000);
    expect(done).toMatchObject({ status: 'done', counts: { written: 3000 } });
    expect(mostWaiting).toBe(LIMITS.maxWaitingDomains);
    expect(largest).toBeLessThanOrEqual(bound);
    expect(w.store.totalBytes()).toBeLessThan(bound);
    // Every domain was looked up three times (two 202s, then the profile): none was dropped or looked up again.
    expect(w.client.looked()).toHaveLength(3 * 3000);
  });

  it('refuses to start, writing nothing, when the document store lacks room for the job record', () => {
    const w = world(sheetOf(domains(50)));
    for (let i = 0; w.store.bytesFree() > 12_000; i++) w.store.set(`other.${i}`, 'x'.repeat(8000));
    const before = JSON.stringify(w.sheet.cells);
    const refused = startEnrichment(w.deps, { fields: FIELDS });
    expect(refused).toEqual({
      ok: false,
      message: expect.stringMatching(
        /storage in this spreadsheet is nearly full: the job needs \d+ KB and \d+ KB of the 500 KB/,
      ),
    });
    expect(JSON.stringify(w.sheet.cells)).toBe(before);
    expect(loadJob(w.store)).toBeNull();
    expect(w.client.calls).toEqual([]);
  });

  it('re-running a finished job on the same data sends nothing; rows marked for retry are tried again', () => {
    const w = world(sheetOf(['a.com', 'b.com']));
    w.client.enriching.set('b.com', 99);
    start(w);
    drive(w);
    expect(w.sheet.value(3, 2)).toBe(ENRICHING_TEXT);
    w.client.calls = [];
    w.client.enriching.set('b.com', 0);
    start(w);
    drive(w);
    expect(w.client.looked()).toEqual(['b.com']);
    expect(w.sheet.value(3, 2)).toBe('B Inc');
    w.client.calls = [];
    start(w, { overwrite: true });
    drive(w);
    expect(w.client.calls).toEqual([]);
  });

  it('re-running a finished job sends nothing for rows whose profile lacks fields, even once the cache is gone', () => {
    const w = world(sheetOf(['full.com', 'partial.com', 'empty.com', 'missing.com']));
    w.client.profiles.set('partial.com', {
      id: 'p',
      domain: 'partial.com',
      company_name: 'Partial',
      context: { hq_country: 'Chile' },
    } as CompanyProfile);
    w.client.profiles.set('empty.com', { id: 'e', domain: 'empty.com', context: {} } as CompanyProfile);
    w.client.notFound.add('missing.com');
    start(w);
    expect(drive(w)).toMatchObject({ status: 'done', counts: { written: 3, notFound: 1 } });
    expect(w.sheet.cells.slice(1, 5).map((row) => row.slice(1, 4).map((cell) => cell.value))).toEqual([
      ['Full Inc', 'Country of full.com', '51-200'],
      ['Partial', 'Chile', ''],
      [NO_DATA_TEXT, '', ''],
      [NOT_FOUND_TEXT, '', ''],
    ]);
    // Hours later (the cache empty), with a new row below: only the new row is looked up.
    w.cache.entries.clear();
    w.sheet.insertRow(6, ['later.com']);
    w.client.calls = [];
    start(w);
    expect(drive(w)).toMatchObject({ status: 'done', totalDomains: 1, scope: { alreadyFilled: 4 } });
    expect(w.client.looked()).toEqual(['later.com']);
    // A field added to the job gets a new column: every row with a profile needs it, the not-found row does not.
    w.cache.entries.clear();
    w.client.calls = [];
    start(w, { fields: [...FIELDS, 'founding_year'] });
    drive(w);
    expect(w.client.looked().sort()).toEqual(['empty.com', 'full.com', 'later.com', 'partial.com']);
    expect(w.sheet.column(5).slice(0, 3)).toEqual(['Founded', 2008, '']);
    w.client.calls = [];
    start(w, { fields: [...FIELDS, 'founding_year'] });
    expect(drive(w)).toMatchObject({ status: 'done', totalDomains: 0 });
    expect(w.client.calls).toEqual([]);
  });

  it("does not take a cancelled job's columns as filled: the next run completes the rows it did not reach", () => {
    const many = 860;
    const w = world(sheetOf(domains(many)));
    start(w, { fields: ['company_name'] });
    drive(w);
    w.client.calls = [];
    // A second job adds columns and is cancelled after its first execution (rounds of 2 s, 60 s of them): rows it did
    // not reach have a name only.
    w.client.roundMs = 2000;
    w.cache.entries.clear();
    start(w);
    const reached = (runChunk(w.deps, 'sidebar') as EnrichProgress).resolvedDomains;
    cancelEnrichment(w.deps);
    expect(reached).toBe((LIMITS.sidebarBudgetMs / 2000) * FAKE_BATCH);
    w.client.roundMs = 0;
    w.cache.entries.clear();
    w.client.calls = [];
    start(w);
    expect(drive(w)).toMatchObject({ status: 'done', totalDomains: many - reached });
  });

  it('loses nothing and repeats only the unsaved lookups of the last 10 s when an execution dies mid-chunk', () => {
    const w = world(sheetOf(domains(300)));
    // Each round takes 4 s: the rows of rounds 1-3 are saved at 12 s (written, and their answers cached), round 4's
    // are not yet at 16 s.
    w.client.roundMs = 4000;
    start(w);
    w.client.crashOnCall = 5;
    expect(() => runChunk(w.deps, 'sidebar')).toThrow('Exceeded maximum execution time');
    w.lock.release();
    w.client.crashOnCall = null;
    const done = drive(w);
    expect(done).toMatchObject({ status: 'done', counts: { written: 300 } });
    const looked = w.client.looked();
    // The crashed call's batch never got answers and round 4's were not saved: those two are looked up again; the rows
    // of rounds 1-3 were written and are not looked at again.
    expect(LIMITS.saveIntervalMs).toBe(10_000);
    expect(looked.length).toBe(300 + 2 * FAKE_BATCH);
    expect(new Set(looked.slice(0, 3 * FAKE_BATCH)).size).toBe(3 * FAKE_BATCH);
    expect(looked.slice(4 * FAKE_BATCH).filter((domain) => looked.slice(0, 3 * FAKE_BATCH).includes(domain))).toEqual(
      [],
    );
  });

  it('pauses on a rejected token, keeps what was written, and resumes after the fix', () => {
    const w = world(sheetOf(['a.com', 'b.com', 'c.com']));
    w.client.errors.set('b.com', { kind: 'unauthorized' });
    start(w);
    const paused = drive(w);
    expect(paused).toMatchObject({
      status: 'paused',
      message: 'Token rejected: check it in Settings',
      nextStepInMs: -1,
    });
    expect(w.triggers.armed).toBe(false);
    expect(w.sheet.column(2)).toEqual(['Company name', 'A Inc', '', 'C Inc']);
    w.client.errors.clear();
    resumeEnrichment(w.deps);
    expect(w.triggers.armed).toBe(true);
    expect(drive(w)).toMatchObject({ status: 'done', counts: { written: 3 } });
    expect(w.sheet.value(3, 2)).toBe('B Inc');
  });

  it('splits a batch that lost every answer to a dropped connection until the lookups get through', () => {
    const w = world(sheetOf(domains(80)));
    w.client.loseBatchesOver = 8;
    start(w);
    const done = drive(w);
    expect(done).toMatchObject({ status: 'done', counts: { written: 80, errors: 0 } });
    const sizes = w.client.calls.map((batch) => batch.length);
    expect(sizes.slice(0, 2)).toEqual([FAKE_BATCH, Math.ceil(FAKE_BATCH / 2)]);
    expect(new Set(w.client.calls.filter((batch) => batch.length <= 8).flat()).size).toBe(80);
    expect(done.lookups).toBe(80);
  });

  it('retries failed lookups later and marks them after the cap', () => {
    const w = world(sheetOf(['a.com', 'down.com']));
    w.client.errors.set('down.com', { kind: 'unavailable', status: 503 });
    start(w);
    const done = drive(w);
    expect(done.counts).toMatchObject({ written: 1, errors: 1 });
    expect(w.sheet.value(3, 2)).toBe('Lookup failed: Service unavailable, retry later');
    expect(w.client.looked().filter((d) => d === 'down.com')).toHaveLength(LIMITS.errorDelaysMs.length + 1);
  });

  it('pauses when a field column is removed, without losing the chunk', () => {
    const w = world(sheetOf(domains(30)));
    start(w, { fields: ['company_name', 'hq_country'] });
    // A first execution of one round (1 s of a 1 ms budget) writes the headers and 25 rows.
    w.client.roundMs = 1000;
    expect(runChunk(w.deps, 'sidebar', 1)).toMatchObject({ status: 'running', counts: { written: FAKE_BATCH } });
    w.sheet.cells[0][2] = { value: 'Renamed' };
    expect(runChunk(w.deps, 'sidebar')).toMatchObject({
      status: 'paused',
      message: expect.stringContaining('"Country" was removed or renamed'),
    });
    w.sheet.cells[0][2] = { value: 'Country' };
    resumeEnrichment(w.deps);
    expect(drive(w)).toMatchObject({ status: 'done', counts: { written: 30 } });
    expect(w.client.looked()).toEqual(domains(30));
  });

  it('adds a header row when the data has none', () => {
    const w = world([['stripe.com'], ['acme.io']]);
    start(w, { fields: ['company_name'] });
    drive(w);
    expect(w.sheet.cells.map((row) => row.map((c) => c.value))).toEqual([
      ['Domain', 'Company name'],
      ['stripe.com', 'Stripe Inc'],
      ['acme.io', 'Acme Inc'],
    ]);
  });

  it('cancel stops the job and its trigger; a running job refuses a second start; a held lock answers busy', () => {
    const w = world(sheetOf(domains(900)));
    w.client.roundMs = 2000;
    start(w);
    expect(w.triggers.armed).toBe(false);
    expect(startEnrichment(w.deps, { fields: FIELDS })).toMatchObject({
      ok: false,
      message: expect.stringContaining('already running'),
    });
    w.lock.heldElsewhere = true;
    expect(runChunk(w.deps, 'sidebar')).toMatchObject({ busy: true, nextStepInMs: 3000 });
    w.lock.heldElsewhere = false;
    // The execution ends with work left: the timer is armed once, to continue the job if no panel calls.
    expect(runChunk(w.deps, 'sidebar')).toMatchObject({ status: 'running' });
    expect(w.triggers).toMatchObject({ armed: true, scheduled: 1 });
    expect(cancelEnrichment(w.deps)).toMatchObject({ status: 'cancelled', nextStepInMs: -1 });
    expect(w.triggers.armed).toBe(false);
    const calls = w.client.calls.length;
    expect(runChunk(w.deps, 'sidebar')).toMatchObject({ status: 'cancelled' });
    expect(w.client.calls.length).toBe(calls);
    expect(w.sheet.value(2, 2)).toBe('Company0000 Inc');
  });

  it('the timer runs the job until its budget and moves its next run, arming the timer once', () => {
    const w = world(sheetOf(domains(1510)));
    start(w);
    const progress = runChunk(w.deps, 'trigger');
    expect(progress).toMatchObject({ status: 'done' });
    expect(w.triggers.armed).toBe(false);

    const slow = world(sheetOf(['late.com']));
    slow.client.enriching.set('late.com', 99);
    startEnrichment(slow.deps, { fields: FIELDS });
    const waiting = runChunk(slow.deps, 'trigger');
    expect(waiting?.status).toBe('running');
    const wake = loadJob(slow.store)?.wake;
    expect(wake?.at).toBeGreaterThanOrEqual(slow.clock.now() + LIMITS.triggerMinDelayMs);
    runChunk(slow.deps, 'trigger');
    expect(slow.triggers).toMatchObject({ armed: true, scheduled: 1 });
  });
});

describe('progress the panel shows', () => {
  it('counts cached results as hits and sends only the rest', () => {
    const list = domains(52);
    const w = world(sheetOf(list));
    writeCachedLookups(
      w.cache,
      new Map(list.slice(0, 46).map((d) => [d, { state: 'not_found' as const }])),
      w.clock.now(),
    );
    start(w);
    expect(drive(w)).toMatchObject({
      status: 'done',
      resolvedDomains: 52,
      totalDomains: 52,
      cacheHits: 46,
      lookups: 6,
      counts: { written: 6, notFound: 46 },
    });
    expect(w.client.looked().sort()).toEqual(list.slice(46));
  });

  it('an Overwrite run, all cached, resolves each domain once and sends nothing', () => {
    const w = world(sheetOf(domains(760)));
    start(w, { fields: ['company_name'] });
    drive(w);
    w.client.calls = [];
    start(w, { fields: ['company_name'], overwrite: true });
    expect(drive(w, 20)).toMatchObject({
      status: 'done',
      resolvedDomains: 760,
      cacheHits: 760,
      counts: { written: 760 },
    });
    expect(w.client.calls).toEqual([]);
  });

  it('shows domains the service is still enriching as waiting, with the next try, and an ETA that waits for them', () => {
    const w = world(sheetOf(['slow.com', 'fast.com']));
    w.client.enriching.set('slow.com', 3);
    start(w);
    // The panel's call waits for the first retry (1 s, under LIMITS.sidebarMaxWaitMs), not for the second (2 s): it
    // ends, and the panel calls again then.
    const waiting = runChunk(w.deps, 'sidebar') as EnrichProgress;
    expect(w.clock.sleeps).toEqual([LIMITS.enrichingDelaysMs[0]]);
    expect(waiting).toMatchObject({
      resolvedDomains: 1,
      enriching: 1,
      retrying: 0,
      blocked: 0,
      nextTrySeconds: 2,
      nextStepInMs: LIMITS.enrichingDelaysMs[1],
    });
    // Earliest: the next try; latest: every retry the job still allows.
    expect(waiting.etaSeconds).toBe(2);
    expect(waiting.etaLatestSeconds).toBe(LIMITS.enrichingDelaysMs.slice(1).reduce((sum, ms) => sum + ms, 0) / 1000);
    expect(waiting.counts.errors).toBe(0);
    expect(drive(w)).toMatchObject({ status: 'done', counts: { written: 2 } });
  });

  it('a job paused for its token counts its waiting domains as waiting for Resume, not as errors', () => {
    const w = world(sheetOf(domains(30)));
    w.client.errors.set('company0000.com', { kind: 'unauthorized' });
    start(w);
    const paused = drive(w);
    expect(paused).toMatchObject({ status: 'paused', retrying: 0, counts: { errors: 0 } });
    expect(paused.blocked).toBeGreaterThan(0);
    w.client.errors.clear();
    resumeEnrichment(w.deps);
    expect(drive(w)).toMatchObject({ status: 'done', blocked: 0, counts: { written: 30, errors: 0 } });
  });

  it('remembers the fields chosen per sheet when the panel asks for none', () => {
    const w = world(sheetOf(['a.com']));
    expect(previewEnrichment(w.deps, { fields: ['hq_city', 'founding_year'] })).toMatchObject({ ok: true });
    const reopened = previewEnrichment(w.deps, {});
    if (!reopened.ok) throw new Error(reopened.message);
    expect(reopened.fields.filter((field) => field.checked).map((field) => field.key)).toEqual([
      'hq_city',
      'founding_year',
    ]);
  });
});
