// Room for a launch's running tasks (preconditions.ts): in the document's properties (propertiesProblem), refused when
// what they keep would leave less than the other features' headroom of Google's 500 KB, with the tasks that fit, and
// when none fits, to wait for the research running there; and in the spreadsheet's open tasks (openTasksProblem),
// refused only past OPEN_TASKS_MAX, naming it with what that many keep. A launch that reuses earlier results counts
// only the tasks it pays for there (roomProblem), its reused records in the spreadsheet's cells.
import * as preconditions from '../../../../src/research/launch/preconditions';
import type { Research } from '../../../../src/research/context';
import type { LaunchPlan } from '../../../../src/research/launch/launch';
import { roomProblem } from '../../../../src/research/launch/paid-launch';
import type { LedgerEntry, OutputMapping } from '../../../../src/research/records/ledger';
import { ledgerEntry } from '../fakes';

const {
  openTasksProblem,
  propertiesProblem,
  OPEN_TASKS_MAX,
  PROPERTY_BYTES_PER_LAUNCH,
  PROPERTY_BYTES_PER_TASK,
  PROPERTY_HEADROOM_BYTES,
} = preconditions;

describe("room in the document's properties", () => {
  it('lets a launch through while its tasks leave the headroom free, and names the tasks that fit when not', () => {
    const free = PROPERTY_HEADROOM_BYTES + PROPERTY_BYTES_PER_LAUNCH + 100 * PROPERTY_BYTES_PER_TASK;
    expect(propertiesProblem(100, free)).toBeNull();
    expect(propertiesProblem(101, free)).toMatch(
      / Launch up to 100 tasks now, and the rest once they have finished\.$/,
    );
    // An empty store holds far more than a spreadsheet's open tasks: the properties never refuse them on their own.
    expect(propertiesProblem(OPEN_TASKS_MAX, 500 * 1024)).toBeNull();
    // Filled by other features but for 60 KB: (61,440 - 49,152 headroom - 1,024 for the launch) / 2 bytes a task.
    expect(propertiesProblem(10_000, 60 * 1024)).toMatch(
      /^Nothing was sent: research of 10,000 tasks keeps about 21 KB in Sheet Scout's storage in this spreadsheet while it runs\. 60 KB of the 500 KB Google allows are free, and 48 KB of them stay kept for the other features meanwhile \(schedules, watches, enrichment, the digest\): 12 KB are left for research\. Launch up to 5,632 tasks now/,
    );
  });

  it('says to wait when no task fits', () => {
    expect(propertiesProblem(1, PROPERTY_HEADROOM_BYTES)).toMatch(
      /: 0 KB are left for research\. Launch again once the research running here has finished\.$/,
    );
  });
});

describe('open tasks in one spreadsheet', () => {
  it('refuses only past the figure the scale benchmark holds, naming it, what they keep, and the tasks that fit', () => {
    expect(OPEN_TASKS_MAX).toBe(20_000);
    expect(openTasksProblem(10_000, 10_000)).toBeNull();
    expect(openTasksProblem(20_000, 0)).toBeNull();
    expect(openTasksProblem(1_000, 19_990)).toBe(
      'Nothing was sent: this spreadsheet has 19,990 research tasks open, and Sheet Scout keeps up to 20,000 open in ' +
        'one spreadsheet (at most 41 KB of the 500 KB of its storage here, and its timer reads them all every ' +
        'hour): research of 1,000 tasks would make 20,990. Launch up to 10 tasks now, and the rest once they have ' +
        'finished.',
    );
    expect(openTasksProblem(1, 20_000)).toMatch(
      /has 20,000 research tasks open.*research of 1 task would make 20,001\. Launch again once the research running here has finished\.$/,
    );
  });
});

describe('a launch that reuses earlier results (reuse on request)', () => {
  const mapping: OutputMapping = {
    kind: 'report',
    statusHeader: 'Status',
    reportHeader: 'Report',
    sourcesHeader: null,
  };
  const records = (count: number, overrides: Partial<LedgerEntry>) =>
    Array.from({ length: count }, (_, i) => ledgerEntry(mapping, { ...overrides, id: `${overrides.state}-${i}` }));
  /** A spreadsheet with `open` research tasks open, its properties and cells unused, 100 requests left today. */
  const withOpen = (open: number, cellsInUse = 0) =>
    ({
      context: { requestBudget: { status: () => ({ used: 0, limit: 100, googleLimit: 20_000 }) } },
      deps: { grid: { cellsInUse: () => cellsInUse }, ledger: { all: () => records(open, { state: 'created' }) } },
      document: { bytesFree: () => 500 * 1024 },
    }) as unknown as Research;
  const plan = (paid: number, reused: number) =>
    ({
      entries: records(paid, { state: 'queued' }),
      reused: records(reused, { state: 'done', written: false, reused: { from: 'first', researchedAt: 0 } }),
    }) as LaunchPlan;

  it('counts only the tasks it pays for against the open tasks and the requests, its reused records in the cells', () => {
    // 19,998 open: 2 new tasks fit beside any number of reused rows; a third is refused, reused rows not counted.
    expect(roomProblem(withOpen(OPEN_TASKS_MAX - 2), plan(2, 5_000))).toBeNull();
    expect(roomProblem(withOpen(OPEN_TASKS_MAX - 2), plan(3, 5_000))).toMatch(
      /has 19,998 research tasks open.*research of 3 tasks would make 20,001\. Launch up to 2 tasks now/,
    );
    // Only reused rows: nothing to create, poll or keep; their records still take cells in the hidden sheets.
    expect(roomProblem(withOpen(OPEN_TASKS_MAX), plan(0, 100))).toBeNull();
    const full = 10_000_000 - 2 * 1000 * 26 - 10;
    expect(roomProblem(withOpen(0, full), plan(0, 100))).toMatch(/^Nothing was sent: this spreadsheet holds /);
  });
});
