// Builds the digest's ports for one execution from the app context (the timer's slice, Settings' calls); the outbox of
// the watch's signals it reads is research's too (src/shared/storage/digest-outbox.ts).
import { appContext } from '../platform/app-context';
import { appsScriptTimer } from '../scheduler/adapters/triggers';
import { sheetNamesById } from '../spending-history/adapters/sheets';
import { activeSpreadsheet, formatInSpreadsheetZone, spreadsheetTimeZone } from '../platform/spreadsheet';
import { newId } from '../platform/ids';
import { REFRESH_CHANGES_SHEET } from '../shared/storage/internal-sheets';
import { ChangeLog, CHANGE_LOG_HEADERS } from '../enrichment/refresh/change-log';
import { localTime } from '../enrichment/refresh/schedule-service';
import { SpendingHistory } from '../spending-history/history';
import { userMessage } from '../api/errors';
import { digestOutbox } from '../shared/storage/digest-outbox';
import type { DigestPorts } from './ports';
import { periodActivity } from './activity';

export function digestContext(): DigestPorts {
  const context = appContext();
  const document = context.documentStore();
  const spreadsheet = activeSpreadsheet();
  const now = () => context.clock.now();
  let names: Map<number, string> | null = null;
  return {
    document,
    user: context.stores.user,
    clock: context.clock,
    http: context.http,
    lock: context.documentLock(),
    timer: appsScriptTimer(document, context.stores.user, context.clock),
    spreadsheet: () => ({ id: spreadsheet.getId(), name: spreadsheet.getName(), url: spreadsheet.getUrl() }),
    sheetName: (sheetId) => (names ??= sheetNamesById()).get(sheetId) ?? '',
    format: (ms, pattern) => formatInSpreadsheetZone(ms, pattern),
    local: localTime,
    outbox: digestOutbox(context.hiddenTable, document, now),
    changes: (since) =>
      new ChangeLog(context.hiddenTable(REFRESH_CHANGES_SHEET, CHANGE_LOG_HEADERS)).changedAfter(since),
    runs: (since, ids) =>
      new SpendingHistory(document, now)
        .list()
        .runs.filter((run) => (run.at > since && run.at <= now()) || ids.includes(run.id)),
    activity: (since, counted) =>
      periodActivity({ document, records: context.documentRecords().records }, since, now(), counted),
    whoAmI: () => {
      const user = context.userClient().getUser();
      return user.ok ? { email: user.value.email } : { problem: userMessage(user.error) };
    },
    newId,
    timeZone: spreadsheetTimeZone,
  };
}
