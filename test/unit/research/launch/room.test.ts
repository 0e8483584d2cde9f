// Room for a launch's running tasks (preconditions.ts): in the document's properties (propertiesProblem), refused when
// what they keep would leave less than the other features' headroom of Google's 500 KB, with the tasks that fit, and
// when none fits, to wait for the research running there; and in the spreadsheet's open tasks (openTasksProblem),
// refused only past OPEN_TASKS_MAX, naming it with what that many keep.
import * as preconditions from '../../../../src/research/launch/preconditions';

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
