// Kills executions at random port calls (as Apps Script's time limit would) and checks that the following ticks
// always finish in the same sheet as an uninterrupted run, with no task created twice, and that the spending history
// (kept in the document's properties, killable too) lists each run with the credits the service's tasks moved.
import { MemoryStore } from '../../../fakes/ports';
import { runLaunch, type PayingDeps } from '../../../../src/research/launch/launch';
import { runTick } from '../../../../src/research/polling/tick';
import { sendUnconfirmedAnyway, unconfirmedOf } from '../../../../src/research/polling/jobs';
import type { OutputMapping } from '../../../../src/research/records/ledger';
import { LedgerStore } from '../../../../src/research/records/stores';
import { ReportStore } from '../../../../src/research/records/report-store';
import { FakeGrid, FakeService, FakeTable, idMaker, launchInput, memoryPermits, PAYER } from '../fakes';
import { ManualClock } from '../../../fakes/ports';
import { runId, SpendingHistory } from '../../../../src/spending-history/history';
import { recordingHistory } from '../../../../src/spending-history/recording';

const SHEET = 1;
const mapping: OutputMapping = { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: null };
const companies = ['Acme', 'Globex', 'asdf', 'Initech', 'Umbrella', 'Hooli', 'Stark', 'Wayne'];

class Killed extends Error {}

/** Proxies every method call of `target`, throwing Killed when the shared countdown reaches zero. */
function killable<T extends object>(target: T, budget: { left: number }): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (budget.left-- <= 0) throw new Killed('Exceeded maximum execution time');
        return value.apply(object, args);
      };
    },
  });
}

function world(faults: boolean) {
  const clock = new ManualClock();
  const grid = new FakeGrid();
  grid.addSheet(SHEET, [['Company', 'Status', 'Report'], ...companies.map((c) => [c])]);
  const service = new FakeService(clock);
  if (faults) service.faults = ['ambiguous_created', 'unavailable', 'ambiguous_lost'];
  return {
    clock,
    grid,
    service,
    ledger: new FakeTable(),
    reports: new FakeTable(),
    newId: idMaker('c'),
    permits: memoryPermits(),
    properties: new MemoryStore(),
  };
}

function history(w: ReturnType<typeof world>, wrap: <T extends object>(t: T) => T): SpendingHistory {
  return new SpendingHistory(wrap(w.properties), () => w.clock.now());
}

/**
 * Each run of the history against the service: what its records' tasks were reserved (10 each), charged (2 per agent
 * of a finished task) and given back. Records are found by their launch in the ledger; each run's tasks by their ids.
 */
function historyAgainstService(w: ReturnType<typeof world>): Array<{ listed: unknown; service: unknown }> {
  const records = new LedgerStore(w.ledger).load();
  return history(w, (t) => t)
    .list()
    .runs.map((run) => {
      const tasks = records
        .filter((entry) => entry.launch && runId(entry.launch) === run.id && entry.taskId)
        .map((entry) => w.service.tasks.find((task) => task.id === entry.taskId)!);
      const charged = tasks.reduce((sum, task) => sum + (task.status === 'done' ? task.agents * 2 : 0), 0);
      return {
        listed: { reserved: run.reserved, charged: run.charged, givenBack: run.givenBack, open: run.open },
        service: { reserved: tasks.length * 10, charged, givenBack: tasks.length * 10 - charged, open: 0 },
      };
    });
}

function deps(w: ReturnType<typeof world>, budget: { left: number } | null): PayingDeps {
  const wrap = <T extends object>(t: T) => (budget ? killable(t, budget) : t);
  const now = () => w.clock.now();
  return {
    client: wrap(w.service),
    grid: wrap(w.grid),
    permits: w.permits,
    ledger: new LedgerStore(wrap(w.ledger), null, null, recordingHistory(history(w, wrap), wrap(w.properties), now)),
    reports: new ReportStore(wrap(w.reports)),
    clock: w.clock,
    newId: w.newId,
    account: PAYER,
  };
}

function sheetSnapshot(w: ReturnType<typeof world>): unknown {
  const sheet = w.grid.sheets.get(SHEET)!;
  return { cells: sheet.cells, notes: [...sheet.notes].sort() };
}

let kills = 0;

function run(seed: number | null, faults: boolean): ReturnType<typeof world> {
  const w = world(faults);
  let random = seed ?? 0;
  const next = () => {
    random = (random * 1103515245 + 12345) % 2147483648;
    return random / 2147483648;
  };
  runLaunch(
    deps(w, null),
    launchInput(
      SHEET,
      companies.map((_, i) => i + 2),
      mapping,
    ),
    { deadline: w.clock.now() + 60000, availableCredits: 500, reservationPerTask: 10, run: 'launch' },
  );
  for (let round = 0; round < 40; round++) {
    w.clock.sleep(30000);
    if (round % 2 === 0) w.service.advance();
    const budget = seed === null ? null : { left: Math.floor(next() * 40) };
    try {
      runTick(deps(w, budget));
    } catch (error) {
      if (!(error instanceof Killed)) throw error;
      kills += 1;
    }
  }
  // A create whose answer was lost and that the task list never shows becomes unconfirmed after 30 minutes; the user
  // then chooses Send anyway (each such create is then sent once: no brief appears twice below). Then uninterrupted ticks until everything is settled.
  w.clock.sleep(30 * 60000);
  runTick(deps(w, null));
  const unconfirmed = new LedgerStore(w.ledger).load().filter((entry) => entry.state === 'unconfirmed');
  // A kill between the `sending` mark and the send also leaves a create nobody can confirm: the user decides too.
  if (seed === null) expect(unconfirmed).toHaveLength(faults ? 1 : 0);
  const sending = deps(w, null);
  sendUnconfirmedAnyway(
    sending,
    unconfirmedOf(sending, new Set(unconfirmed.map((entry) => entry.id))),
    'ana@example.com',
  );
  for (let i = 0; i < 5; i++) {
    w.clock.sleep(60000);
    w.service.advance();
    runTick(deps(w, null));
  }
  return w;
}

describe('crash consistency', () => {
  it.each([false, true])(
    '30 runs killed at random points end like an uninterrupted run (create faults: %s)',
    (faults) => {
      kills = 0;
      const reference = run(null, faults);
      const expected = sheetSnapshot(reference);
      expect(JSON.stringify(expected)).toContain('Done (8 credits)');
      for (let seed = 1; seed <= 30; seed++) {
        const w = run(seed, faults);
        expect(sheetSnapshot(w)).toEqual(expected);
        const briefs = w.service.tasks.map((task) => task.brief);
        expect(new Set(briefs).size).toBe(briefs.length);
        expect(briefs).toHaveLength(companies.length);
        const runs = historyAgainstService(w);
        expect(runs.length).toBeGreaterThan(0);
        for (const { listed, service } of runs) expect(listed).toEqual(service);
      }
      expect(kills).toBeGreaterThan(30);
    },
  );
});
