// Posting the digest: the shared timer's slice (with every panel closed) and Settings' "Send digest now". A weekly
// digest is due on its day after its hour (in the spreadsheet's time zone), a per-run one once a watch run or a refresh
// has left something to say; either waits while research, a refresh or an enrichment is under way (a weekly one at
// most WAIT_FOR_RUNS_MS from when it first found one), so a run's signals and cost go out together. Only the timer of the editor who
// set the webhook posts (its address is in their user properties); another editor's timer leaves the digest to it.
// A post needs a slice that outlasts UrlFetch's longest wait (POST_NEEDS_MS), so it never passes the timer's budget.
// The digest is composed and posted under the document lock; once the service took it, its signals leave the outbox
// and the next digest gathers from the time it was composed; a failed post changes nothing but the retry (post.ts).
import type { TimerFeature } from '../scheduler/features';
import { featureWake } from '../scheduler/timer';
import { nextRun } from '../enrichment/refresh/schedule';
import { composeDigest, type RunCost } from './compose';
import { postRequest, postResult } from './post';
import type { DigestPorts } from './ports';
import {
  dropStaleSecret,
  readConfig,
  readSecret,
  readState,
  writeState,
  type DigestConfig,
  type DigestState,
} from './settings';
import { SERVICE_NAMES } from './webhook';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** A weekly digest waits for runs under way at most this long (from when it first found one under way). */
const WAIT_FOR_RUNS_MS = 6 * HOUR_MS;
/** UrlFetch's longest wait for an answer (60 s), and the composing around it. */
export const POST_NEEDS_MS = 75_000;
/** The features whose runs a digest reports (the digest waits while one is under way). */
const RUN_FEATURES: readonly TimerFeature[] = ['research', 'enrichment', 'refresh', 'watch'];

export type SliceResult = { pending: boolean; wakeAt?: number };

/** When a weekly digest is next due after `after`. */
export function nextWeekly(p: Pick<DigestPorts, 'local'>, config: DigestConfig, after: number): number {
  return nextRun({ cadence: 'weekly', weekday: config.weekday, hour: config.hour }, after, (ms) => p.local(ms));
}

/** Whether a run is under way (its feature's work is due now), and when the next one is due (null: none). */
function runs(p: DigestPorts, now: number): { underWay: boolean; next: number | null } {
  const wakes = RUN_FEATURES.map((feature) => featureWake(p.timer, feature)).filter((wake) => wake !== null);
  const later = wakes.filter((wake) => wake > now);
  return { underWay: wakes.some((wake) => wake <= now), next: later.length > 0 ? Math.min(...later) : null };
}

/** The shared timer's slice: posts the digest when it is due and this user's timer is the one that posts it. */
export function digestSlice(p: DigestPorts, budgetMs: number): SliceResult {
  const config = readConfig(p.document);
  if (!config) return { pending: false };
  const now = p.clock.now();
  const state = readState(p.document, config);
  if (state.failure && state.failure.retryAt > now) return { pending: true, wakeAt: state.failure.retryAt };
  const dueAt = config.cadence === 'weekly' ? (state.nextAt ?? nextWeekly(p, config, now)) : now;
  if (dueAt > now) return { pending: true, wakeAt: dueAt };
  // Another editor set it: their timer posts it. The digest stays due (a later time set here could put it off at
  // each of their ticks, should this timer tick first every hour), until their timer has posted it.
  const url = readSecret(p.user, p.spreadsheet().id, config);
  if (!url) {
    dropStaleSecret(p.user, p.spreadsheet().id, config);
    return { pending: true };
  }
  const work = runs(p, now);
  if (work.underWay && (config.cadence === 'run' || now - (state.waitingSince ?? now) < WAIT_FOR_RUNS_MS)) {
    if (state.waitingSince === undefined) writeState(p.document, { ...state, waitingSince: now });
    return { pending: true };
  }
  if (budgetMs < POST_NEEDS_MS) return { pending: true };
  if (!p.lock.tryLock(1000)) return { pending: true };
  try {
    const posted = postDigest(p, config, readState(p.document, config), url, config.cadence === 'run');
    if (posted === 'nothing') return { pending: true, wakeAt: work.next ?? now + 24 * HOUR_MS };
    const after = readState(p.document, config);
    return { pending: true, wakeAt: after.failure?.retryAt ?? after.nextAt ?? undefined };
  } finally {
    p.lock.release();
  }
}

/**
 * Settings' "Send digest now": the digest of what happened since the last one, posted at once by the editor who set
 * the webhook (whatever its schedule). Its answer, for the panel.
 */
export function sendNow(p: DigestPorts): { ok: boolean; message: string } {
  const config = readConfig(p.document);
  if (!config) return { ok: false, message: 'No digest is set for this spreadsheet' };
  const url = readSecret(p.user, p.spreadsheet().id, config);
  if (!url)
    return { ok: false, message: `This digest is posted by ${config.setBy}'s Sheet Scout: ask them, or set your own` };
  if (!p.lock.tryLock(30_000))
    return { ok: false, message: 'Sheet Scout is busy in this spreadsheet: try again in a minute' };
  try {
    postDigest(p, config, readState(p.document, config), url, false);
  } finally {
    p.lock.release();
  }
  const state = readState(p.document, config);
  return state.failure
    ? { ok: false, message: `Not posted: ${state.failure.message}. Its rows wait for the next try.` }
    : { ok: true, message: `Posted to ${SERVICE_NAMES[config.service]} (${state.lastPost?.rows ?? 0} changed rows)` };
}

/**
 * Composes the digest of what happened since the last one and posts it (under the document lock). 'nothing' when
 * `onlyWithNews` and nothing happened; else the state afterwards is kept (the post, or its failure and retry).
 */
function postDigest(
  p: DigestPorts,
  config: DigestConfig,
  state: DigestState,
  url: string,
  onlyWithNews: boolean,
): 'posted' | 'failed' | 'nothing' {
  const now = p.clock.now();
  const outbox = p.outbox.read();
  const changes = p.changes(state.since);
  const runsSince: Array<RunCost & { id: string }> = p.runs(state.since, state.carried ?? []);
  const activity = p.activity(state.since, state.filled);
  const quiet = activity.filled.length === 0 && activity.idle.length === 0;
  if (onlyWithNews && outbox.items.length === 0 && changes.length === 0 && runsSince.length === 0 && quiet)
    return 'nothing';
  const time = (ms: number) => p.format(ms, 'EEE d MMM HH:mm');
  const digest = composeDigest({
    service: config.service,
    spreadsheet: p.spreadsheet(),
    sheetName: (sheetId) => p.sheetName(sheetId),
    from: time(state.since),
    to: time(now),
    time,
    signals: outbox.items,
    changes,
    runs: runsSince,
    filled: activity.filled,
    idle: activity.idle,
  });
  // One id for every try of this digest: it gathers from `state.since`, which only a post the service took moves.
  const [outcome] = p.http.fetchAll([postRequest(config.service, url, digest.text, `${config.id}-${state.since}`)]);
  const attempts = (state.failure?.attempts ?? 0) + 1;
  const result = postResult(config.service, outcome, attempts, now);
  if (!result.ok) {
    const since = state.failure?.since ?? now;
    const failure = { since, attempts, message: result.message, retryAt: now + result.retryAfterMs };
    writeState(p.document, { ...state, failure });
    return 'failed';
  }
  p.outbox.drop(outbox.rows);
  writeState(p.document, {
    since: now,
    nextAt: config.cadence === 'weekly' ? nextWeekly(p, config, now) : null,
    lastPost: { at: now, rows: digest.named + digest.counted },
    failure: null,
    posts: state.posts + 1,
    // Runs still under way are reported again, with what they cost in the end.
    carried: runsSince.filter((run) => run.open > 0).map((run) => run.id),
    filled: activity.filledTotals,
  });
  return 'posted';
}
