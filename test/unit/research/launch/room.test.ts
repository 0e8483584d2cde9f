// Room in the document's properties for a launch's running tasks (preconditions.ts, propertiesProblem): refused when
// what they keep would leave less than the other features' headroom of Google's 500 KB, with the rows that fit; and
// when none fits, to wait for the research running there.
import * as preconditions from '../../../../src/research/launch/preconditions';

const { propertiesProblem, PROPERTY_BYTES_PER_LAUNCH, PROPERTY_BYTES_PER_TASK, PROPERTY_HEADROOM_BYTES } =
  preconditions;

describe("room in the document's properties", () => {
  it('lets a launch through while its tasks leave the headroom free, and names the rows that fit when not', () => {
    const free = PROPERTY_HEADROOM_BYTES + PROPERTY_BYTES_PER_LAUNCH + 100 * PROPERTY_BYTES_PER_TASK;
    expect(propertiesProblem(100, free)).toBeNull();
    expect(propertiesProblem(101, free)).toMatch(/ Launch up to 100 rows now, and the rest once they have finished\.$/);
    // An empty store: (512,000 - 49,152 headroom - 1,024 for the launch) / 72 bytes a task = 6,414 tasks.
    expect(propertiesProblem(10_000, 500 * 1024)).toMatch(
      /^Nothing was sent: research on 10,000 rows keeps about 705 KB in Sheet Scout's storage in this spreadsheet while it runs\. 500 KB of the 500 KB Google allows are free, and 48 KB of them stay kept for the other features meanwhile \(schedules, watches, enrichment, the digest\): 452 KB are left for research\. Launch up to 6,414 rows now/,
    );
  });

  it('says to wait when no row fits', () => {
    expect(propertiesProblem(1, PROPERTY_HEADROOM_BYTES)).toMatch(
      /: 0 KB are left for research\. Launch again once the research running here has finished\.$/,
    );
  });
});
