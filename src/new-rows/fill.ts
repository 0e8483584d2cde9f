// One check of a sheet that keeps enriching its new rows, as the shared timer runs it with every panel closed: the
// sheet read once (a list counted as it was last left needs nothing more: rows.ts), the new rows' domains looked up
// (lookups.ts, 0 credits), then under the document lock the sheet read again (a sort or an edit meanwhile moves
// nothing: rows are found by their domain text now), the fields written into the empty field cells of the new rows
// only (a cell with a value or a formula is the user's), the enrichment dates noted (so Keep data fresh refreshes
// them and keeps hand edits), and the list moved forward: filled rows join it, rows waiting for the service stay new
// until the next check (a day at most, then they get the enrichment's retry mark, which Enrich fills later).
import type { CachePort, ClockPort, KeyValueStore, LockPort } from '../ports';
import { parseDomain } from '../shared/domain/domain';
import { profileFieldByKey, type ProfileField } from '../companies/profile-fields';
import {
  isEmptyOrMark,
  setUpdate,
  locateColumns,
  outcomeCells,
  writtenFingerprint,
  type CellUpdates,
  type EnrichmentDates,
  type EnrichSheet,
  type LookupClient,
  type RowOutcome,
  type SheetAccess,
} from './enrichment-port';
import { countRows, digestOf, excessRows, pickNewRows, type RowCounts } from './rows';
import { readList, rowsIn, writeList, type ListRecord, type NewRowsSetting } from './state';
import { lookUpDomains, type CheckLookups } from './lookups';
import { writeRowUpdates } from './sheet-writes';

/** Rows the service leaves unanswered this long get the enrichment's retry mark and join the list. */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;
const LOCK_WAIT_MS = 10_000;

export interface CheckDeps {
  sheets: Pick<SheetAccess, 'byId'>;
  dates: EnrichmentDates;
  cache: CachePort;
  clock: ClockPort;
  lock: LockPort;
  client: () => LookupClient;
  /** The records sheet (the lists as counted). */
  records: KeyValueStore;
}

/** The sheet as read now: its grid and where its columns are, or why the check cannot work on it. */
type SheetRead = { values: unknown[][]; domainColumn: number; targets: number[] } | { problem: string };

function readSheet(sheet: EnrichSheet, setting: NewRowsSetting): SheetRead {
  if (sheet.targetProblem) return { problem: sheet.targetProblem };
  const values = sheet.readValues();
  const located = locateColumns(values[0] ?? [], setting.domainColumn, setting.domainHeader, setting.headers);
  if (!located.ok) return { problem: located.message };
  return { values, domainColumn: located.domainColumn, targets: located.targets };
}

/** The setting with the problem a check met (null: none), since when it was first met; unchanged, the same object. */
function withProblem(setting: NewRowsSetting, now: number, problem: string | null): NewRowsSetting {
  if ((setting.problem?.text ?? null) === problem) return setting;
  return { ...setting, problem: problem === null ? null : { text: problem, since: now } };
}

/** The domain a text holds, or null when it holds none. */
function domainOf(text: string): string | null {
  const parsed = parseDomain(text);
  return parsed.kind === 'domain' ? parsed.domain : null;
}

/**
 * Checks one sheet: the setting as it stands after the check (the same object when nothing changed), or null when the
 * sheet is gone (its setting goes too). `researchOwed`: research on new rows is on, so rows filled now are owed to it.
 */
export function checkSheet(
  deps: CheckDeps,
  setting: NewRowsSetting,
  deadline: number,
  researchOwed: boolean,
): NewRowsSetting | null {
  const now = deps.clock.now();
  const sheet = deps.sheets.byId(setting.sheetId);
  if (!sheet) return null;
  const first = readSheet(sheet, setting);
  if ('problem' in first) return withProblem(setting, now, first.problem);
  const counts = countRows(first.values, first.domainColumn);
  if (digestOf(counts) === setting.digest && setting.waiting === 0) return withProblem(setting, now, null);
  const checked = withProblem(setting, now, null);
  const list = readList(deps.records, setting.sheetId);
  if (!list) {
    // The hidden record of the list is gone: the rows here now are the list (nothing is filled, nothing is paid).
    writeList(deps.records, setting.sheetId, { known: counts, waiting: new Map(), owed: new Map() });
    return withProblem(
      { ...checked, digest: digestOf(counts), waiting: 0, owed: 0 },
      now,
      'Sheet Scout\'s record of this list was missing from its hidden "Sheet Scout records" sheet: the rows on the ' +
        'sheet now are taken as the list, and rows added from now on are filled.',
    );
  }
  const texts = [...excessRows(counts, list.known).keys()];
  const domains = [...new Set(texts.map(domainOf).filter((domain): domain is string => domain !== null))];
  const looked = lookUpDomains(deps, domains, deadline);
  if (!deps.lock.tryLock(LOCK_WAIT_MS)) return { ...checked, waiting: Math.max(1, setting.waiting) };
  try {
    const again = readSheet(sheet, setting);
    if ('problem' in again) return withProblem(checked, now, again.problem);
    return fillNewRows(deps, sheet, checked, again, list, looked, researchOwed);
  } finally {
    deps.lock.release();
  }
}

/** What a check wrote into the sheet and how the list moves forward. */
interface Filling {
  updates: CellUpdates;
  /** Domains whose profile (or "Not found") was written, with the fingerprints of the values (for the dates). */
  settled: Map<string, Record<string, string>>;
  filled: number;
  invalid: number;
  /** Rows still new after this check, per text, and since when each text waits. */
  pending: RowCounts;
  waiting: Map<string, number>;
  owed: RowCounts;
}

/** The outcome of a new row's domain: looked up now, or given up on after a day of waiting; undefined: wait more. */
function outcomeFor(domain: string, looked: CheckLookups, waitingSince: number, now: number): RowOutcome | undefined {
  const outcome = looked.outcomes.get(domain);
  if (outcome || now - waitingSince < GIVE_UP_AFTER_MS) return outcome;
  return looked.problem ? { kind: 'failed', message: looked.problem } : { kind: 'enriching' };
}

/** Plans the writes into the new rows of the sheet as read under the lock. */
function planFilling(
  read: { values: unknown[][]; domainColumn: number; targets: number[] },
  fields: ProfileField[],
  list: ListRecord,
  looked: CheckLookups,
  now: number,
  researchOwed: boolean,
): Filling {
  const counts = countRows(read.values, read.domainColumn);
  const picked = pickNewRows(read.values, read.domainColumn, read.targets, excessRows(counts, list.known));
  const filling: Filling = {
    updates: new Map(),
    settled: new Map(),
    filled: 0,
    invalid: 0,
    pending: new Map(),
    waiting: new Map(),
    owed: new Map(list.owed),
  };
  for (const [text, rows] of picked) {
    const domain = domainOf(text);
    if (domain === null) {
      filling.invalid += rows.length;
      continue;
    }
    const since = list.waiting.get(text) ?? now;
    const outcome = outcomeFor(domain, looked, since, now);
    if (!outcome) {
      filling.pending.set(text, rows.length);
      filling.waiting.set(text, since);
      continue;
    }
    const cells = outcomeCells(outcome, fields);
    // Only empty cells (or a retry mark) of the new rows: a value the user typed is kept.
    for (const index of rows)
      read.targets.forEach((column, i) => {
        if (isEmptyOrMark(read.values[index]?.[column - 1])) setUpdate(filling.updates, index, column, cells[i]);
      });
    if (outcome.kind === 'profile' || outcome.kind === 'not_found')
      filling.settled.set(
        domain,
        Object.fromEntries(fields.map((field, i) => [field.key, writtenFingerprint(cells[i])])),
      );
    filling.filled += rows.length;
    if (researchOwed) filling.owed.set(text, (filling.owed.get(text) ?? 0) + rows.length);
  }
  return filling;
}

function fillNewRows(
  deps: CheckDeps,
  sheet: EnrichSheet,
  checked: NewRowsSetting,
  read: { values: unknown[][]; domainColumn: number; targets: number[] },
  list: ListRecord,
  looked: CheckLookups,
  researchOwed: boolean,
): NewRowsSetting {
  const now = deps.clock.now();
  const fields = checked.fields
    .map((key) => profileFieldByKey(key))
    .filter((field): field is ProfileField => field !== undefined);
  const filling = planFilling(read, fields, list, looked, now, researchOwed);
  deps.dates.prepare();
  writeRowUpdates(sheet, filling.updates, read.targets);
  deps.dates.record(checked.sheetId, filling.settled, now);
  const known = countRows(read.values, read.domainColumn);
  for (const [text, rows] of filling.pending) known.set(text, (known.get(text) ?? 0) - rows);
  for (const [text, rows] of known) if (rows <= 0) known.delete(text);
  // Owed rows of texts no longer on the sheet (deleted since) are not owed any more.
  for (const [text, rows] of filling.owed) filling.owed.set(text, Math.min(rows, known.get(text) ?? 0));
  writeList(deps.records, checked.sheetId, { known, waiting: filling.waiting, owed: filling.owed });
  const waiting = [...filling.pending.values()].reduce((sum, rows) => sum + rows, 0);
  const added = filling.filled + filling.invalid + waiting;
  const found = { at: now, added, filled: filling.filled, waiting, invalid: filling.invalid };
  return {
    ...withProblem(checked, now, waiting > 0 ? looked.problem : null),
    digest: digestOf(known),
    waiting,
    owed: rowsIn(filling.owed),
    lastFound: added > 0 ? found : checked.lastFound,
    totals: {
      added: checked.totals.added + filling.filled + filling.invalid,
      filled: checked.totals.filled + filling.filled,
    },
  };
}
