import { createPollLoop } from '../../../../sidebar/research/poll-loop';

/** A poll whose answer arrives when the test says so, and a timer the test fires by hand. */
function harness() {
  const answers: Array<() => void> = [];
  let started = 0;
  const timers = new Map<number, () => void>();
  let nextTimer = 1;
  const loop = createPollLoop({
    poll: () => {
      started += 1;
      return new Promise<void>((resolve) => answers.push(resolve));
    },
    setTimer: (run, ms) => {
      expect(ms).toBe(15000);
      timers.set(nextTimer, run);
      return nextTimer++;
    },
    clearTimer: (handle) => timers.delete(handle as number),
    intervalMs: 15000,
  });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return {
    loop,
    started: () => started,
    inFlight: () => answers.length,
    answer: async () => {
      answers.shift()?.();
      await settle();
    },
    timers,
    fireTimers: async () => {
      const due = [...timers.values()];
      timers.clear();
      for (const run of due) run();
      await settle();
    },
  };
}

describe('research panel poll loop', () => {
  it('never starts a poll while one is in flight; requests made meanwhile become one follow-up', async () => {
    const h = harness();
    void h.loop.pollNow();
    void h.loop.pollNow();
    void h.loop.pollNow();
    expect(h.started()).toBe(1);
    await h.answer();
    expect(h.started()).toBe(2);
    expect(h.inFlight()).toBe(1);
    await h.answer();
    expect(h.started()).toBe(2);
  });

  it('schedules the next periodic poll only after the answer, one timer at a time', async () => {
    const h = harness();
    void h.loop.pollNow();
    await h.fireTimers();
    expect(h.timers.size).toBe(0);
    expect(h.started()).toBe(1);
    await h.answer();
    expect(h.timers.size).toBe(1);
    await h.fireTimers();
    expect(h.started()).toBe(2);
    await h.answer();
    void h.loop.pollNow();
    expect(h.timers.size).toBe(0);
    await h.answer();
    expect(h.timers.size).toBe(1);
    expect(h.started()).toBe(3);
  });

  it('keeps polling after a failed poll', async () => {
    let calls = 0;
    const timers: Array<() => void> = [];
    const loop = createPollLoop({
      poll: () => {
        calls += 1;
        return Promise.reject(new Error('offline'));
      },
      setTimer: (run) => timers.push(run),
      clearTimer: () => undefined,
      intervalMs: 15000,
    });
    await loop.pollNow();
    expect(timers).toHaveLength(1);
    timers[0]();
    expect(calls).toBe(2);
  });
});
