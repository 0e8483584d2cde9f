// What the saver of an account watch confirmed (watch.ts holds the watch itself): kept where only the add-in writes
// (the document's properties), since the watch's record lives in a hidden sheet any editor can change. A run whose
// record does not match what decides money (rows, brief, depth, fields, cadence, saver) does not start; a record that
// cannot be read at all (changed outside Sheet Scout: src/shared/storage/record-sheet.ts) starts nothing, and its
// panel and Signals header show the confirmed figures and why. Pure over the stores.
import type { KeyValueStore } from '../../ports';
import type { RecordStore } from '../../shared/storage/record-sheet';
import { fingerprint } from '../../shared/fingerprint';
import { counted } from '../spending/depth';
import type { WatchCadence, WatchDto } from '../contract';
import { savedRunProblem, type SavedRun } from '../spending/saved-runs';
import { runFacts } from '../spending/run-facts';
import type { Result } from '../../api/errors';
import type { User } from '../../api/types';
import { creditsPerMonth, SIGNALS_HEADER, WATCHES_KEY, type Watch } from './watch';

/** What the saver of a watch confirmed, kept where only the add-in writes (the document's properties). */
export interface WatchConfirmation {
  id: string;
  /** The watched sheet and the weekday of weekly runs (absent in confirmations of earlier versions). */
  sheetId?: number;
  weekday?: number;
  /** Who confirmed it (the account that pays) and when. */
  savedBy: string;
  confirmedAt: number;
  rows: number;
  creditsPerRun: number;
  cadence: WatchCadence;
  /** The fingerprint of what decides money in the record (watchTerms). */
  terms: string;
  paused: boolean;
  /** When a run last started (when its launch went out, however late it came), or null before the first. */
  lastStartedAt: number | null;
}

const CONFIRMATION_KEY_PREFIX = 'sheetscout.research.watch.';

/** The fingerprint of what decides a watch's cost and payer: rows, brief, depth, fields, cadence, saver. */
export function watchTerms(watch: Watch): string {
  const { sheetId, template, depth, schema, mapping, keyHeaders, rowKeys, cadence, weekday, savedBy, creditsPerRun } =
    watch;
  return fingerprint(
    JSON.stringify([
      sheetId,
      template,
      depth,
      schema,
      mapping,
      keyHeaders,
      rowKeys,
      cadence,
      weekday,
      savedBy,
      creditsPerRun,
    ]),
  );
}

export function confirmationOf(watch: Watch, paused: boolean, lastStartedAt: number | null): WatchConfirmation {
  return {
    id: watch.id,
    sheetId: watch.sheetId,
    weekday: watch.weekday,
    savedBy: watch.savedBy,
    confirmedAt: watch.confirmedAt,
    rows: watch.rowKeys.length,
    creditsPerRun: watch.creditsPerRun,
    cadence: watch.cadence,
    terms: watchTerms(watch),
    paused,
    lastStartedAt,
  };
}

export function readConfirmation(document: KeyValueStore, id: string): WatchConfirmation | null {
  try {
    const parsed = JSON.parse(document.get(CONFIRMATION_KEY_PREFIX + id) ?? 'null') as WatchConfirmation | null;
    return parsed && parsed.id === id ? parsed : null;
  } catch {
    return null;
  }
}

/** DocumentProperties: the ids of the confirmed watches (so they are known when their record cannot be read). */
const CONFIRMED_IDS_KEY = 'sheetscout.research.watchIds';

function confirmedIds(document: KeyValueStore): string[] {
  try {
    const parsed = JSON.parse(document.get(CONFIRMED_IDS_KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

export function writeConfirmation(document: KeyValueStore, confirmation: WatchConfirmation | null, id: string): void {
  const ids = confirmedIds(document);
  const nextIds = confirmation ? [...new Set([...ids, id])] : ids.filter((known) => known !== id);
  if (nextIds.length !== ids.length) document.set(CONFIRMED_IDS_KEY, JSON.stringify(nextIds));
  if (confirmation) document.set(CONFIRMATION_KEY_PREFIX + id, JSON.stringify(confirmation));
  else if (document.get(CONFIRMATION_KEY_PREFIX + id) !== null) document.remove(CONFIRMATION_KEY_PREFIX + id);
}

/**
 * The confirmed watches whose record cannot be read: the watches' record in the records sheet was changed, put back
 * from an older copy or deleted outside Sheet Scout (src/shared/storage/record-sheet.ts). None of them runs; their
 * panels and Signals headers say so with what was confirmed.
 */
export function unreadableWatches(records: RecordStore, document: KeyValueStore): WatchConfirmation[] {
  if (!records.changedOutside().includes(WATCHES_KEY)) return [];
  return confirmedIds(document).flatMap((id) => readConfirmation(document, id) ?? []);
}

/** Why a watch whose record cannot be read does not run (its confirmation's figures). */
export function unreadableText(confirmation: WatchConfirmation): string {
  return (
    `its record in the hidden "Sheet Scout records" sheet was changed outside Sheet Scout since ` +
    `${confirmation.savedBy} confirmed it (${counted(confirmation.rows, 'row')}, up to ${confirmation.creditsPerRun} ` +
    `credits a run); nothing was spent. ${confirmation.savedBy} can save the watch again in Research > Account watch`
  );
}

/**
 * Why a watch's record may not run as it stands (it does not match what its saver confirmed, or the confirmation says
 * it is paused or ran since), or null. `earliestNext`: the earliest time the confirmation allows the next run.
 */
export function confirmationProblem(
  watch: Watch,
  confirmation: WatchConfirmation | null,
  earliestNext: number | null,
  now: number,
): string | null {
  if (!confirmation)
    return 'no confirmation of this watch is kept (save it again in Research > Account watch to confirm its cost)';
  if (confirmation.terms !== watchTerms(watch) || confirmation.savedBy !== watch.savedBy)
    return (
      `its record in the hidden "Sheet Scout records" sheet was changed since ${confirmation.savedBy} confirmed it ` +
      `(${counted(confirmation.rows, 'row')}, up to ${confirmation.creditsPerRun} credits a run); nothing was spent. ${confirmation.savedBy} ` +
      'can save the watch again in Research > Account watch to confirm it'
    );
  if (confirmation.paused) return `${confirmation.savedBy}'s confirmation says it is paused`;
  if (earliestNext !== null && now < earliestNext) return 'a run already started this period';
  return null;
}

/** The watch as the panel shows it: its money figures and state from what its saver confirmed, when that is kept. */
export function watchDto(watch: Watch, confirmation: WatchConfirmation | null): WatchDto {
  const figures = confirmation ?? {
    rows: watch.rowKeys.length,
    creditsPerRun: watch.creditsPerRun,
    cadence: watch.cadence,
  };
  const paused = confirmation ? confirmation.paused : watch.status === 'paused';
  return {
    sheetId: watch.sheetId,
    sheetName: watch.sheetName,
    rows: figures.rows,
    cadence: figures.cadence,
    weekday: watch.weekday,
    status: paused ? 'paused' : 'active',
    nextRunAt: paused ? null : watch.nextRunAt,
    creditsPerRun: figures.creditsPerRun,
    creditsPerMonth: creditsPerMonth(figures.creditsPerRun, figures.cadence),
    signalsHeader: SIGNALS_HEADER,
    lastRun: watch.lastRun,
    unreachableSince: watch.unreachableSince ?? null,
    blocked: null,
  };
}

/** What a watch's run reserves and who pays it, as its saver confirmed (saved-runs.ts weighs it). */
export function watchRun(watch: Watch, confirmation: WatchConfirmation | null): SavedRun {
  return {
    what: `The account watch of "${watch.sheetName}"`,
    unit: 'run',
    credits: confirmation?.creditsPerRun ?? watch.creditsPerRun,
    payer: confirmation?.savedBy ?? watch.savedBy,
  };
}

/** A watch whose record cannot be read, as the panel shows it: what its saver confirmed, and why it does not run. */
export function confirmedDto(confirmation: WatchConfirmation, sheetName: string): WatchDto {
  return {
    sheetId: confirmation.sheetId ?? 0,
    sheetName,
    rows: confirmation.rows,
    cadence: confirmation.cadence,
    weekday: confirmation.weekday ?? 1,
    status: confirmation.paused ? 'paused' : 'active',
    nextRunAt: null,
    creditsPerRun: confirmation.creditsPerRun,
    creditsPerMonth: creditsPerMonth(confirmation.creditsPerRun, confirmation.cadence),
    signalsHeader: SIGNALS_HEADER,
    lastRun: {
      at: confirmation.lastStartedAt ?? confirmation.confirmedAt,
      text: `Not started: ${unreadableText(confirmation)}`,
    },
    unreachableSince: null,
    blocked: null,
  };
}

/**
 * The watch as the panel shows it, from what its saver confirmed (kept in the document's properties), with why its
 * runs cannot start when something stands in their way (`user`: the acting user's account, for their credits).
 */
export function shownWatch(document: KeyValueStore, watch: Watch, user: Result<User> | null): WatchDto {
  const confirmation = readConfirmation(document, watch.id);
  const dto = watchDto(watch, confirmation);
  if (dto.status !== 'active') return dto;
  return { ...dto, blocked: savedRunProblem(watchRun(watch, confirmation), runFacts(document, user)) };
}
