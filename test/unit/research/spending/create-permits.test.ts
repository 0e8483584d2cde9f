// Which creates a launch authorised and which tasks may give back their unused reservation (create-permits.ts), kept
// per launch over its records' places: a record takes the create granted to its place once (not another record's), a
// record that sent its create takes none again (an older copy put back as "queued" is the same launch and place: it is
// looked for in the task list instead), one that took a create and was killed before sending takes it again, a create
// given back is authorised again, and each task gives back once, while its record runs. Who launched a record is its
// launch's account; a created task's owner goes to the task index. What the document's properties keep grows with
// launches, not records. An earlier version's permits (fingerprints per record) are adopted once.
import { ungranted } from '../../../../src/research/spending/create-permits';
import { unansweredLauncher } from '../../../../src/research/launch/plan';
import type { LedgerEntry } from '../../../../src/research/records/ledger';
import { fingerprint } from '../../../../src/shared/fingerprint';
import { writeChunked } from '../../../../src/shared/storage/chunked-store';
import { MemoryStore } from '../../../fakes/ports';
import { FakeTable } from '../../../fakes/table';
import { memoryPermits } from '../fakes';

const record = (id: string, launch?: string, taskId: string | null = null, ordinal?: number) =>
  ({ id, launch, taskId, state: 'queued', ...(ordinal === undefined ? {} : { ordinal }) }) as LedgerEntry;
const ids = (entries: readonly LedgerEntry[]) => entries.map((entry) => entry.id);
const created = (entry: LedgerEntry, taskId: string) => ({ ...entry, taskId, state: 'created' }) as LedgerEntry;
/** The document's properties as stored (keys and values). */
const bytes = (store: MemoryStore) => [...store.data].reduce((sum, [key, value]) => sum + key.length + value.length, 0);

describe('create permits', () => {
  it('numbers the records of a launch and authorises one create per place, once', () => {
    const permits = memoryPermits();
    const [a, b] = permits.grant('L1', [record('a'), record('b')], null);
    expect([a, b].map((entry) => [entry.launch, entry.ordinal])).toEqual([
      ['L1', 0],
      ['L1', 1],
    ]);
    const c = record('c', 'L1');
    expect(ids(permits.take([a, b, c]))).toEqual(['a', 'b']);
    // Killed before sending: the same records take their creates again, and no more.
    expect(ids(permits.take([a, b, c]))).toEqual(['a', 'b']);
    permits.settle({ sending: [a, b], answered: [], givenBack: [] });
    // Sent: put back to "queued" (an older copy: same launch and place), they take nothing; nor does a record of an
    // unknown launch, of none, of no place, or of a place the launch never numbered.
    const others = [record('d', 'forged', null, 0), record('e', undefined, null, 0), c, record('f', 'L1', null, 2)];
    expect(permits.take([a, b, ...others])).toEqual([]);
    expect(ungranted([a, b, c], [], 5).map((entry) => [entry.id, entry.state, entry.updatedAt])).toEqual([
      ['a', 'sending', 5],
      ['b', 'sending', 5],
      ['c', 'sending', 5],
    ]);
  });

  it("grants each record its own place: another record of the launch takes none, and a place's create is sent once", () => {
    const permits = memoryPermits();
    const [a, b, c] = permits.grant(
      'L1',
      ['a', 'b', 'c'].map((id) => record(id)),
      null,
    );
    // b's create was sent; c was given back (a 503): the launch has one grant open, c's place.
    expect(permits.take([a, b, c])).toHaveLength(3);
    permits.settle({ sending: [a, b, c], answered: [a, b], givenBack: [c] });
    expect(permits.take([b, a])).toEqual([]);
    expect(ids(permits.take([b, c]))).toEqual(['c']);
    permits.settle({ sending: [c], answered: [], givenBack: [] });
    // A record's id, launch and place are sealed together in its ledger row: a copy is the same place, sent already.
    expect(permits.take([c, { ...c, id: 'c-copy' }])).toEqual([]);
  });

  it('a create given back (nothing was created, or not sent before the deadline) is authorised again', () => {
    const permits = memoryPermits();
    const [a] = permits.grant('L1', [record('a')], null);
    expect(permits.take([a])).toHaveLength(1);
    permits.settle({ sending: [a], answered: [], givenBack: [] });
    permits.settle({ sending: [], answered: [], givenBack: [a] });
    expect(permits.take([a])).toHaveLength(1);
  });

  it('each task the add-in created, and each refused create, gives back once, while its record runs', () => {
    const store = new MemoryStore();
    const permits = memoryPermits(store);
    const tasks = permits.grant(
      'L1',
      Array.from({ length: 50 }, (_, i) => record(`r${i}`)),
      null,
    );
    permits.take(tasks);
    const answered = tasks.map((entry, i) => created(entry, `task-${i}`));
    permits.settle({ sending: tasks, answered, givenBack: [] });
    expect(ids([...permits.release(answered.slice(0, 2))].map((id) => record(id)))).toEqual(['r0', 'r1']);
    // Moved back to "in progress" and finished again: nothing more is given back.
    expect([...permits.release(answered.slice(0, 2))]).toEqual([]);
    // One task still runs; the others finished (their final states were saved: what they did not use was given back).
    permits.keepOpen(answered.slice(2, 3));
    expect([...permits.release(answered)]).toEqual(['r2']);
    // Nothing left open: the launch goes, and with it the value.
    permits.keepOpen([]);
    expect([...store.data.keys()].filter((key) => key.startsWith('sheetscout.research.'))).toEqual([]);
  });

  it('keeps per launch what grows with its records: 4,000 records take about what 2,000 do', () => {
    const size = (records: number) => {
      const store = new MemoryStore();
      const permits = memoryPermits(store);
      const granted = permits.grant(
        'launch-id',
        Array.from({ length: records }, (_, i) => record(`r${i}`)),
        'a@x.io',
      );
      const taken = permits.take(granted);
      permits.settle({ sending: taken, answered: taken.map((entry, i) => created(entry, `t${i}`)), givenBack: [] });
      return bytes(store);
    };
    // Three sets of six records a character: 2,000 more records add 1,000 characters, not 2,000 fingerprints.
    expect(size(4_000) - size(2_000)).toBeLessThanOrEqual(1_000);
    expect(size(20_000)).toBeLessThan(10_500);
  });

  it('adopts the queued records of an earlier version once, the first time; later records without a launch get none', () => {
    const permits = memoryPermits();
    const legacy = [record('old-1'), record('old-2'), { ...record('done-1'), state: 'done' } as LedgerEntry];
    const adopted = permits.adopt(legacy, [], 'L0', 1);
    expect(adopted.map((entry) => [entry.id, entry.launch, entry.ordinal])).toEqual([
      ['old-1', 'L0', 0],
      ['old-2', 'L0', 1],
    ]);
    expect(ids(permits.take(adopted))).toEqual(['old-1', 'old-2']);
    expect(permits.adopt([record('later')], [], 'L2', 2)).toEqual([]);
    expect(permits.take([record('later')])).toEqual([]);
  });

  it('knows who launched each record by its launch, and each created task in the task index', () => {
    const store = new MemoryStore();
    const tasks = new FakeTable();
    const permits = memoryPermits(store, tasks);
    const [a, b] = permits.grant('LA', [record('a'), record('b')], 'ana@example.com');
    const [c] = permits.grant('LB', [record('c')], 'ben@example.com');
    expect([a, b, c].map((entry) => permits.launchers().launcherOf(entry))).toEqual([
      'ana@example.com',
      'ana@example.com',
      'ben@example.com',
    ]);
    const task = created(a, 'task-a');
    permits.settle({ sending: [a], answered: [task], givenBack: [] });
    expect(permits.launchers().taskOwner('task-a')).toEqual({
      taskId: 'task-a',
      launch: 'LA',
      ordinal: 0,
      record: 'a',
      payer: 'ana@example.com',
    });
    expect(permits.launchers().taskOwner('task-x')).toBeNull();
    // A record no launch granted, or of an earlier version: not known.
    expect(permits.launchers().launcherOf(record('x', 'forged'))).toBeNull();
    expect(permits.launchers().launcherOf(record('y'))).toBeNull();
    // A re-run asks about every launcher but the payer, unless the answer named them ('' for one not known).
    expect(unansweredLauncher(permits.launchers(), 'ben@example.com', [], [c, task])).toBe('ana@example.com');
    expect(unansweredLauncher(permits.launchers(), 'ben@example.com', ['ana@example.com'], [c, task])).toBeUndefined();
    expect(unansweredLauncher(permits.launchers(), 'ben@example.com', ['ana@example.com'], [record('y')])).toBeNull();
    expect(unansweredLauncher(permits.launchers(), 'ben@example.com', [''], [record('y')])).toBeUndefined();
    // Launches no open record is of are forgotten, with their accounts.
    permits.keepOpen([b]);
    expect([permits.launchers().launcherOf(task), permits.launchers().launcherOf(c)]).toEqual([
      'ana@example.com',
      null,
    ]);
    permits.keepOpen([]);
    expect(JSON.stringify([...store.data.values()])).not.toMatch(/@example\.com/);
    // The index forgets the tasks no ledger row names any more.
    permits.retainTasks(new Set(['task-b']));
    expect(permits.launchers().taskOwner('task-a')).toBeNull();
  });

  it("adopts an earlier version's permits once: each record it speaks of numbered, its tasks' owners indexed", () => {
    const store = new MemoryStore();
    const permits = memoryPermits(store);
    const key = (entry: LedgerEntry) => fingerprint(`${entry.launch}:${entry.id}`);
    const [queued, sent, running] = [record('q', 'OLD'), record('s', 'OLD'), record('r', 'OLD', 'task-r')];
    const running2 = { ...running, state: 'in_progress' } as LedgerEntry;
    writeChunked(
      store,
      'sheetscout.research.permits',
      JSON.stringify({
        launches: { OLD: { left: 0, taken: [], granted: [key(queued)] }, ANCIENT: { left: 1, taken: [] } },
        unreleased: [fingerprint('task:task-r')],
        owners: {
          [key(queued)]: 0,
          [key(sent)]: 0,
          [fingerprint('owner:task-r')]: 0,
          [fingerprint('owner:task-d')]: 0,
        },
        payers: ['ana@example.com'],
        taskLaunches: { [fingerprint('owner:task-r')]: 0, [fingerprint('owner:task-d')]: 0 },
        launchIds: ['OLD'],
      }),
    );
    const ancient = [record('a1', 'ANCIENT'), record('a2', 'ANCIENT')];
    const damaged = [{ entryId: 'd', taskId: 'task-d', changed: true }];
    const upgraded = permits.adopt([queued, sent, running2, ...ancient], damaged, 'NEW', 1);
    // The queued record kept its grant, the running task its give-back; an ancient launch's count went to one record.
    expect(upgraded.map((entry) => [entry.id, entry.ordinal])).toEqual([
      ['q', 0],
      ['r', 1],
      ['a1', 0],
    ]);
    expect([...store.data.keys()].some((name) => name.startsWith('sheetscout.research.permits.'))).toBe(false);
    expect(ids(permits.take([...upgraded, sent, ...ancient]))).toEqual(['q', 'a1']);
    expect([...permits.release(upgraded)]).toEqual(['r']);
    expect([sent, running2].map((entry) => permits.launchers().launcherOf(entry))).toEqual([
      'ana@example.com',
      'ana@example.com',
    ]);
    expect(permits.launchers().taskOwner('task-d')).toMatchObject({ launch: 'OLD', record: 'd', ordinal: null });
    expect(permits.launchers().taskOwner('task-r')).toMatchObject({ launch: 'OLD', record: 'r', ordinal: 1 });
    // Once: an older copy of the queued record (no place) put back takes nothing, and nothing is adopted again.
    expect(permits.adopt([queued], [], 'NEWER', 2)).toEqual([]);
    expect(permits.take([queued])).toEqual([]);
  });

  it("adopts an earlier version's permits beside a reused record of its task: the task stays its first record's", () => {
    // A result bought by the earlier version (task-r, not yet written into its row when the version changed) was
    // reused by a launch of this one before the upgrade ran: the reused record names task-r under its own launch,
    // with no place (it took no grant, and pays nothing).
    const store = new MemoryStore();
    const permits = memoryPermits(store);
    const first = { ...record('r', 'OLD', 'task-r'), state: 'done', written: false } as LedgerEntry;
    const reused = {
      ...record('again', 'NEW', 'task-r'),
      state: 'done',
      written: false,
      reused: { from: 'r', researchedAt: 1 },
    } as LedgerEntry;
    writeChunked(
      store,
      'sheetscout.research.permits',
      JSON.stringify({
        launches: {},
        unreleased: [fingerprint('task:task-r')],
        owners: { [fingerprint('owner:task-r')]: 0 },
        payers: ['ana@example.com'],
        taskLaunches: { [fingerprint('owner:task-r')]: 0 },
        launchIds: ['OLD'],
      }),
    );
    const upgraded = permits.adopt([first, reused], [], 'ADOPT', 1);
    // The reused record gets no place, so no grant and no give-back; the task index says task-r is r's, of OLD.
    expect(upgraded.map((entry) => [entry.id, entry.ordinal])).toEqual([['r', 0]]);
    expect(permits.take([reused])).toEqual([]);
    expect([...permits.release([reused])]).toEqual([]);
    expect(permits.launchers().taskOwner('task-r')).toMatchObject({ launch: 'OLD', record: 'r', ordinal: 0 });
  });
});
