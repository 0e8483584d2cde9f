// The Research panel's poll loop: never more than one poll in flight. The next periodic poll is scheduled only when
// the previous answer arrived (so a slow tick delays the next one instead of piling up), and a poll asked for while
// one is running (after a launch, on switching tabs) becomes a single follow-up once it ends.
export interface PollLoopDeps {
  poll: () => Promise<void>;
  setTimer: (run: () => void, ms: number) => unknown;
  clearTimer: (handle: unknown) => void;
  /** Wait after each answer before the next periodic poll. */
  intervalMs: number;
}

export interface PollLoop {
  /** Polls now, or once right after the poll in flight. */
  pollNow(): Promise<void>;
}

export function createPollLoop(deps: PollLoopDeps): PollLoop {
  let inFlight = false;
  let followUp = false;
  let timer: unknown = null;

  function cancelTimer(): void {
    if (timer !== null) deps.clearTimer(timer);
    timer = null;
  }

  async function pollNow(): Promise<void> {
    if (inFlight) {
      followUp = true;
      return;
    }
    inFlight = true;
    cancelTimer();
    try {
      await deps.poll();
    } catch {
      // A failed poll is tried again at the next interval.
    } finally {
      inFlight = false;
    }
    if (followUp) {
      followUp = false;
      return pollNow();
    }
    timer = deps.setTimer(() => {
      timer = null;
      void pollNow();
    }, deps.intervalMs);
  }

  return { pollNow };
}
