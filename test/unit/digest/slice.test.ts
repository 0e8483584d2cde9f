// When the shared timer's slice posts the digest, over fake ports: not before its time; never from a timer whose user
// did not set the webhook (and such a user's stale address goes); after the runs under way (a weekly digest at most 6
// hours late); never in a slice too short for UrlFetch's longest wait (the timer's budget holds); and what a post does
// to the outbox and the state: posted, the signals leave and the next digest gathers from then (a run still under way
// reported again); failed, everything stays and the retry is set.
import { ManualClock, MemoryLock, MemoryStore } from '../../fakes/ports';
import { digestSlice, POST_NEEDS_MS } from '../../../src/digest/service';
import type { DigestPorts } from '../../../src/digest/ports';
import { readState, writeConfig, writeSecret, type DigestConfig } from '../../../src/digest/settings';
import type { HttpOutcome, HttpRequest } from '../../../src/ports';
import type { TimerDeps } from '../../../src/scheduler/timer';
import type { RunCost } from '../../../src/digest/compose';
import type { SignalItem } from '../../../src/shared/storage/digest-outbox';

const HOUR = 3_600_000;
const START = Date.UTC(2026, 2, 2, 9); // a Monday
const URL = 'https://hooks.slack.com/services/T1/B1/secret123456';

function world(options: { poster?: boolean; answers?: HttpOutcome[] } = {}) {
  const clock = new ManualClock(START);
  const document = new MemoryStore();
  const user = new MemoryStore();
  const sent: HttpRequest[] = [];
  const answers = [...(options.answers ?? [])];
  let outbox: SignalItem[] = [{ sheetId: 1, label: 'acme.com', text: 'employee_count 11-50 -> 10001+', ref: 'w:2' }];
  const runs: Array<RunCost & { id: string }> = [
    {
      id: 'r1',
      kind: 'watch',
      startedBy: 'ana@x.com',
      at: START + HOUR,
      sheetId: 1,
      rows: 1,
      reserved: 10,
      charged: 4,
      givenBack: 6,
      open: 0,
    },
  ];
  const config: DigestConfig = {
    id: 'c1',
    service: 'slack',
    label: 'Slack webhook T1/B1',
    cadence: 'weekly',
    weekday: 3,
    hour: 8,
    setBy: 'ana@x.com',
    setAt: START,
  };
  const wednesday8 = Date.UTC(2026, 2, 4, 8);
  writeConfig(document, config, { since: START, nextAt: wednesday8, lastPost: null, failure: null, posts: 0 });
  if (options.poster !== false) writeSecret(user, 'doc1', 'c1', URL);
  const ports: DigestPorts = {
    document,
    user,
    clock,
    http: {
      fetchAll: (requests) => {
        sent.push(...requests);
        return requests.map(() => answers.shift() ?? { ok: true, status: 200, headers: {}, body: 'ok' });
      },
    },
    lock: new MemoryLock(),
    timer: { document } as unknown as TimerDeps,
    spreadsheet: () => ({ id: 'doc1', name: 'Pipeline', url: 'https://docs.google.com/spreadsheets/d/doc1/edit' }),
    sheetName: () => 'Accounts',
    format: (ms) => new Date(ms).toISOString().slice(0, 16),
    local: (ms) => {
      const date = new Date(ms);
      return { weekday: date.getUTCDay(), monthDay: date.getUTCDate(), hour: date.getUTCHours() };
    },
    outbox: { read: () => ({ items: outbox, rows: outbox.length }), drop: (rows) => (outbox = outbox.slice(rows)) },
    changes: () => [],
    runs: (since) => runs.filter((run) => run.at > since),
    activity: () => ({ filled: [], idle: [], filledTotals: {} }),
    whoAmI: () => ({ email: 'ana@x.com' }),
    newId: () => 'id',
    timeZone: () => 'Etc/UTC',
  };
  return { ports, clock, document, user, sent, config, wednesday8, outbox: () => outbox, runs };
}

describe('digest slice', () => {
  it('waits for its day, then posts once from the timer of the editor who set it', () => {
    const w = world();
    expect(digestSlice(w.ports, 240_000)).toEqual({ pending: true, wakeAt: w.wednesday8 });
    expect(w.sent).toHaveLength(0);
    w.clock.time = w.wednesday8 + 60_000;
    const after = digestSlice(w.ports, 240_000);
    expect(w.sent).toHaveLength(1);
    expect(w.sent[0].url).toBe(URL);
    expect(JSON.parse(w.sent[0].payload as string).text).toContain('• acme.com: employee_count 11-50 -&gt; 10001+');
    expect(w.outbox()).toEqual([]);
    const state = readState(w.document, w.config);
    expect(state).toMatchObject({ since: w.wednesday8 + 60_000, posts: 1, failure: null, lastPost: { rows: 1 } });
    expect(after).toEqual({ pending: true, wakeAt: Date.UTC(2026, 2, 11, 8) });
  });

  it("leaves the post to the setter's timer, and forgets this user's address of an earlier digest", () => {
    const w = world({ poster: false });
    writeSecret(w.user, 'doc1', 'an-earlier-config', URL);
    w.clock.time = w.wednesday8 + 60_000;
    expect(digestSlice(w.ports, 240_000)).toEqual({ pending: true });
    expect(w.sent).toHaveLength(0);
    expect([...w.user.data.values()].join()).not.toContain('secret123456');
  });

  it('waits for the runs under way, a weekly digest at most 6 hours from when it found them', () => {
    const w = world();
    w.document.set('sheetscout.timer.pending.research', '1');
    // Its timer came late (hours past its time): it still waits for the run it finds under way.
    w.clock.time = w.wednesday8 + 7 * HOUR;
    expect(digestSlice(w.ports, 240_000)).toEqual({ pending: true });
    w.clock.time = w.wednesday8 + 12 * HOUR;
    expect(digestSlice(w.ports, 240_000)).toEqual({ pending: true });
    expect(w.sent).toHaveLength(0);
    w.clock.time = w.wednesday8 + 13 * HOUR;
    digestSlice(w.ports, 240_000);
    expect(w.sent).toHaveLength(1);
    expect(readState(w.document, w.config).waitingSince).toBeUndefined();
  });

  it("never posts in a slice shorter than UrlFetch's longest wait: the timer's budget holds", () => {
    const w = world();
    w.clock.time = w.wednesday8 + 60_000;
    expect(digestSlice(w.ports, POST_NEEDS_MS - 1)).toEqual({ pending: true });
    expect(w.sent).toHaveLength(0);
    digestSlice(w.ports, POST_NEEDS_MS);
    expect(w.sent).toHaveLength(1);
  });

  it('keeps everything when a post fails, and tries again once its wait is over', () => {
    const w = world({ answers: [{ ok: true, status: 503, headers: {}, body: 'rollup_error' }] });
    w.clock.time = w.wednesday8 + 60_000;
    const failed = digestSlice(w.ports, 240_000);
    const state = readState(w.document, w.config);
    expect(state.failure).toMatchObject({ attempts: 1, message: 'Slack answered 503 rollup_error' });
    expect(failed).toEqual({ pending: true, wakeAt: w.wednesday8 + 60_000 + 15 * 60_000 });
    expect(w.outbox()).toHaveLength(1);
    expect(state.since).toBe(START);
    w.clock.advance(10 * 60_000);
    digestSlice(w.ports, 240_000);
    expect(w.sent).toHaveLength(1);
    w.clock.advance(5 * 60_000);
    digestSlice(w.ports, 240_000);
    expect(w.sent).toHaveLength(2);
    expect(w.outbox()).toEqual([]);
    expect(readState(w.document, w.config).failure).toBeNull();
  });

  it('reports a run still under way again in the next digest, with what it cost in the end', () => {
    const w = world();
    w.runs[0].open = 1;
    w.clock.time = w.wednesday8 + 60_000;
    digestSlice(w.ports, 240_000);
    expect(readState(w.document, w.config).carried).toEqual(['r1']);
  });
});
