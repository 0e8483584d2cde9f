// Which creates a launch authorised and which tasks may give back their unused reservation (create-permits.ts): a
// record takes the create granted to it once (not another record's of its launch), a record that sent its create
// takes none again (an older copy put back as "queued": it is looked for in the task list instead), one that took a
// create and was killed before sending takes it again, a create given back is authorised
// again, and each task gives back once, while its record runs (nothing is kept for finished tasks). Who launched each open record's task: by record, then by task (an edit of the
// record's launch does not change it), forgotten once the record no longer runs.
import { documentCreatePermits, ungranted } from '../../../../src/research/spending/create-permits';
import { unansweredLauncher } from '../../../../src/research/launch/plan';
import type { LedgerEntry } from '../../../../src/research/records/ledger';
import { MemoryStore } from '../../../fakes/ports';

const record = (id: string, launch: string | undefined, taskId: string | null = null) =>
  ({ id, launch, taskId, state: 'queued' }) as LedgerEntry;

describe('create permits', () => {
  it('authorises as many creates as the launch passed the cap for, once per record', () => {
    const permits = documentCreatePermits(new MemoryStore());
    const [a, b, c] = ['a', 'b', 'c'].map((id) => record(id, 'L1'));
    permits.grant('L1', [a, b], null);
    expect(permits.take([a, b, c]).map((entry) => entry.id)).toEqual(['a', 'b']);
    // Killed before sending: the same records take their creates again, and no more.
    expect(permits.take([a, b, c]).map((entry) => entry.id)).toEqual(['a', 'b']);
    permits.settle({ sending: [a, b], answered: [], givenBack: [] });
    // Sent: put back to "queued", they take nothing; nor does a record of an unknown launch, or of none.
    expect(permits.take([a, b, c, record('d', 'forged'), record('e', undefined)])).toEqual([]);
    expect(ungranted([a, b, c], [], 5).map((entry) => [entry.id, entry.state, entry.updatedAt])).toEqual([
      ['a', 'sending', 5],
      ['b', 'sending', 5],
      ['c', 'sending', 5],
    ]);
  });

  it('grants each record its own create: a copy of one record, or another record of the launch, takes none', () => {
    const permits = documentCreatePermits(new MemoryStore());
    const [a, b, c] = ['a', 'b', 'c'].map((id) => record(id, 'L1'));
    permits.grant('L1', [a, b, c], null);
    // b's create was sent; c was given back (a 503): the launch has one grant open, c's, which only c takes.
    expect(permits.take([a, b, c])).toHaveLength(3);
    permits.settle({ sending: [a, b, c], answered: [a, b], givenBack: [c] });
    expect(permits.take([b, a, record('x', 'L1')])).toEqual([]);
    expect(permits.take([b, c]).map((entry) => entry.id)).toEqual(['c']);
  });

  it('a create given back (nothing was created, or not sent before the deadline) is authorised again', () => {
    const permits = documentCreatePermits(new MemoryStore());
    const a = record('a', 'L1');
    permits.grant('L1', [a], null);
    expect(permits.take([a])).toHaveLength(1);
    permits.settle({ sending: [a], answered: [], givenBack: [] });
    permits.settle({ sending: [], answered: [], givenBack: [a] });
    expect(permits.take([a])).toHaveLength(1);
  });

  it('each task the add-in created, and each refused create, gives back once', () => {
    const store = new MemoryStore();
    const permits = documentCreatePermits(store);
    const done = record('a', 'L1', 'task-1');
    permits.settle({ sending: [], answered: [done], givenBack: [] });
    expect([...permits.release([done, record('b', 'L1', 'task-2')])]).toEqual(['a']);
    expect([...permits.release([done])]).toEqual([]);
    // Nothing left: the value is gone from the store.
    expect(store.data.size).toBe(0);
  });

  it('keeps a give-back only while its record runs: finished tasks that used their whole reservation leave nothing', () => {
    const store = new MemoryStore();
    const permits = documentCreatePermits(store);
    const tasks = Array.from({ length: 50 }, (_, i) => record(`r${i}`, 'L1', `task-${i}`));
    permits.settle({ sending: [], answered: tasks, givenBack: [] });
    // One task still runs; 49 finished (their final states were saved: what they did not use was given back then).
    permits.keepOpen(tasks.slice(0, 1));
    // What is kept is what one answered task alone keeps.
    const alone = new MemoryStore();
    documentCreatePermits(alone).settle({ sending: [], answered: tasks.slice(0, 1), givenBack: [] });
    const kept = (kv: MemoryStore) => [...kv.data.values()].filter((text) => text.startsWith('{"launches"'));
    expect(kept(store)).toEqual(kept(alone));
    expect(kept(store)).toHaveLength(1);
    expect([...permits.release(tasks)]).toEqual(['r0']);
    expect(store.data.size).toBe(0);
  });

  it('adopts the queued records of an earlier version once, the first time; later records without a launch get none', () => {
    const permits = documentCreatePermits(new MemoryStore());
    const legacy = [record('old-1', undefined), record('old-2', undefined), record('new', 'L1')];
    const adopted = permits.adopt(legacy, 'L0', 1);
    expect(adopted.map((entry) => [entry.id, entry.launch])).toEqual([
      ['old-1', 'L0'],
      ['old-2', 'L0'],
    ]);
    expect(permits.take(adopted).map((entry) => entry.id)).toEqual(['old-1', 'old-2']);
    expect(permits.adopt([record('later', undefined)], 'L2', 2)).toEqual([]);
    expect(permits.take([record('later', undefined)])).toEqual([]);
  });

  it('knows who launched each open record: by record, then by its task, whatever its record says later', () => {
    const store = new MemoryStore();
    const permits = documentCreatePermits(store);
    const [a, b] = ['a', 'b'].map((id) => record(id, 'LA'));
    const c = record('c', 'LB');
    permits.grant('LA', [a, b], 'ana@example.com');
    permits.grant('LB', [c], 'ben@example.com');
    expect([a, b, c].map((entry) => permits.launcherOf(entry))).toEqual([
      'ana@example.com',
      'ana@example.com',
      'ben@example.com',
    ]);
    // Created: known by the task from now on; its record given B's launch and id in the ledger is still A's.
    const created = { ...a, taskId: 'task-a', state: 'created' } as LedgerEntry;
    permits.settle({ sending: [a], answered: [created], givenBack: [] });
    expect(permits.launcherOf(created)).toBe('ana@example.com');
    expect(permits.launcherOf({ ...created, launch: 'LB', id: 'c' })).toBe('ana@example.com');
    // A record no launch granted, or of an earlier version: not known.
    expect(permits.launcherOf(record('x', 'forged'))).toBeNull();
    expect(permits.launcherOf(record('y', undefined))).toBeNull();
    // A re-run asks about every launcher but the payer, unless the answer named them ('' for one not known).
    expect(unansweredLauncher(permits, 'ben@example.com', [], [c, created])).toBe('ana@example.com');
    expect(unansweredLauncher(permits, 'ben@example.com', ['ana@example.com'], [c, created])).toBeUndefined();
    expect(unansweredLauncher(permits, 'ben@example.com', ['ana@example.com'], [record('y', undefined)])).toBeNull();
    expect(unansweredLauncher(permits, 'ben@example.com', [''], [record('y', undefined)])).toBeUndefined();
    // Records that no longer run are forgotten; with nothing else kept, the value goes.
    permits.keepOpen([b, c]);
    expect(permits.launcherOf(created)).toBeNull();
    expect(permits.launcherOf(b)).toBe('ana@example.com');
    permits.keepOpen([]);
    expect([b, c].map((entry) => permits.launcherOf(entry))).toEqual([null, null]);
    // No account is kept once no record of theirs runs.
    expect(JSON.stringify([...store.data.values()])).not.toMatch(/@example\.com/);
  });
});
