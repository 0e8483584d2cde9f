// The shared timer's slice for new rows (src/scheduler runs it when it is due: at every tick of the hourly timer of a
// published add-on, every 45 minutes with a bound script's minute timer, at once while rows wait for the service or
// research owes rows), with every panel closed: each sheet is checked and its new rows filled (fill.ts); the settings
// of the sheets whose check changed something are saved under the document lock on what is stored then (a panel may
// have turned a sheet off or changed its research meanwhile: only what the check owns is written, and only that
// sheet's values); then research on new rows is launched where this timer is its payer's (research-runs.ts), unless
// the timer's collection of research failed in this run (then it stays owed). Pending while any sheet has it on.
import { isPending } from '../scheduler/timer';
import { newRowsContext, type NewRowsDeps } from './context';
import { checkSheet } from './fill';
import { readSetting, readSettings, settingsWake, writeCheckedAt, writeSetting, type NewRowsSetting } from './state';
import { launchOwedResearch } from './research-runs';

/** Kept of the slice for the last writes after the lookups (their deadline). */
const FINISH_MS = 15_000;
const LOCK_WAIT_MS = 10_000;

/** The checks' results, saved onto the settings as stored now: a sheet turned off or on again meanwhile is left. */
function saveChecks(deps: NewRowsDeps, checks: Array<{ before: NewRowsSetting; after: NewRowsSetting | null }>) {
  if (!deps.lock.tryLock(LOCK_WAIT_MS)) return;
  try {
    for (const { before, after } of checks) {
      const current = readSetting(deps.store, before.sheetId);
      if (!current || current.since !== before.since) continue;
      writeSetting(deps.store, before.sheetId, after && { ...after, research: current.research });
    }
  } finally {
    deps.lock.release();
  }
}

export function newRowsTimerSlice(
  budgetMs: number,
  run: { paidWork: boolean } = { paidWork: true },
): { pending: boolean; wakeAt?: number; heldBack?: boolean } {
  const deps = newRowsContext();
  if (!isPending(deps.timer, 'newRows')) return { pending: false };
  const started = deps.clock.now();
  const settings = readSettings(deps.store);
  if (settings.length === 0) return { pending: false };
  const deadline = started + Math.max(0, budgetMs - FINISH_MS);
  const checks: Array<{ before: NewRowsSetting; after: NewRowsSetting | null }> = [];
  for (const setting of settings) {
    if (deps.clock.now() >= deadline) break;
    checks.push({ before: setting, after: checkSheet(deps, setting, deadline, setting.research !== null) });
  }
  // A check that found the sheet as it left it changes nothing: only when it did are the settings written.
  const changed = checks.filter(({ before, after }) => after !== before);
  if (changed.length > 0) saveChecks(deps, changed);
  writeCheckedAt(deps.store, started);
  const owed = readSettings(deps.store).filter((setting) => setting.research && setting.owed > 0);
  // Research owed to new rows is launched only when the timer could collect what it pays for (else it stays owed).
  if (run.paidWork)
    for (const setting of owed)
      launchOwedResearch(deps, setting.sheetId, Math.max(0, started + budgetMs - deps.clock.now()));
  const after = readSettings(deps.store);
  // Sheets the time did not reach are checked at the next run.
  const wake = checks.length < settings.length ? null : settingsWake(after, started);
  const heldBack = !run.paidWork && owed.length > 0;
  return wake === undefined ? { pending: false } : { pending: true, wakeAt: wake ?? undefined, heldBack };
}
