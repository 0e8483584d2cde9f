// Settings > Check this installation: on the user's real account, the probes that settle what Google does not document
// (docs/real-account-checklist.md): the first domain's unpacking timed (the CPU factor against Node), fetchAll's
// width against the service's own endpoint (GET /v1/user: no credits; 57 requests of the day's budget), a panel
// call's round trip as the panel timed it (a start), and a run of the shared timer (with or without its spreadsheet,
// what it measured and booked) that the timer notes at its next tick. The results are kept in the user's properties
// for the maintainer's report, and the add-in reads the switches they settle from there (src/shared/installation.ts).
import type { ClockPort, HttpPort, KeyValueStore } from '../ports';
import { parseDomain } from '../shared/domain/domain';
import { CHECK_KEY, TIMER_PROBE_KEY, type InstallationResult } from '../shared/installation';

/** Node's first-domain unpacking on a developer machine: 0.38 ms per KB of the 240 KB it allocates (measured, cold). */
export const NODE_UNPACK_MS = 91;
/** fetchAll rounds the width probe sends after two single requests (then sizes between, to find the width). */
const ROUND_SIZES = [8, 16, 32];
/** The most requests the probes send: 2 singles, the rounds, and the sizes between the last whole wave and 32. */
export const PROBE_REQUESTS = 2 + 8 + 16 + 32 + 24 + 28 + 30 + 31;

export interface CheckPorts {
  user: KeyValueStore;
  clock: ClockPort;
  http: HttpPort;
  connection(): { baseUrl: string; token: string | null };
  /** Counts the probe's requests against the day's budget at once (so no round pays a write of its own), and gives
   * back what was not sent. */
  reserve(count: number): void;
  release(): void;
  /** Makes sure a timer serves this spreadsheet (its next run is the probe), or says why none can. */
  armTimer(): string | null;
}

/** The time `work` takes on the execution's clock. */
function timed(clock: ClockPort, work: () => unknown): number {
  const from = clock.now();
  work();
  return clock.now() - from;
}

/**
 * fetchAll's width: a round that takes half as long again as one request ran in more than one wave; the sizes
 * between the largest round in one wave and the first in two find how many Google runs at once.
 */
function fetchAllProbe(p: CheckPorts, problems: string[]): InstallationResult['fetchAll'] {
  const { baseUrl, token } = p.connection();
  if (!token) {
    problems.push('fetchAll was not measured: connect a token in Settings first');
    return null;
  }
  const request = { url: `${baseUrl}/v1/user`, method: 'get' as const, headers: { Authorization: `Bearer ${token}` } };
  const round = (size: number) => timed(p.clock, () => p.http.fetchAll(new Array(size).fill(request)));
  p.reserve(PROBE_REQUESTS);
  try {
    const singleMs = Math.max(1, Math.min(round(1), round(1)));
    const rounds: Array<{ size: number; ms: number }> = [];
    const inOneWave = (size: number) => {
      const ms = round(size);
      rounds.push({ size, ms });
      return ms <= 1.5 * singleMs;
    };
    let whole = 1;
    const over = ROUND_SIZES.find((size) => !inOneWave(size) || ((whole = size), false));
    if (over === undefined) return { singleMs, rounds, width: null };
    for (let cut = over; cut - whole > 1;) {
      const size = Math.floor((whole + cut) / 2);
      if (inOneWave(size)) whole = size;
      else cut = size;
    }
    return { singleMs, rounds, width: whole };
  } finally {
    p.release();
  }
}

/** Runs the probes (the first domain of this execution is the check's own) and keeps the results. */
export function runInstallationCheck(p: CheckPorts, roundTripMs: number | null): InstallationResult {
  const at = p.clock.now();
  const unpackMs = timed(p.clock, () => parseDomain('check.example.co.uk'));
  const problems: string[] = [];
  const fetchAll = fetchAllProbe(p, problems);
  const timerProblem = p.armTimer();
  if (timerProblem) problems.push(`The timer probe cannot run: ${timerProblem}`);
  else p.user.set(TIMER_PROBE_KEY, JSON.stringify({ askedAt: at }));
  const result: InstallationResult = {
    at,
    roundTripMs: roundTripMs !== null && roundTripMs > 0 ? Math.round(roundTripMs) : null,
    unpackMs,
    cpuFactor: Math.round((unpackMs / NODE_UNPACK_MS) * 10) / 10,
    fetchAll,
    problems,
  };
  p.user.set(CHECK_KEY, JSON.stringify(result));
  return result;
}
