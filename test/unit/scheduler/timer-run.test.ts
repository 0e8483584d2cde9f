// The timer's run in isolation (issue 45, point 2): a slice that throws ends only itself and is kept for the panels;
// when collecting paid work fails, nothing that starts paid work runs; the timer's own writes never end the run.
import { ensureTimer, featureWake, type TimerDeps, type TimerTriggerPort } from '../../../src/scheduler/timer';
import { runTimer, type TimerTask } from '../../../src/scheduler/timer-run';
import { readStops, stopLines, stopMessage } from '../../../src/scheduler/timer-stops';
import type { TimerFeature } from '../../../src/scheduler/features';
import { ManualClock, MemoryCache, MemoryLock, MemoryStore } from '../../fakes/ports';

class Triggers implements TimerTriggerPort {
  ids: string[] = [];
  list(): string[] {
    return this.ids;
  }
  create(): string {
    this.ids.push(`t${this.ids.length + 1}`);
    return this.ids[this.ids.length - 1];
  }
  remove(id: string): void {
    this.ids = this.ids.filter((known) => known !== id);
  }
  allIds(): string[] {
    return this.ids;
  }
}

function setup(): { deps: TimerDeps; document: MemoryStore; clock: ManualClock } {
  const clock = new ManualClock(Date.UTC(2026, 2, 2, 9));
  const document = new MemoryStore();
  const deps: TimerDeps = {
    triggers: new Triggers(),
    document,
    user: new MemoryStore(),
    userLock: new MemoryLock(),
    spreadsheet: () => ({ id: 's1', name: 'Accounts', url: 'https://docs.google.com/spreadsheets/d/s1/edit' }),
    clock,
    cadence: 'hourly',
  };
  return { deps, document, clock };
}

/** A task that records that it ran, and throws `failure` when given. */
function task(feature: TimerFeature, log: string[], failure?: Error, flags: Partial<TimerTask> = {}): TimerTask {
  return {
    feature,
    ...flags,
    runSlice: (_budgetMs, run) => {
      log.push(feature);
      if (failure) throw failure;
      // A slice that would start paid work holds it back when told to, and says so.
      if (flags.startsPaidWork && run?.paidWork === false) return { pending: true, heldBack: true };
      if (flags.startsPaidWork) log.push(`${feature} paid`);
      return { pending: true };
    },
  };
}

describe('the timer run in isolation', () => {
  it('a slice that throws ends only itself: the others run, its mark stays due, and the panels are told', () => {
    const { deps, document, clock } = setup();
    for (const feature of ['research', 'newRows', 'digest'] as const) ensureTimer(deps, feature);
    const log: string[] = [];
    const full = new Error("Sheet Scout's storage in this spreadsheet is full (Google allows 500 KB)");
    const run = runTimer(deps, [task('research', log), task('newRows', log, full), task('digest', log)], 200_000);
    expect(log).toEqual(['research', 'newRows', 'digest']);
    expect(featureWake(deps, 'newRows')).toBeLessThanOrEqual(clock.now());
    expect(run.stopped).toEqual([{ part: 'newRows', message: full.message, since: clock.now(), at: clock.now() }]);
    expect(readStops(document)).toEqual(run.stopped);
    const first = clock.now();
    clock.advance(3_600_000);
    runTimer(deps, [task('research', log), task('newRows', log, full)], 200_000);
    expect(readStops(document)).toEqual([{ part: 'newRows', message: full.message, since: first, at: clock.now() }]);
    expect(stopLines(readStops(document), (ms) => new Date(ms).toISOString().slice(11, 16))).toEqual([
      "Keep enriching new rows stopped in the timer's run of 10:00 (failing since 09:00): " + full.message,
    ]);
    // Once it runs through, it is forgotten.
    runTimer(deps, [task('newRows', log)], 200_000);
    expect(readStops(document)).toEqual([]);
  });

  it('when collecting paid work fails, no slice starts paid work (they do the rest), and the panels are told', () => {
    const { deps } = setup();
    for (const feature of ['research', 'watch', 'newRows', 'refresh'] as const) ensureTimer(deps, feature);
    const log: string[] = [];
    const run = runTimer(
      deps,
      [
        task('research', log, new Error('Quota exceeded'), { collects: true }),
        task('refresh', log),
        task('watch', log, undefined, { startsPaidWork: true }),
        task('newRows', log, undefined, { startsPaidWork: true }),
      ],
      200_000,
    );
    // They ran (their other work) and started nothing paid.
    expect(log).toEqual(['research', 'refresh', 'watch', 'newRows']);
    expect(run.stopped.map((stop) => stop.part).sort()).toEqual(['newRows', 'research', 'watch']);
    expect(run.stopped.find((stop) => stop.part === 'watch')?.message).toMatch(
      /^paid work not started, so that nothing is paid for that could not be collected: collecting research results failed first \(Quota exceeded\)/,
    );
    // Their work stays due: the next run tries it again.
    expect(run.ran.filter((entry) => entry.feature === 'watch')).toEqual([{ feature: 'watch', pending: true }]);
    // Once collecting works again, paid work starts and the stops are forgotten.
    log.length = 0;
    const next = runTimer(
      deps,
      [task('research', log, undefined, { collects: true }), task('watch', log, undefined, { startsPaidWork: true })],
      200_000,
    );
    expect(log).toEqual(['research', 'watch', 'watch paid']);
    expect(next.stopped.map((stop) => stop.part)).toEqual(['newRows']);
  });

  it("the timer's own writes never end the run; what the properties do not take is noted in the cache", () => {
    const { deps, document, clock } = setup();
    ensureTimer(deps, 'research');
    ensureTimer(deps, 'digest');
    document.failWrites = true;
    const log: string[] = [];
    const run = runTimer(deps, [task('research', log), task('digest', log)], 200_000);
    expect(log).toEqual(['research', 'digest']);
    const refused = [['timer', 'You have exceeded the property storage quota.']];
    expect(run.stopped.map((stop) => [stop.part, stop.message])).toEqual(refused);
    // Without a cache it waits for the next run; with the document's cache, the panels read it from there.
    expect(readStops(document)).toEqual([]);
    const notes = new MemoryCache(clock);
    runTimer({ ...deps, notes }, [task('research', log)], 200_000);
    expect(readStops(document, notes).map((stop) => [stop.part, stop.message])).toEqual(refused);
    // Once the properties take writes again, the note moves back there and the cache's goes.
    document.failWrites = false;
    clock.advance(3_600_000);
    runTimer({ ...deps, notes }, [task('research', log, new Error('Quota exceeded'))], 200_000);
    expect(readStops(document).map((stop) => stop.part)).toEqual(['research']);
    expect(readStops(document, notes)).toEqual(readStops(document));
  });

  it('an error text never carries an address, and is kept short', () => {
    const error = new Error(`Request failed for https://hooks.slack.com/services/T1/B2/secret99 ${'x'.repeat(400)}`);
    const message = stopMessage(error);
    expect(message).not.toContain('secret99');
    expect(message.startsWith('Request failed for (an address)')).toBe(true);
    expect([...message].length).toBeLessThanOrEqual(300);
  });
});
