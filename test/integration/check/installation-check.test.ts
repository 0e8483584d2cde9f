// Settings > Check this installation through the built bundle, the emulator (a published add-on, every panel closed
// after the check) and the sandbox, under each setting of what Google does not document (the emulator's switches):
// whether an add-on's timer runs with its spreadsheet, how many requests of a fetchAll run at once, and the CPU factor
// the cost model assumes. Each probe must find what the emulator was set to, and the switches it settles must change
// what the add-in does: a timer run without its spreadsheet retires (no timer for a week), rounds become multiples of
// fetchAll's width, and a timer run is booked with the start the panel timed.
import type { GasRuntime } from '../../../dev/gas-runtime';
import { PLATFORM_CPU_FACTOR } from '../../../dev/gas-runtime/costs';
import type { InstallationCheckState } from '../../../src/check/contract';
import type { EnrichProgress, StartResult } from '../../../src/enrichment/contract';
import { sandboxSuite } from '../harness';
import { fleet, hoursPass, timerDocuments } from '../scheduler/fleet';

const suite = sandboxSuite({ clock: 'manual' });

/** The panel's check: its round trip timed as the emulator charges a panel call, then the probes. */
function runCheck(doc: GasRuntime): InstallationCheckState {
  doc.run('pingInstallation', [], { kind: 'sidebar' });
  const roundTripMs = doc.counters.modelled.lastExecutionMs;
  return doc.run<InstallationCheckState>('checkInstallation', [roundTripMs], { kind: 'sidebar' });
}

describe.each([null, 16, 8])('fetchAll running %s requests at once', (concurrency) => {
  it("measures the width against the service's endpoint, and the next job's rounds are whole waves of it", async () => {
    const world = await fleet(suite, 1, { rows: 2, behaviours: { fetchAllConcurrency: concurrency } });
    const [doc] = world.docs;
    try {
      const state = runCheck(doc);
      expect(state.last?.problems).toEqual([]);
      expect(state.last?.fetchAll?.width ?? null).toBe(concurrency);
      expect(state.switches.fetchAllWidth).toBe(concurrency);
      // A job of 150 domains: every round the batch caps is a multiple of the width.
      const companies = await suite.control.companies(150, true);
      const leads = doc.spreadsheet.insertSheet('Leads', undefined, { rows: 200, columns: 10 });
      leads.setValues(`A1:A${companies.length + 1}`, [['Domain'], ...companies.map((company) => [company.domain])]);
      doc.spreadsheet.activeSheet = leads;
      doc.spreadsheet.selection = { sheet: leads, rect: { row: 1, column: 1, numRows: 151, numColumns: 1 } };
      const logFrom = doc.httpLog.length;
      const started = doc.run<StartResult>('startEnrichment', [{ fields: ['company_name'] }], { kind: 'sidebar' });
      if (!started.ok) throw new Error(started.message);
      let progress: EnrichProgress = started.progress;
      for (let step = 0; step < 20 && progress.status === 'running'; step++)
        progress = doc.run<EnrichProgress>('runEnrichmentChunk', [], { kind: 'sidebar' });
      expect(progress.status).toBe('done');
      const rounds = new Map<number, number>();
      for (const entry of doc.httpLog.slice(logFrom).filter((e) => e.url.includes('/v1/companies/')))
        rounds.set(entry.batchId, (rounds.get(entry.batchId) ?? 0) + 1);
      const sizes = [...rounds.values()];
      // (The fleet's own two companies come from the cache.)
      expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(148);
      expect(sizes.length).toBeGreaterThan(2);
      if (concurrency) expect(sizes.slice(0, -1).every((size) => size % concurrency === 0)).toBe(true);
    } finally {
      await world.project.close();
    }
  });
});

describe.each([true, false])('an add-on timer that runs with its spreadsheet: %s', (addOnTimerHasDocument) => {
  it('asks the timer for a run and reports what it found; without its spreadsheet the timer retires', async () => {
    const world = await fleet(suite, 1, { rows: 2, behaviours: { addOnTimerHasDocument } });
    const [doc] = world.docs;
    try {
      const checked = runCheck(doc);
      expect(checked.timer).toEqual({ askedAt: checked.last?.at });
      expect(timerDocuments(world)).toEqual([doc.spreadsheet.id]);
      await hoursPass(suite, world, 1);
      const state = doc.run<InstallationCheckState>('getInstallationCheck', [], { kind: 'sidebar' });
      expect(state.timer).toMatchObject({ withDocument: addOnTimerHasDocument, ranAt: expect.any(Number) });
      expect(state.documentlessAt !== null).toBe(!addOnTimerHasDocument);
      expect(timerDocuments(world)).toEqual([]);
      if (addOnTimerHasDocument) {
        // Booked as the run measured itself plus the start the panel timed (longer than the default 600 ms).
        const start = checked.last?.roundTripMs ?? 0;
        expect(start).toBeGreaterThan(0);
        expect(state.switches.timerStartMs).toBe(Math.max(600, start));
        expect(state.timer?.bookedMs).toBe((state.timer?.measuredMs ?? 0) + state.switches.timerStartMs);
      }
    } finally {
      await world.project.close();
    }
  });
});

it("times the first domain's unpacking: the CPU factor it gives is the one the cost model assumes", async () => {
  const world = await fleet(suite, 1, { rows: 2 });
  try {
    const state = runCheck(world.docs[0]);
    expect(state.last?.cpuFactor).toBeGreaterThanOrEqual(PLATFORM_CPU_FACTOR.factor * 0.9);
    expect(state.last?.cpuFactor).toBeLessThanOrEqual(PLATFORM_CPU_FACTOR.factor * 1.1);
    // Kept for the maintainer's report, and read back by Settings.
    expect(world.docs[0].run<InstallationCheckState>('getInstallationCheck', [], { kind: 'sidebar' }).last).toEqual(
      state.last,
    );
  } finally {
    await world.project.close();
  }
});
