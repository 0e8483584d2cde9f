// "Keep enriching new rows" in many spreadsheets at once (issue 40, item 1), through the built bundle in the
// emulator's published add-on mode (hourly timers, one per user per document, 20 per user, 90 minutes of trigger
// runtime a day) against the sandbox on a shared manual clock, every panel closed: one user keeps the new rows of
// twenty spreadsheets filled, rows arriving in one of them every hour for two days; each is filled within two hours
// of its arrival, for no credit by the sandbox's money record, within a small part of the day's trigger runtime; the
// 21st spreadsheet is refused before anything is saved, with the names of those holding the user's timers.
import { TIMER_RUNTIME_KEY } from '../../../src/scheduler/runtime-budget';
import { sandboxSuite } from '../harness';
import { oracleTotals, SHEET, USER } from '../research/harness';
import { fleet, HOUR, TOKEN, timerDocuments } from '../scheduler/fleet';
import { appendRows, keepNewRows, rowsOf } from './harness';

const suite = sandboxSuite({ clock: 'manual' });
const DOCS = 20;
const HOURS = 48;

beforeEach(async () => {
  await suite.control.setAccount('sandbox-pro', { credits: 100_000 });
});

describe('new rows kept enriched in many spreadsheets (integration, add-on mode)', () => {
  it('fills the new rows of twenty spreadsheets within two hours; the 21st is refused first', async () => {
    const world = await fleet(suite, DOCS + 1);
    try {
      const creditsBefore = await suite.control.credits(TOKEN);
      for (const doc of world.docs.slice(0, DOCS)) expect(keepNewRows(doc)).toMatchObject({ ok: true });
      const refused = keepNewRows(world.docs[DOCS]);
      expect(refused).toMatchObject({ ok: false });
      const message = refused.ok ? '' : refused.message;
      expect(message).toMatch(/^Nothing was saved\. .*Google allows 20 timers per account and all 20 are in use/);
      expect(message).toContain('"Accounts 1" (new rows kept enriched)');
      expect(
        world.docs[DOCS].properties.document.keys().filter((key) => key.startsWith('sheetscout.newRows.')),
      ).toEqual([]);
      expect(new Set(timerDocuments(world)).size).toBe(DOCS);

      // Companies no spreadsheet lists yet: two domains arrive in one spreadsheet every hour, twenty minutes past (its
      // enriched columns are Company, reused for the name, and Employees).
      const arriving = (await suite.control.companies((DOCS + 1) * 3 + 2 * HOURS, true)).slice((DOCS + 1) * 3);
      const arrived = new Map<string, { doc: number; at: number }>();
      const filledAt = new Map<string, number>();
      for (let hour = 0; hour < HOURS; hour++) {
        await suite.control.advanceClock(20 * 60_000);
        world.clock.advance(20 * 60_000);
        const doc = hour % DOCS;
        const pair = arriving.slice(2 * hour, 2 * hour + 2);
        appendRows(
          world.docs[doc],
          SHEET,
          pair.map((company) => ['', company.domain]),
        );
        for (const company of pair) arrived.set(company.domain, { doc, at: world.clock.now() });
        await suite.control.advanceClock(40 * 60_000);
        world.clock.advance(40 * 60_000);
        for (const fired of world.project.triggers.fireDue()) expect(fired).toMatchObject({ ok: true });
        for (const company of arriving.slice(0, 2 * hour + 2)) {
          if (filledAt.has(company.domain)) continue;
          const row = rowsOf(
            world.docs[(arrived.get(company.domain) as { doc: number }).doc],
            SHEET,
            'Domain',
            company.domain,
          )[0];
          if (row.Company === company.name && row.Employees === company.employee_count)
            filledAt.set(company.domain, world.clock.now());
        }
      }
      expect(filledAt.size).toBe(2 * HOURS);
      const hoursToFill = [...filledAt].map(([domain, at]) => (at - (arrived.get(domain)?.at ?? 0)) / HOUR);
      expect(Math.max(...hoursToFill)).toBeLessThanOrEqual(2);
      expect(await oracleTotals(suite, TOKEN)).toEqual({ reserved: 0, charged: 0, refunded: 0 });
      expect(await suite.control.credits(TOKEN)).toBe(creditsBefore);
      // Twenty timers checking every hour book a few minutes of the 45-minute share in any day.
      const booked = JSON.parse(world.project.properties.user(USER).get(TIMER_RUNTIME_KEY) ?? '{}') as Record<
        string,
        number
      >;
      const lastDay = Object.entries(booked)
        .filter(([hour]) => Number(hour) >= Math.floor(world.clock.now() / HOUR) - 24)
        .reduce((sum, [, ms]) => sum + ms, 0);
      expect(lastDay).toBeLessThan(15 * 60_000);
    } finally {
      await world.project.close();
    }
  });
});
