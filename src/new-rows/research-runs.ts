// Research on new rows as the shared timer launches it (research.ts holds the rules): rows a check filled are owed to
// research; the timer of the editor who confirmed it (their account pays) launches them, under the document lock, as
// any launch goes (src/research/launch.ts: records first, the spending cap checked against the ledger and the spend
// journal, rows the cap has no room for left out), within what the month's limit has left. The month's reservations
// are counted before anything is sent (every row at its full reservation) and brought down to what was launched
// after: a run cut short counts too much, never too little, and its rows are not owed again (a row never pays twice;
// its research is then launched from the Research panel). Another editor's timer fills the rows and leaves them owed.
import { researchContext, restoreSaversTimer, withLock, type Research } from '../research/context';
import { launchPaidBy, timerLaunchProblem } from '../research/launch/paid-launch';
import { capCalendar } from '../research/spending/calendar';
import { isUnreachable, userMessage } from '../api/errors';
import { myTimers } from '../scheduler/timer';
import { formatInSpreadsheetZone } from '../platform/spreadsheet';
import { locateColumns } from './enrichment-port';
import { domainText, type RowCounts } from './rows';
import {
  readList,
  readSetting,
  readSettings,
  readSpent,
  writeList,
  writeSetting,
  writeSpent,
  type NewRowsSetting,
} from './state';
import { launchText, reservedIn, rowsLeftThisMonth, spendMore, type NewRowsResearch } from './research';
import type { NewRowsDeps } from './context';

/** A launch for new rows may take this long of the timer's slice (creates left over are sent by research's ticks). */
const LAUNCH_MS = 60_000;
const LOCK_WAIT_MS = 10_000;

/** The owed rows (1-based) as the sheet holds them now: rows of each owed text without a research status yet. */
function owedRows(deps: NewRowsDeps, setting: NewRowsSetting, research: NewRowsResearch, owed: RowCounts): number[] {
  const sheet = deps.sheets.byId(setting.sheetId);
  if (!sheet) return [];
  const values = sheet.readValues();
  const header = values[0] ?? [];
  const located = locateColumns(header, setting.domainColumn, setting.domainHeader, setting.headers);
  if (!located.ok) return [];
  const status = header.findIndex((cell) => String(cell).trim() === research.mapping.statusHeader) + 1;
  const left = new Map(owed);
  const rows: number[] = [];
  for (let index = values.length - 1; index >= 1; index--) {
    const text = domainText(values[index][located.domainColumn - 1]);
    const want = left.get(text) ?? 0;
    if (want === 0 || (status > 0 && String(values[index][status - 1] ?? '') !== '')) continue;
    left.set(text, want - 1);
    rows.push(index + 1);
  }
  return rows.sort((a, b) => a - b);
}

/** Saves the sheet's research figures (its last run, the month's reservations) in the settings as stored now. */
function saveResearch(deps: NewRowsDeps, sheetId: number, change: (setting: NewRowsSetting) => NewRowsSetting): void {
  const current = readSetting(deps.store, sheetId);
  if (current) writeSetting(deps.store, sheetId, change(current));
}

const noted = (text: string, at: number) => (setting: NewRowsSetting) =>
  setting.research ? { ...setting, research: { ...setting.research, lastRun: { at, text } } } : setting;

/** Launches what research owes the sheet's new rows, when this timer is its payer's; the line its last run shows. */
export function launchOwedResearch(deps: NewRowsDeps, sheetId: number, budgetMs: number): void {
  const setting = readSetting(deps.store, sheetId);
  const research = setting?.research;
  if (!setting || !research || setting.owed === 0) return;
  // Paid from the account that confirmed it: only its own timer launches (another editor's fills and leaves it owed).
  if (research.timer !== null && !myTimers(deps.timer).includes(research.timer)) return;
  const r = researchContext(budgetMs);
  const now = r.context.clock.now();
  const user = r.deps.client.getUser();
  const waitText = (why: string) =>
    withLock(
      r,
      LOCK_WAIT_MS,
      () => undefined,
      () => saveResearch(deps, sheetId, noted(why, now)),
    );
  if (!user.ok)
    return waitText(
      isUnreachable(user.error)
        ? `Service unavailable since ${formatInSpreadsheetZone(now, 'EEE HH:mm')}: new rows wait, trying again hourly`
        : `Waiting: ${userMessage(user.error)}`,
    );
  if (user.value.email !== research.savedBy)
    return waitText(
      `Waiting: research on new rows is paid from ${research.savedBy}, who saved it, and this timer's token is ` +
        `${user.value.email}'s (${research.savedBy} can save it again in Enrich > Keep enriching new rows)`,
    );
  withLock(
    r,
    LOCK_WAIT_MS,
    () => undefined,
    () => launchUnderLock(deps, r, sheetId, user.value.available_credits, Math.min(budgetMs, LAUNCH_MS)),
  );
}

function launchUnderLock(deps: NewRowsDeps, r: Research, sheetId: number, credits: number, budgetMs: number): void {
  // Read again under the lock: another execution may have launched them or changed the opt-in.
  const setting = readSetting(deps.store, sheetId);
  const research = setting?.research;
  const list = readList(deps.records, sheetId);
  if (!setting || !research) return;
  if (!list || list.owed.size === 0) return saveResearch(deps, sheetId, (current) => ({ ...current, owed: 0 }));
  const now = r.context.clock.now();
  const month = capCalendar(r.document).month(now);
  const rows = owedRows(deps, setting, research, list.owed);
  if (rows.length === 0) {
    writeList(deps.records, sheetId, { ...list, owed: new Map() });
    return saveResearch(deps, sheetId, (current) => ({ ...current, owed: 0 }));
  }
  const spent = readSpent(deps.store, sheetId);
  const take = rows.slice(0, rowsLeftThisMonth(research, reservedIn(spent, month)));
  // Counted and no longer owed before anything is sent.
  writeSpent(deps.store, sheetId, spendMore(spent, month, take.length * research.creditsPerRow));
  writeList(deps.records, sheetId, { ...list, owed: new Map() });
  saveResearch(deps, sheetId, (current) => ({ ...current, owed: 0 }));
  let launched = 0;
  let refused: string | null = null;
  if (take.length > 0) {
    const outcome = launchPaidBy(
      r,
      research.savedBy,
      {
        sheetId,
        rows: take,
        template: research.template,
        depth: research.depth,
        schema: research.schema,
        mapping: research.mapping,
        rerun: false,
        again: false,
        outputHeaders: research.headers,
      },
      {
        deadline: now + budgetMs,
        availableCredits: credits,
        reservationPerTask: research.creditsPerRow,
        fitToCap: true,
        canFinish: (plan) => timerLaunchProblem(r, plan),
        // Listed in the spending history as research on new rows, started by the editor who confirmed it.
        run: 'new-rows',
      },
    );
    launched = outcome.entries.length;
    refused = outcome.refused?.split('\n')[0] ?? (outcome.overCap.length > 0 ? capLeftOut(outcome.overCap) : null);
  }
  const text = launchText(launched, rows.length - take.length, refused);
  writeSpent(deps.store, sheetId, spendMore(spent, month, launched * research.creditsPerRow));
  saveResearch(deps, sheetId, noted(text, now));
}

/**
 * Research on new rows is launched only from its payer's timer: when the payer opens the panel and that timer is gone
 * (deleted, or never made), it is made again under the lock. One request (who the token is), only when research on
 * new rows exists whose timer is not this user's. What the panel says when no timer can be made, or null.
 */
export function restoreResearchTimer(deps: NewRowsDeps): string | null {
  const mine = myTimers(deps.timer);
  const orphaned = readSettings(deps.store).filter(
    (setting) => setting.research && !(setting.research.timer && mine.includes(setting.research.timer)),
  );
  const problem = restoreSaversTimer(
    () => researchContext(),
    'newRows',
    orphaned,
    (setting) => setting.research?.savedBy,
    (own, timer) => {
      for (const { sheetId } of own) {
        const setting = readSetting(deps.store, sheetId);
        if (setting?.research)
          writeSetting(deps.store, sheetId, { ...setting, research: { ...setting.research, timer } });
      }
    },
  );
  return problem?.message ?? null;
}

const capLeftOut = (rows: number[]) =>
  `${rows.length} row${rows.length === 1 ? '' : 's'} left out by this spreadsheet's research spending cap`;
