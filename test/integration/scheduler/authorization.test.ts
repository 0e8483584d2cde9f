// An update of the add-on that needs more authorization than the user gave (issue 47). Google keeps running the
// user's timers without asking, and a call of a service they have not authorized throws (its documentation; field
// reports read it as every call: the emulator's `unauthorizedCalls` switch, both run here). Through the built bundle,
// the emulator's published add-on mode and the sandbox, every panel closed, one spreadsheet holding work of every
// timer feature (a scheduled refresh, an account watch, research to collect, new rows to enrich, an enrichment to
// continue, a digest to post): while the user has not authorized, no timer does any of it, nothing is sent or spent,
// nothing is lost, and the user is told where they look (every panel's header, Settings' list of kept spreadsheets,
// and, where Google lets the timer write the sheet, the Signals header) with the link that authorizes; once they
// have, every piece of waiting work is done and the notes go.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { Credits, KeptSpreadsheets } from '../../../src/account/contract';
import type { RefreshScheduleAnswer, StartResult } from '../../../src/enrichment/contract';
import type { DigestAnswer } from '../../../src/digest/contract';
import { sandboxSuite } from '../harness';
import { column, launch, noteAt, oracleTotals, REPORT_OUTPUT, SHEET } from '../research/harness';
import { appendRows, keepNewRows, rowsOf } from '../new-rows/harness';
import { DAY, fleet, hoursPass, schedule, timerDocuments, watch } from './fleet';

jest.setTimeout(300_000);

const suite = sandboxSuite({ clock: 'manual' });
/** The scope the update adds (any scope the user has not granted: Google asks for all the version declares). */
const NEW_SCOPE = 'https://www.googleapis.com/auth/userinfo.email';
const SLACK = 'https://hooks.slack.com/services/T0AUTH/B0WAIT/Zx9authSecret4u';

const credits = (doc: GasRuntime) => doc.run<Credits>('getCredits', [], { kind: 'sidebar' });
const kept = (doc: GasRuntime) => doc.run<KeptSpreadsheets>('getKeptSpreadsheets', [], { kind: 'sidebar' });
const refreshRuns = (doc: GasRuntime) => {
  const answer = doc.run<RefreshScheduleAnswer>('getRefreshSchedule', [], { kind: 'sidebar' });
  if (!answer.ok) throw new Error(answer.message);
  return answer.schedule?.lastRun ?? null;
};

/** A second sheet of companies the service is still enriching: the panel's start ends with the job waiting for them. */
async function enrichmentLeftToTheTimer(doc: GasRuntime): Promise<string[]> {
  const companies = await suite.control.companies(2, false);
  const leads = doc.spreadsheet.insertSheet('Leads');
  leads.setValues('A1:A3', [['Domain'], ...companies.map((company) => [company.domain])]);
  doc.spreadsheet.activeSheet = leads;
  doc.spreadsheet.selection = { sheet: leads, rect: { row: 1, column: 1, numRows: 3, numColumns: 1 } };
  const started = doc.run<StartResult>('startEnrichment', [{ fields: ['company_name'] }], { kind: 'sidebar' });
  if (!started.ok || started.progress.status !== 'running') throw new Error('the job should be left to the timer');
  const accounts = doc.spreadsheet.sheet(SHEET);
  doc.spreadsheet.activeSheet = accounts;
  doc.spreadsheet.selection = { sheet: accounts, rect: { row: 1, column: 2, numRows: 1, numColumns: 1 } };
  return companies.map((company) => company.name);
}

describe.each(['missing-scope', 'any-scope'] as const)(
  'an update that needs more authorization (unauthorized calls: %s)',
  (unauthorizedCalls) => {
    it('waits with every timer feature, pays nothing, says where to authorize; then does all of it', async () => {
      await suite.control.setAccount('sandbox-pro', { credits: 100_000 });
      const world = await fleet(suite, 1, { rows: 4, behaviours: { unauthorizedCalls } });
      const [doc] = world.docs;
      try {
        const weekday = new Date(world.clock.now() + 2 * DAY).getUTCDay();
        // Work of every timer feature, set up from the panels before the update.
        expect(watch(doc, 3, weekday)).toMatchObject({ ok: true });
        expect(schedule(doc, weekday, 6)).toMatchObject({ ok: true });
        expect(
          doc.run<DigestAnswer>('setDigest', [{ webhookUrl: SLACK, cadence: 'run', weekday }], { kind: 'sidebar' }),
        ).toMatchObject({ ok: true });
        await suite.control.setResearchSpeed(0.002);
        expect(
          launch(doc, { template: 'Research {Domain}', depth: 'medium', output: REPORT_OUTPUT }, [5]),
        ).toMatchObject({
          ok: true,
          created: 1,
        });
        expect(keepNewRows(doc)).toMatchObject({ ok: true });
        // A company the sheet does not hold yet (the fleet's are the first four).
        const added = (await suite.control.companies(5, true))[4];
        await suite.control.setEnrichmentDelay(30 * 60_000);
        const leadNames = await enrichmentLeftToTheTimer(doc);
        appendRows(doc, SHEET, [[added.name, added.domain]]);
        const postsBefore = (await suite.control.webhookPosts()).length;
        const spentBefore = await oracleTotals(suite);
        expect(timerDocuments(world)).toEqual([doc.spreadsheet.id]);

        // The update: the user's grant lacks its new scope. Three days of hourly timers with every panel closed.
        world.project.addScopes([NEW_SCOPE]);
        await hoursPass(suite, world, 3 * 24);
        expect(refreshRuns(doc)).toBeNull();
        expect(column(doc, 'Signals').filter((cell) => cell !== '')).toEqual([]);
        expect(column(doc, 'Status')[3]).not.toMatch(/^Done/);
        expect(rowsOf(doc, SHEET, 'Domain', added.domain)[0]).toMatchObject({ Employees: '' });
        expect(
          doc.spreadsheet
            .sheet('Leads')
            .getValues()
            .slice(1)
            .map((row) => row[1] ?? ''),
        ).toEqual(['', '']);
        expect((await suite.control.webhookPosts()).length).toBe(postsBefore);
        // No research was started (the launched task is charged by the service when it ends, collected or not).
        expect((await oracleTotals(suite)).reserved).toBe(spentBefore.reserved);
        expect(timerDocuments(world)).toEqual([doc.spreadsheet.id]);
        // Told where they look: every panel's header, Settings' list, and the Signals header where Google lets it.
        const waiting = credits(doc).timerAuthorization;
        expect(waiting?.url).toMatch(/^https:\/\/script\.google\.com\/macros\/d\/[^/]+\/authorize$/);
        expect(kept(doc).authorization).toEqual(waiting);
        if (unauthorizedCalls === 'missing-scope')
          expect(noteAt(doc, 'Signals', 1)).toMatch(/^Account watch: Sheet Scout's timers wait for your authorization/);

        // The user authorizes: the next timers do every piece of the waiting work, and the notes go.
        world.project.authorize();
        await hoursPass(suite, world, 8);
        expect(refreshRuns(doc)).not.toBeNull();
        expect(column(doc, 'Signals').filter((cell) => cell !== '').length).toBeGreaterThan(0);
        expect(column(doc, 'Status')[3]).toMatch(/^Done/);
        expect(rowsOf(doc, SHEET, 'Domain', added.domain)[0]).toMatchObject({ Employees: added.employee_count });
        expect(
          doc.spreadsheet
            .sheet('Leads')
            .getValues()
            .slice(1)
            .map((row) => row[1]),
        ).toEqual(leadNames);
        expect((await suite.control.webhookPosts()).length).toBeGreaterThan(postsBefore);
        expect(credits(doc).timerAuthorization).toBeUndefined();
        expect(kept(doc).authorization).toBeNull();
        expect(noteAt(doc, 'Signals', 1)).not.toMatch(/authorization/);
      } finally {
        await world.project.close();
      }
    });
  },
);

// A waiting run costs the user's daily trigger time only its short check.
it('spends a few seconds of trigger runtime an hour while it waits', async () => {
  const world = await fleet(suite, 1, { rows: 2 });
  try {
    expect(schedule(world.docs[0], new Date(world.clock.now() + DAY).getUTCDay(), 6)).toMatchObject({ ok: true });
    world.project.addScopes([NEW_SCOPE]);
    const before = world.project.quotaUsage().triggerRuntimeMs;
    await hoursPass(suite, world, 4);
    expect(world.project.quotaUsage().triggerRuntimeMs - before).toBeLessThan(4 * 2000);
  } finally {
    await world.project.close();
  }
});
