// What stopped in the timer's runs, and why, for the panels: a slice that throws (storage full, a quota spent, a damaged
// record) ends only itself (timer.ts runs each in isolation), a slice that would start paid work does not run when
// the collection of paid work failed before it in the same run, and a failed write of the timer's own bookkeeping
// never ends the run. Each is kept by feature in the document's properties (one small value, written only when it
// changes) with since when it has been failing, until the feature's slice runs through again; when the properties take
// no write (full, or the day's quota spent), in the document's cache for a few hours (each failing run puts it again).
// Error texts are shortened and any address in them replaced. Pure over the stores.
import type { CachePort, KeyValueStore } from '../ports';
import type { TimerFeature } from './features';

const STOPS_KEY = 'sheetscout.timer.stopped';
const MESSAGE_CHARS = 300;
/** How long the cache keeps stops the properties did not take (under CacheService's 6 hours). */
const CACHED_SECONDS = 5 * 60 * 60;

/** What failed: a feature's slice, or the timer's own bookkeeping (its record, its marks). */
export type StoppedPart = TimerFeature | 'timer';

export interface TimerStop {
  part: StoppedPart;
  message: string;
  /** When it first failed (of the failures in a row), and when it last did. */
  since: number;
  at: number;
}

/** Each part as the panels name it. */
export const STOPPED_PART_LABELS: Readonly<Record<StoppedPart, string>> = {
  research: 'Collecting research results',
  enrichment: 'Continuing the enrichment',
  refresh: 'Scheduled refresh (Keep data fresh)',
  watch: 'Account watch runs',
  newRows: 'Keep enriching new rows',
  digest: 'The digest',
  timer: "The timer's own records",
};

/** A thrown error as the panels may show it: its message, shortened, with no address (a webhook's is a secret). */
export function stopMessage(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const text =
    raw
      .replace(/\bhttps?:\/\/\S+/gi, '(an address)')
      .replace(/\s+/g, ' ')
      .trim() || 'an unknown error';
  return text.length > MESSAGE_CHARS ? `${text.slice(0, MESSAGE_CHARS - 1)}…` : text;
}

function parseStops(text: string | null | undefined): TimerStop[] {
  try {
    const parsed = JSON.parse(text ?? '[]') as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (stop): stop is TimerStop =>
        typeof stop === 'object' &&
        stop !== null &&
        typeof (stop as TimerStop).part === 'string' &&
        (stop as TimerStop).part in STOPPED_PART_LABELS &&
        typeof (stop as TimerStop).message === 'string' &&
        typeof (stop as TimerStop).since === 'number' &&
        typeof (stop as TimerStop).at === 'number',
    );
  } catch {
    return [];
  }
}

/** The parts that stopped, as kept (the cache's, when the properties did not take them; unreadable: none). */
export function readStops(store: KeyValueStore, cache?: CachePort): TimerStop[] {
  const stored = parseStops(store.get(STOPS_KEY));
  const cached = cache ? parseStops(cache.getAll([STOPS_KEY])[STOPS_KEY]) : [];
  if (cached.length === 0) return stored;
  const newest = Math.max(...cached.map((stop) => stop.at));
  return stored.every((stop) => stop.at <= newest) ? cached : stored;
}

/**
 * Keeps what stopped in a run at `now` (`stopped`: part -> why) and forgets the parts that ran through (`cleared`).
 * Best effort: a write the properties refuse goes to the cache (when given), else waits for the next run. Returns
 * what is kept.
 */
export function noteStops(
  store: KeyValueStore,
  now: number,
  stopped: ReadonlyMap<StoppedPart, string>,
  cleared: readonly StoppedPart[],
  cache?: CachePort,
): TimerStop[] {
  const before = readStops(store, cache);
  const kept = before.filter((stop) => !cleared.includes(stop.part) && !stopped.has(stop.part));
  for (const [part, message] of stopped) {
    const earlier = before.find((stop) => stop.part === part);
    kept.push({ part, message, since: earlier?.since ?? now, at: now });
  }
  if (stopped.size === 0 && kept.length === before.length) return before;
  try {
    if (kept.length === 0) store.remove(STOPS_KEY);
    else store.set(STOPS_KEY, JSON.stringify(kept));
    cache?.removeAll([STOPS_KEY]);
  } catch {
    cache?.putAll({ [STOPS_KEY]: JSON.stringify(kept) }, CACHED_SECONDS);
  }
  return kept;
}

/** Runs a write of the timer's own bookkeeping; a failure is returned (and the run goes on), not thrown. */
export function bookkeeping(write: () => void): string | null {
  try {
    write();
    return null;
  } catch (error) {
    return stopMessage(error);
  }
}

/** The panels' lines ("Keep enriching new rows stopped at Tue 09:00 (failing since Mon 14:00): …"). */
export function stopLines(stops: readonly TimerStop[], time: (ms: number) => string): string[] {
  return stops.map((stop) => {
    const since = stop.since < stop.at ? ` (failing since ${time(stop.since)})` : '';
    return `${STOPPED_PART_LABELS[stop.part]} stopped in the timer's run of ${time(stop.at)}${since}: ${stop.message}`;
  });
}
