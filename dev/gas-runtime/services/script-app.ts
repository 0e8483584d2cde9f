// ScriptApp: the project's installable triggers (time-driven and spreadsheet triggers, each owned by a user and
// belonging to the document it was created from, kept in state/trigger-registry.ts; 20 per user per script, Google's
// builder validation; with the `addOn` option also the add-on rules: one time-driven trigger per user per document,
// schedules at most hourly), getProjectTriggers (the user's triggers of every document) and getUserTriggers(document)
// (of that one), enums, and the rest of ScriptApp the add-on may touch (getScriptId, getOAuthToken,
// getAuthorizationInfo, getInstallationSource). Firing due triggers is the project's job (`triggers.fireDue()`); this module computes
// schedules.
import { GasError, Msg } from '../errors';
import { enumName, makeEnum } from '../realm';
import { zonedFields, zonedToEpoch } from '../spreadsheet/values';
import type { ServiceContext } from '../state/env';
import type { TriggerEventType, TriggerInfo } from '../state/trigger-registry';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const WEEKDAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'];

interface ClockSpec {
  intervalMs?: number;
  atMs?: number;
  hour?: number;
  minute?: number;
  weekDay?: number;
  timeZone?: string;
}

/** First run of a recurring daily/weekly trigger pinned to an hour: the next such wall time after `now`. */
function nextPinnedTime(now: number, spec: ClockSpec, timeZone: string): number {
  const f = zonedFields(now, timeZone);
  for (let dayOffset = 0; dayOffset <= 8; dayOffset++) {
    const candidate = zonedToEpoch(f.year, f.month, f.day + dayOffset, spec.hour ?? 0, spec.minute ?? 0, 0, timeZone);
    if (candidate <= now) continue;
    if (spec.weekDay !== undefined && zonedFields(candidate, timeZone).weekday !== spec.weekDay) continue;
    return candidate;
  }
  return now + (spec.intervalMs ?? DAY);
}

export function createScriptApp({ env, exec }: ServiceContext): Record<string, unknown> {
  const { realm } = exec;
  const AuthMode = makeEnum(realm, ['NONE', 'CUSTOM_FUNCTION', 'LIMITED', 'FULL']);
  const EventType = makeEnum(realm, ['CLOCK', 'ON_OPEN', 'ON_EDIT', 'ON_FORM_SUBMIT', 'ON_CHANGE', 'ON_EVENT_UPDATED']);
  const TriggerSource = makeEnum(realm, ['SPREADSHEETS', 'CLOCK', 'FORMS', 'DOCUMENTS', 'CALENDAR']);
  const WeekDay = makeEnum(realm, WEEKDAYS);
  const AuthorizationStatus = makeEnum(realm, ['REQUIRED', 'NOT_REQUIRED']);
  const InstallationSource = makeEnum(realm, ['APPS_MARKETPLACE_DOMAIN_ADD_ON', 'NONE', 'WEB_STORE_ADD_ON']);

  const Trigger = exec.define<{ id: string }>('Trigger', {
    getUniqueId() {
      return this.id;
    },
    getHandlerFunction() {
      return env.triggers.record(this.id)?.handler ?? '';
    },
    getEventType() {
      const t = env.triggers.record(this.id);
      return t ? EventType[t.eventType] : null;
    },
    getTriggerSource() {
      const t = env.triggers.record(this.id);
      return t ? TriggerSource[t.source] : null;
    },
    getTriggerSourceId() {
      return env.triggers.record(this.id)?.sourceId ?? null;
    },
  });
  const wrapTrigger = (info: TriggerInfo) => Trigger.wrap({ id: info.id });

  const ClockBuilder = exec.define<{ handler: string; spec: ClockSpec; facade?: object }>('ClockTriggerBuilder', {
    everyMinutes(n: number) {
      if (![1, 5, 10, 15, 30].includes(Number(n))) throw new GasError(Msg.everyMinutesInvalid);
      // An add-on's time-driven triggers run at most once per hour.
      this.spec.intervalMs = env.addOn ? Math.max(HOUR, Number(n) * MINUTE) : Number(n) * MINUTE;
      return this.facade;
    },
    everyHours(n: number) {
      if (![1, 2, 4, 6, 8, 12].includes(Number(n))) throw new GasError(Msg.everyHoursInvalid);
      this.spec.intervalMs = Number(n) * HOUR;
      return this.facade;
    },
    everyDays(n: number) {
      if (!(Number(n) >= 1)) throw new GasError(Msg.invalidArgument('days'));
      this.spec.intervalMs = Number(n) * DAY;
      return this.facade;
    },
    everyWeeks(n: number) {
      if (!(Number(n) >= 1)) throw new GasError(Msg.invalidArgument('weeks'));
      this.spec.intervalMs = Number(n) * WEEK;
      return this.facade;
    },
    atHour(hour: number) {
      if (!(Number(hour) >= 0 && Number(hour) <= 23)) throw new GasError(Msg.invalidArgument('hour'));
      this.spec.hour = Number(hour);
      return this.facade;
    },
    nearMinute(minute: number) {
      this.spec.minute = Math.max(0, Math.min(59, Number(minute)));
      return this.facade;
    },
    onWeekDay(day: unknown) {
      this.spec.weekDay = WEEKDAYS.indexOf(enumName(day));
      this.spec.intervalMs ??= WEEK;
      return this.facade;
    },
    inTimezone(timeZone: string) {
      this.spec.timeZone = String(timeZone);
      return this.facade;
    },
    after(durationMillis: number) {
      const delay = Math.max(0, Number(durationMillis));
      this.spec.atMs = env.clock.now() + (env.addOn ? Math.max(HOUR, delay) : delay);
      return this.facade;
    },
    at(date: Date) {
      this.spec.atMs = new Date(date as Date).getTime();
      return this.facade;
    },
    create() {
      exec.require('triggers', 'ClockTriggerBuilder', 'create');
      if (env.behaviours.installableTriggers === 'refused') throw new GasError(Msg.testDeploymentTriggers);
      const { spec } = this;
      const now = env.clock.now();
      let nextRunAt: number;
      if (spec.atMs !== undefined) nextRunAt = spec.atMs;
      else if (spec.intervalMs === undefined) throw new GasError(Msg.triggerIncomplete);
      else if (spec.hour !== undefined || spec.weekDay !== undefined)
        nextRunAt = nextPinnedTime(now, spec, spec.timeZone ?? env.timeZone);
      else nextRunAt = now + spec.intervalMs;
      const documentId = env.spreadsheet.id;
      if (
        env.addOn &&
        env.triggers.list().some((t) => t.owner === exec.user && t.eventType === 'CLOCK' && t.documentId === documentId)
      ) {
        throw new GasError(Msg.addOnTooManyClockTriggers);
      }
      const info = env.triggers.add(
        {
          handler: this.handler,
          owner: exec.user,
          eventType: 'CLOCK',
          source: 'CLOCK',
          sourceId: '',
          documentId,
          intervalMs: spec.atMs !== undefined ? undefined : spec.intervalMs,
          nextRunAt,
          oneShot: spec.atMs !== undefined,
        },
        env.limits.triggersPerUser,
      );
      return wrapTrigger(info);
    },
  });

  /** Spreadsheet id behind a Spreadsheet object of this execution (the arguments of forSpreadsheet/getUserTriggers). */
  const spreadsheetIdOf = (spreadsheet: unknown, method: string): string => {
    const impl = exec.unwrap<{ model: { id: string } }>('Spreadsheet', spreadsheet);
    if (!impl) throw new GasError(Msg.invalidArgument(method));
    return impl.model.id;
  };

  type SheetBuilderImpl = { handler: string; spreadsheetId: string; eventType?: TriggerEventType; facade?: object };
  const SheetBuilder = exec.define<SheetBuilderImpl>('SpreadsheetTriggerBuilder', {
    onOpen() {
      this.eventType = 'ON_OPEN';
      return this.facade;
    },
    onEdit() {
      this.eventType = 'ON_EDIT';
      return this.facade;
    },
    onChange() {
      this.eventType = 'ON_CHANGE';
      return this.facade;
    },
    onFormSubmit() {
      this.eventType = 'ON_FORM_SUBMIT';
      return this.facade;
    },
    create() {
      exec.require('triggers', 'SpreadsheetTriggerBuilder', 'create');
      if (env.behaviours.installableTriggers === 'refused') throw new GasError(Msg.testDeploymentTriggers);
      if (!this.eventType) throw new GasError(Msg.triggerIncomplete);
      const info = env.triggers.add(
        {
          handler: this.handler,
          owner: exec.user,
          eventType: this.eventType,
          source: 'SPREADSHEETS',
          sourceId: this.spreadsheetId,
          documentId: this.spreadsheetId,
          oneShot: false,
        },
        env.limits.triggersPerUser,
      );
      return wrapTrigger(info);
    },
  });

  const TriggerBuilder = exec.define<{ handler: string }>('TriggerBuilder', {
    timeBased() {
      const impl: { handler: string; spec: ClockSpec; facade?: object } = { handler: this.handler, spec: {} };
      impl.facade = ClockBuilder.wrap(impl);
      return impl.facade;
    },
    forSpreadsheet(spreadsheet: unknown) {
      const impl: SheetBuilderImpl = {
        handler: this.handler,
        spreadsheetId: spreadsheetIdOf(spreadsheet, 'forSpreadsheet'),
      };
      impl.facade = SheetBuilder.wrap(impl);
      return impl.facade;
    },
  });

  // REQUIRED for FULL while the user has not granted a scope a newer version added (project.addScopes), with the URL
  // of Google's consent for the script; NOT_REQUIRED (and no URL) once they have, and for the other modes.
  const AuthorizationInfo = exec.define<{ required: boolean }>('AuthorizationInfo', {
    getAuthorizationStatus() {
      return this.required ? AuthorizationStatus.REQUIRED : AuthorizationStatus.NOT_REQUIRED;
    },
    getAuthorizationUrl() {
      return this.required ? `https://script.google.com/macros/d/${env.scriptId}/authorize` : null;
    },
    getAuthorizedScopes() {
      return [];
    },
  });

  const ownTriggers = () => env.triggers.list().filter((t) => t.owner === exec.user);
  const Service = exec.define<object>('ScriptApp', {
    newTrigger(functionName: string) {
      exec.require('triggers', 'ScriptApp', 'newTrigger');
      return TriggerBuilder.wrap({ handler: String(functionName) });
    },
    /** The current user's triggers of the whole project: for an add-on, of every document the user uses it in. */
    getProjectTriggers() {
      exec.require('triggers', 'ScriptApp', 'getProjectTriggers');
      return ownTriggers().map(wrapTrigger);
    },
    /** The current user's triggers of one document (time-driven ones created from it, spreadsheet triggers on it). */
    getUserTriggers(document: unknown) {
      exec.require('triggers', 'ScriptApp', 'getUserTriggers');
      const documentId = spreadsheetIdOf(document, 'getUserTriggers');
      // Whether a bound script's time-driven triggers are listed is not documented (behaviours option).
      const clocks = env.addOn || env.behaviours.userTriggersListTimeDriven;
      return ownTriggers()
        .filter((t) => t.documentId === documentId && (clocks || t.eventType !== 'CLOCK'))
        .map(wrapTrigger);
    },
    deleteTrigger(trigger: unknown) {
      exec.require('triggers', 'ScriptApp', 'deleteTrigger');
      const impl = Trigger.unwrap(trigger);
      if (!impl) throw new GasError(Msg.invalidArgument('trigger'));
      const record = env.triggers.record(impl.id);
      if (record && record.owner === exec.user) env.triggers.remove(impl.id);
    },
    getScriptId() {
      return env.scriptId;
    },
    getOAuthToken() {
      return `ya29.emulated-${exec.user}`;
    },
    getAuthorizationInfo(authMode: unknown) {
      return AuthorizationInfo.wrap({ required: enumName(authMode) === 'FULL' && exec.ungrantedScopes.size > 0 });
    },
    getInstallationSource() {
      // A bound script is not an add-on (NONE); a published add-on here is one the user installed from the Marketplace.
      return env.addOn ? InstallationSource.WEB_STORE_ADD_ON : InstallationSource.NONE;
    },
    requireScopes() {
      return undefined;
    },
    requireAllScopes() {
      return undefined;
    },
  });
  return Service.wrap({}, { AuthMode, EventType, TriggerSource, WeekDay, AuthorizationStatus, InstallationSource });
}
