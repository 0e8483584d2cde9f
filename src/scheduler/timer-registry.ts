// The spreadsheets that hold the current user's timers. Google allows 20 triggers per user per script (for a published
// add-on: 20 spreadsheets with a timer), so a user who keeps many spreadsheets current needs to see which ones hold
// them and why: each entry names the spreadsheet (name, link), its timer's trigger id, what keeps the timer (a weekly
// refresh, an account watch, research or an enrichment running) and the next time its work is due. One small JSON
// value in the user's properties (entries stored compactly: 20 with names of 80 characters fit), written under the
// user's lock with a fresh read (timers of several spreadsheets of one user may end at once, and neither may drop the
// other's entry). Pure: the stores and the lock are ports.
import type { KeyValueStore, LockPort } from '../ports';
import { TIMER_FEATURES, type TimerFeature } from './features';
import { utf8Bytes } from '../shared/storage/chunked-store';

/** UserProperties: the spreadsheets holding the user's timers. */
export const TIMER_REGISTRY_KEY = 'sheetscout.timer.registry';
/** Names are kept short so that 20 entries stay inside one property value (8,066 bytes measured)... */
const NAME_MAX = 80;
/** ...and shorter still when long names in a wide script would not fit (REGISTRY_MAX_BYTES, in UTF-8 bytes). */
const NAME_MIN = 16;
const REGISTRY_MAX_BYTES = 8000;
/** How long a registry write waits for another execution of the same user to finish its own. */
const USER_LOCK_WAIT_MS = 5_000;

export interface SpreadsheetIdentity {
  id: string;
  name: string;
  url: string;
}

export interface TimerHolder extends SpreadsheetIdentity {
  /** The timer's trigger id. */
  trigger: string;
  /** What keeps the timer (its features with work pending). */
  keeps: TimerFeature[];
  /** When its next work is due (ms), or null: now (work is under way). */
  nextRunAt: number | null;
  /**
   * When each of `keeps` is next due (ms; a time past: at the timer's next run, as work under way or checked at every
   * run is), the timer's cadence and when it was made (its runs come a whole number of periods after; not noted at
   * each run, which would be a write of the user's properties every time): absent in entries of earlier versions.
   */
  wakes?: Partial<Record<TimerFeature, number>>;
  cadence?: 'minute' | 'hourly';
  madeAt?: number | null;
}

/** A spreadsheet's entry: its timer (`madeAt`: when it was made) and when each feature's work is due. */
export function holderEntry(
  here: SpreadsheetIdentity,
  timer: { trigger: string; cadence: 'minute' | 'hourly'; madeAt: number | null },
  wakes: ReadonlyArray<readonly [TimerFeature, number | null]>,
  now: number,
): TimerHolder {
  const pending = wakes
    .filter((entry): entry is readonly [TimerFeature, number] => entry[1] !== null)
    .sort(([a], [b]) => TIMER_FEATURES.indexOf(a) - TIMER_FEATURES.indexOf(b));
  const next = Math.min(...pending.map(([, wake]) => wake));
  return {
    ...here,
    ...timer,
    keeps: pending.map(([feature]) => feature),
    nextRunAt: next > now ? next : null,
    wakes: Object.fromEntries(pending),
  };
}

const PERIOD_MS = { minute: 60_000, hourly: 3_600_000 } as const;

/**
 * When the holder's timer next runs, as far as can be told: a whole number of periods after it was made, the first
 * such time after `now`; null when not known (an entry of an earlier version).
 */
export function timerNextRun(holder: Pick<TimerHolder, 'cadence' | 'madeAt'>, now: number): number | null {
  if (!holder.cadence || holder.madeAt === undefined || holder.madeAt === null) return null;
  const period = PERIOD_MS[holder.cadence];
  const periods = Math.max(1, Math.floor((now - holder.madeAt) / period) + 1);
  return holder.madeAt + periods * period;
}

/**
 * An entry as stored: its link left out when it is the spreadsheet's usual one, and the work that keeps the timer
 * given only by its times (in TIMER_FEATURES' order, 0 for none), so that 20 entries fit one property value.
 */
type StoredHolder = Omit<TimerHolder, 'url' | 'keeps' | 'wakes'> & {
  url?: string;
  keeps?: TimerFeature[];
  wakes?: Partial<Record<TimerFeature, number>> | number[];
};

const usualUrl = (id: string) => `https://docs.google.com/spreadsheets/d/${id}/edit`;

function packed(holder: TimerHolder): StoredHolder {
  const { url, keeps, wakes, ...rest } = holder;
  return {
    ...rest,
    ...(url === usualUrl(holder.id) ? {} : { url }),
    ...(wakes ? { wakes: TIMER_FEATURES.map((feature) => wakes[feature] ?? 0) } : { keeps }),
  };
}

function unpacked(stored: StoredHolder): TimerHolder {
  const { url, keeps, wakes, ...rest } = stored;
  const times = Array.isArray(wakes)
    ? Object.fromEntries(
        TIMER_FEATURES.map((feature, i) => [feature, wakes[i] ?? 0] as const).filter(([, wake]) => wake !== 0),
      )
    : wakes;
  return {
    ...rest,
    url: url ?? usualUrl(stored.id),
    keeps: keeps ?? (Object.keys(times ?? {}) as TimerFeature[]),
    ...(times ? { wakes: times } : {}),
  };
}

export function readHolders(user: KeyValueStore, fresh = false): TimerHolder[] {
  const text = fresh ? user.fresh(TIMER_REGISTRY_KEY) : user.get(TIMER_REGISTRY_KEY);
  try {
    const parsed = JSON.parse(text ?? '[]') as unknown;
    return Array.isArray(parsed)
      ? (parsed as StoredHolder[]).filter((entry) => typeof entry?.id === 'string').map(unpacked)
      : [];
  } catch {
    return [];
  }
}

/**
 * Changes the registry: `change` gets the entries and returns the new ones (the same array: nothing to write). What
 * this execution read decides whether there is anything to change at all; the change itself is made under the user's
 * lock on the entries as stored now. Without the lock in time it is made all the same (an entry is what the user is
 * shown, never what decides work).
 */
export function changeHolders(
  user: KeyValueStore,
  userLock: LockPort,
  change: (holders: TimerHolder[]) => TimerHolder[],
): void {
  const known = readHolders(user);
  if (change(known) === known) return;
  const locked = userLock.tryLock(USER_LOCK_WAIT_MS);
  try {
    const before = readHolders(user, true);
    const after = change(before);
    if (after === before) return;
    if (after.length === 0) user.remove(TIMER_REGISTRY_KEY);
    else user.set(TIMER_REGISTRY_KEY, fittedText(after));
  } finally {
    if (locked) userLock.release();
  }
}

/** The registry's text within one property value: names cut shorter when 20 long ones in a wide script would not fit. */
function fittedText(holders: TimerHolder[]): string {
  const stored = holders.map(packed);
  let text = JSON.stringify(stored);
  for (let max = NAME_MAX / 2; utf8Bytes(text) > REGISTRY_MAX_BYTES && max >= NAME_MIN; max /= 2)
    text = JSON.stringify(stored.map((holder) => ({ ...holder, name: holder.name.slice(0, max) })));
  return text;
}

/** Whether two entries say the same (as stored: whatever the order of their fields). */
const sameEntry = (a: TimerHolder, b: TimerHolder) =>
  [a, b]
    .map((holder) => JSON.stringify(Object.entries(packed(holder)).sort(([x], [y]) => (x < y ? -1 : 1))))
    .every((text, _i, both) => text === both[0]);

/** The registry with this spreadsheet's entry set (added or replaced). */
export function withHolder(holders: TimerHolder[], holder: TimerHolder): TimerHolder[] {
  const entry = { ...holder, name: holder.name.slice(0, NAME_MAX) };
  const at = holders.findIndex((existing) => existing.id === holder.id);
  if (at >= 0 && sameEntry(holders[at], entry)) return holders;
  return at >= 0 ? holders.map((existing, i) => (i === at ? entry : existing)) : [...holders, entry];
}

/** The registry without the entries of the given trigger ids (or of a spreadsheet, by its id). */
export function withoutHolders(holders: TimerHolder[], drop: (holder: TimerHolder) => boolean): TimerHolder[] {
  return holders.some(drop) ? holders.filter((holder) => !drop(holder)) : holders;
}

const FEATURE_WORDS: Record<TimerFeature, string> = {
  refresh: 'scheduled refresh',
  watch: 'account watch',
  research: 'research running',
  enrichment: 'enrichment running',
  newRows: 'new rows kept enriched',
  digest: 'digest',
};

/** A feature's work in words ("scheduled refresh"). */
export function featureWords(feature: TimerFeature): string {
  return FEATURE_WORDS[feature];
}

/** What keeps a holder's timer, in words ("scheduled refresh, account watch"). */
export function keptBy(holder: Pick<TimerHolder, 'keeps'>): string {
  return holder.keeps.length === 0 ? 'finishing its work' : holder.keeps.map((f) => FEATURE_WORDS[f]).join(', ');
}

/**
 * The refusal when Google allows no more timers: which spreadsheets hold the user's timers, and how to free one.
 */
export function limitMessage(holders: TimerHolder[]): string {
  const named = holders.map((holder) => `"${holder.name}" (${keptBy(holder)})`);
  const list =
    named.length === 0
      ? ''
      : ` They are in ${named.length > 8 ? `${named.slice(0, 8).join(', ')} and ${named.length - 8} more` : named.join(', ')}.`;
  return (
    "Sheet Scout could not set up this spreadsheet's timer, which runs its work while " +
    'the panels are closed. Google allows 20 timers per account and all 20 are in use.' +
    list +
    ' To free one, stop the schedule or watch of one of them (Enrich > Keep data fresh > Off, Enrich > Keep ' +
    'enriching new rows > Turn off, Research > Account watch > Stop) or let its research or enrichment finish; ' +
    'Settings lists them all.'
  );
}
