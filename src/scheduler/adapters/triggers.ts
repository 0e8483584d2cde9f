// Apps Script adapter of the shared timer: the trigger port over ScriptApp (the current user's triggers of this
// document: getProjectTriggers would also return the user's timers of every other document the add-on is used in, so
// it is only searched for the timer this document records, in case getUserTriggers(spreadsheet) does not list a bound
// script's time-driven triggers: Google does not say), the timer's deps for this execution (the cadence allowed by
// how the script runs, the user's lock, the spreadsheet's name and link), and the retirement of a timer Google ran
// without its spreadsheet.
import type { ClockPort, KeyValueStore, LockPort } from '../../ports';
import type { TimerDeps, TimerTriggerPort } from '../timer';
import { DOCUMENTLESS_KEY, TimerUnavailable } from '../timer-unavailable';
import { changeHolders, readHolders, withoutHolders, type TimerHolder } from '../timer-registry';
import { createLockPort } from '../../platform/lock';

/**
 * Google's refusals of one more trigger: 20 per user per script ("This script has too many triggers"), and for an
 * add-on one time-driven trigger per user per document ("... too many time-based triggers in this document ...").
 */
const TRIGGER_LIMIT = /too many (time-based )?triggers/i;

type Trigger = GoogleAppsScript.Script.Trigger;

function scriptTriggers(): TimerTriggerPort {
  // Listed once per execution (each list is a round trip of ~150 ms), then kept up to date with what it adds or removes.
  let listed: Trigger[] | null = null;
  const thisDocument = () => (listed ??= ScriptApp.getUserTriggers(SpreadsheetApp.getActive())).slice();
  /** This document's triggers of the user, and the recorded one wherever the user's triggers list it. */
  const find = (recordedId: string | null): Trigger[] => {
    const found = thisDocument();
    if (recordedId && !found.some((trigger) => trigger.getUniqueId() === recordedId)) {
      const recorded = ScriptApp.getProjectTriggers().find((trigger) => trigger.getUniqueId() === recordedId);
      if (recorded) found.push(recorded);
    }
    return found;
  };
  return {
    list: (handler, recordedId) =>
      find(recordedId)
        .filter((trigger) => trigger.getHandlerFunction() === handler)
        .map((trigger) => trigger.getUniqueId()),
    create: (handler, cadence) => {
      const builder = ScriptApp.newTrigger(handler).timeBased();
      try {
        const created = (cadence === 'minute' ? builder.everyMinutes(1) : builder.everyHours(1)).create();
        listed?.push(created);
        return created.getUniqueId();
      } catch (error) {
        const google = error instanceof Error ? error.message : String(error);
        throw new TimerUnavailable(TRIGGER_LIMIT.test(google) ? 'limit' : 'unsupported', google);
      }
    },
    remove: (id) => {
      for (const trigger of find(id)) if (trigger.getUniqueId() === id) ScriptApp.deleteTrigger(trigger);
      listed = listed?.filter((trigger) => trigger.getUniqueId() !== id) ?? null;
    },
    allIds: () => ScriptApp.getProjectTriggers().map((trigger) => trigger.getUniqueId()),
  };
}

/** The current user's lock (LockService.getUserLock: their executions in every document). */
export function userLock(): LockPort {
  return createLockPort(LockService.getUserLock());
}

/** The timer's deps: every minute for a script bound to the spreadsheet, hourly for a published add-on. */
export function appsScriptTimer(document: KeyValueStore, user: KeyValueStore, clock: ClockPort): TimerDeps {
  const bound = ScriptApp.getInstallationSource() === ScriptApp.InstallationSource.NONE;
  return {
    triggers: scriptTriggers(),
    document,
    user,
    userLock: userLock(),
    spreadsheet: () => {
      const spreadsheet = SpreadsheetApp.getActive();
      return { id: spreadsheet.getId(), name: spreadsheet.getName(), url: spreadsheet.getUrl() };
    },
    clock,
    cadence: bound ? 'minute' : 'hourly',
  };
}

/**
 * A timer Google ran without its spreadsheet can do nothing: it is removed (by the id its event carries), and the
 * user's properties note it, so the panels say so and no timer is made again for a while.
 */
export function retireDocumentlessTimer(user: KeyValueStore, clock: ClockPort, triggerUid: string | undefined): void {
  user.set(DOCUMENTLESS_KEY, String(clock.now()));
  const trigger = ScriptApp.getProjectTriggers().find((candidate) => candidate.getUniqueId() === triggerUid);
  if (trigger) ScriptApp.deleteTrigger(trigger);
  changeHolders(user, userLock(), (holders) => withoutHolders(holders, (holder) => holder.trigger === triggerUid));
}

/** The spreadsheets holding the user's timers, as the registry names them (those whose trigger still exists). */
export function timerHolders(user: KeyValueStore): TimerHolder[] {
  const existing = new Set(ScriptApp.getProjectTriggers().map((trigger) => trigger.getUniqueId()));
  return readHolders(user, true).filter((holder) => existing.has(holder.trigger));
}
