// The scale benchmark's new-rows part (issue 40, item 1): one user keeps "Keep enriching new rows" on in twenty
// spreadsheets of 150 rows (each enriched once), a published add-on project of its own (consumer quotas: 20 timers, 90
// minutes of trigger runtime a day), for a simulated week with every panel closed. Most hours a form or another
// tool appends one to four companies under one spreadsheet's list at a random minute; one append in four is followed
// by a sort of the sheet before the timer comes; for one hour a day every lookup fails (503), so the rows of that hour
// wait for the next check; once a day a user clears a cell of a filled new row. An editor with an account of their own (sandbox-pro's
// colleague) researches the first spreadsheet's new rows under a monthly limit. Measures the rows appended, those
// filled with the sandbox's values (found by their domain), the longest wait from an append to its fill (at the hourly
// timer's runs), the credits the lookups moved by the sandbox's money record, cleared cells filled again, the trigger
// runtime booked in any 24 hours, and what the research reserved against its limit.
import { createManualClock, createProject, SpreadsheetModel, type GasRuntime } from '../../dev/gas-runtime';
import type { SandboxControl, SeededCompany } from '../../dev/sandbox/control-client';
import { SETTINGS_KEYS } from '../../src/shared/connection';
import { TIMER_RUNTIME_KEY } from '../../src/scheduler/runtime-budget';
import { BUNDLE } from '../../test/integration/harness';
import { appendRows, enrichSheet, keepNewRows, researchNewRows } from '../../test/integration/new-rows/harness';
import { HOUR, MINUTE, TOKEN, USER } from './world';
import { maxDay } from './many';

const DOCS = 20;
const ROWS = 150;
const DAYS = 7;
const SHEET = 'Leads';
const EDITOR = 'ben@example.com';
const EDITOR_TOKEN = 'sbx_pro2_token';
const RESEARCH_LIMIT = 20;

export interface NewRowsScale {
  docs: number;
  added: number;
  filled: number;
  hoursMax: number;
  credits: number;
  clearedRefilled: number;
  bookedMinDayMax: number;
  researchReserved: number;
  researchLimit: number;
  researchMonths: number;
}

/** A deterministic stream of numbers in [0, 1). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

interface Arrival {
  doc: number;
  company: SeededCompany;
  at: number;
  filledAt: number | null;
}

/** Credits a token's research moved by the sandbox's money record (reserved plus charged, every day). */
async function moved(control: SandboxControl, token: string): Promise<number> {
  return (await control.ledger(token)).days.reduce((sum, day) => sum + day.reserved + day.charged, 0);
}

function sortDescending(doc: GasRuntime): void {
  const sheet = doc.spreadsheet.sheet(SHEET);
  sheet.sortRows({ row: 2, column: 1, numRows: sheet.lastRow() - 1, numColumns: sheet.lastColumn() }, [
    { column: 1, ascending: false },
  ]);
}

/** Each row's values by its domain (column A), for the rows of `doc`. */
function rowsByDomain(doc: GasRuntime): Map<string, unknown[]> {
  const values = doc.spreadsheet.sheet(SHEET).getValues();
  return new Map(values.slice(1).map((row) => [String(row[0]).toLowerCase(), row]));
}

export async function newRowsAtScale(control: SandboxControl, companies: string[]): Promise<NewRowsScale> {
  // The sandbox's clock moves with the hours, not with a check's waits: a company the service is still enriching when a
  // check comes is filled at the next one (as with a service that takes longer than a check waits).
  const clock = createManualClock(await control.now());
  const project = createProject({ bundlePath: BUNDLE, users: [USER, EDITOR], clock, addOn: true, quotas: 'consumer' });
  for (const [user, token] of [
    [USER, TOKEN],
    [EDITOR, EDITOR_TOKEN],
  ]) {
    project.properties.user(user).set(SETTINGS_KEYS.token, token);
    project.properties.user(user).set(SETTINGS_KEYS.baseUrl, control.url);
  }
  await control.setAccount('sandbox-pro-2', { credits: 10_000 });
  const advance = async (ms: number) => {
    await control.advanceClock(ms);
    clock.advance(ms);
  };
  try {
    const docs: GasRuntime[] = [];
    for (let i = 0; i < DOCS; i++) {
      const spreadsheet = new SpreadsheetModel({
        id: `new-rows-${i + 1}`,
        name: `Leads ${i + 1}`,
        rows: ROWS + 200,
        columns: 12,
        sheetNames: [SHEET],
      });
      const listed = companies.slice(i * ROWS, (i + 1) * ROWS);
      spreadsheet.sheet(SHEET).setValues(`A1:A${ROWS + 1}`, [['Website'], ...listed.map((domain) => [domain])]);
      spreadsheet.selection = {
        sheet: spreadsheet.sheet(SHEET),
        rect: { row: 1, column: 1, numRows: 1, numColumns: 1 },
      };
      const doc = project.addDocument({ spreadsheet });
      enrichSheet(doc);
      const on = keepNewRows(doc);
      if (!on.ok) throw new Error(`new rows not kept in ${spreadsheet.name}: ${on.message}`);
      docs.push(doc);
    }
    const research = researchNewRows(
      docs[0],
      {
        template: 'Research {Website}',
        depth: 'medium',
        output: { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: 'Sources' },
        monthlyLimit: RESEARCH_LIMIT,
      },
      EDITOR,
    );
    if (!research.ok) throw new Error(`no research on new rows: ${research.message}`);

    const listed = new Set(companies.slice(0, DOCS * ROWS));
    const ready = (await control.companies(5000, true)).filter((company) => !listed.has(company.domain));
    const next = random(40);
    const creditsBefore = await control.credits(TOKEN);
    const started = clock.now();
    const movedBefore = await moved(control, TOKEN);
    const arrivals: Arrival[] = [];
    const cleared: Array<{ doc: number; domain: string }> = [];
    const months = new Set<string>();
    let readyAt = 0;
    for (let hour = 0; hour < DAYS * 24; hour++) {
      const down = hour % 24 === 14;
      if (down) await control.setFault({ route: 'lookup', errorRate: 1, errorStatus: 503 });
      const minute = 5 + Math.floor(next() * 50);
      await advance(minute * MINUTE);
      if (next() < 0.8) {
        const doc = Math.floor(next() * DOCS);
        const count = 1 + Math.floor(next() * 4);
        const batch = ready.slice(readyAt, (readyAt += count));
        appendRows(
          docs[doc],
          SHEET,
          batch.map((company) => [company.domain]),
        );
        for (const company of batch) arrivals.push({ doc, company, at: clock.now(), filledAt: null });
        if (next() < 0.25) sortDescending(docs[doc]);
      }
      await advance((60 - minute) * MINUTE);
      for (const fired of project.triggers.fireDue()) if (!fired.ok) throw new Error(`timer failed: ${fired.error}`);
      if (down) await control.clearFaults();
      months.add(new Date(clock.now()).toLocaleString('en-US', { timeZone: 'America/New_York', month: 'numeric' }));
      const byDoc = new Map<number, Map<string, unknown[]>>();
      for (const arrival of arrivals) {
        if (arrival.filledAt !== null) continue;
        const rows = byDoc.get(arrival.doc) ?? rowsByDomain(docs[arrival.doc]);
        byDoc.set(arrival.doc, rows);
        if (rows.get(arrival.company.domain)?.[1] === arrival.company.name) arrival.filledAt = clock.now();
      }
      // Once a day a user clears the name of a filled new row: it is never filled again.
      const filled = arrivals.filter((arrival) => arrival.filledAt !== null && arrival.doc !== 0);
      if (hour % 24 === 12 && filled.length > 0) {
        const chosen = filled[Math.floor(next() * filled.length)];
        const sheet = docs[chosen.doc].spreadsheet.sheet(SHEET);
        const row = sheet.getValues().findIndex((values) => values[0] === chosen.company.domain) + 1;
        sheet.typeInto({ row, column: 2, numRows: 1, numColumns: 1 }, '');
        cleared.push({ doc: chosen.doc, domain: chosen.company.domain });
      }
    }
    const clearedRefilled = cleared.filter(({ doc, domain }) => rowsByDomain(docs[doc]).get(domain)?.[1] !== '').length;
    const booked = new Map(
      Object.entries(
        JSON.parse(project.properties.user(USER).get(TIMER_RUNTIME_KEY) ?? '{}') as Record<string, number>,
      ).map(([hour, ms]) => [Number(hour), ms]),
    );
    const hours = arrivals
      .filter((arrival) => arrival.filledAt !== null)
      .map((a) => ((a.filledAt as number) - a.at) / HOUR);
    const result: NewRowsScale = {
      docs: DOCS,
      added: arrivals.length,
      filled: hours.length,
      hoursMax: hours.length > 0 ? Math.max(...hours) : Infinity,
      credits: (await moved(control, TOKEN)) - movedBefore + (creditsBefore - (await control.credits(TOKEN))),
      clearedRefilled,
      bookedMinDayMax: maxDay(booked) / 60_000,
      researchReserved: (await control.ledger(EDITOR_TOKEN)).days.reduce((sum, day) => sum + day.reserved, 0),
      researchLimit: RESEARCH_LIMIT,
      researchMonths: months.size,
    };
    const researched = arrivals.filter((arrival) => arrival.doc === 0).length;
    const downHours = arrivals
      .filter((arrival) => arrival.filledAt !== null && Math.floor((arrival.at - started) / HOUR) % 24 === 14)
      .map((arrival) => ((arrival.filledAt as number) - arrival.at) / HOUR);
    console.log(
      `N ${DOCS} spreadsheets of ${ROWS} rows keeping new rows enriched, ${DAYS} days, panels closed: ${result.added} ` +
        `rows appended, ${result.filled} filled, the longest after ${result.hoursMax.toFixed(2)} h (those appended ` +
        `while the lookups failed: ${downHours.length}, at most ${Math.max(0, ...downHours).toFixed(2)} h); ` +
        `${result.credits} credits moved for lookups; ${cleared.length} cleared cells, ` +
        `${clearedRefilled} filled again; trigger runtime in any 24 hours at most ${result.bookedMinDayMax.toFixed(1)} ` +
        `min booked; research on the first one's ${researched} new rows reserved ${result.researchReserved} credits ` +
        `(limit ${RESEARCH_LIMIT} a month, ${months.size} month${months.size === 1 ? '' : 's'})`,
    );
    return result;
  } finally {
    await control.clearFaults();
    await project.close();
  }
}
