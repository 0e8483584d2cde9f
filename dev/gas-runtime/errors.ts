// Error messages of Google's Apps Script services, in one place, and the host-side error classes of the
// emulator. Service implementations throw `GasError`; the execution layer turns it into an error of the
// bundle's own realm (name `Exception`, so `String(e)` reads "Exception: <message>" as in Apps Script).
// Wordings come from Google's docs and from error texts quoted in public issues (see README.md).

/** Thrown by service implementations; becomes a context-realm `Exception` inside the bundle. */
export class GasError extends Error {
  constructor(
    message: string,
    readonly gasName: string = 'Exception',
  ) {
    super(message);
    this.name = 'GasError';
  }
}

/** What a host caller of `runtime.run` receives when the execution failed. */
export class GasExecutionError extends Error {
  constructor(
    message: string,
    /** `name` of the error thrown inside the bundle (`Exception`, `TypeError`, ...). */
    readonly gasName: string,
    /** Stack of the error inside the bundle, when it had one. */
    readonly gasStack: string | undefined,
    /** True when the execution was stopped for exceeding its time limit (or `killAtServiceCall`). */
    readonly timedOut = false,
  ) {
    super(message);
    this.name = 'GasExecutionError';
  }
}

export const Msg = {
  exceededTime: 'Exceeded maximum execution time',
  /** A trigger's call of a service the user has not authorized (a newer version needs more): the field's wording. */
  authorizationRequired: 'Authorization is required to perform that action.',
  scriptFunctionNotFound: (name: string) => `Script function not found: ${name}`,
  noPermission: (what: string) => `You do not have permission to call ${what}`,
  noPermissionScope: (what: string, scope: string) =>
    `You do not have permission to call ${what}. Required permissions: ${scope}`,
  uiContext: 'Cannot call SpreadsheetApp.getUi() from this context.',

  // SpreadsheetApp
  rowsMismatch: (data: number, range: number) =>
    `The number of rows in the data does not match the number of rows in the range. The data has ${data} but the range has ${range}.`,
  columnsMismatch: (data: number, range: number) =>
    `The number of columns in the data does not match the number of columns in the range. The data has ${data} but the range has ${range}.`,
  cellTooLong: 'Your input contains more than the maximum of 50000 characters in a single cell.',
  rangeNotFound: 'Range not found',
  outsideSheet: 'The coordinates of the range are outside the dimensions of the sheet.',
  /** Growing a spreadsheet past its cell limit (wording from field reports; the limit from Google's Drive help). */
  cellLimit: (limit: number) =>
    `This action would increase the number of cells in the workbook above the limit of ${limit} cells.`,
  startRowTooSmall: 'The starting row of the range is too small.',
  startColumnTooSmall: 'The starting column of the range is too small.',
  rowsAtLeastOne: 'The number of rows in the range must be at least 1.',
  columnsAtLeastOne: 'The number of columns in the range must be at least 1.',
  sheetNameExists: (name: string) => `A sheet with the name "${name}" already exists. Please enter another name.`,
  deleteAllRows: 'Sorry, it is not possible to delete all non-frozen rows.',
  deleteAllColumns: 'Sorry, it is not possible to delete all non-frozen columns.',
  deleteOnlySheet: "You can't remove all the sheets in a document.",
  metadataArbitraryRange:
    'Adding developer metadata to arbitrary ranges is not currently supported. Developer metadata may only be added to the top-level spreadsheet, an individual sheet, or an entire row or column.',
  /** Wording chosen here: Google documents the limit, not the message (unconfirmed). */
  metadataSheetLimit: (sheet: string, limit: number) =>
    `Developer metadata storage limit exceeded: sheet "${sheet}" would hold more than ${limit} characters of developer metadata.`,
  /** Wording chosen here (unconfirmed), as metadataSheetLimit. */
  metadataSpreadsheetLimit: (limit: number) =>
    `Developer metadata storage limit exceeded: the spreadsheet would hold more than ${limit} characters of developer metadata.`,
  openByIdFailed: 'Unexpected error while getting the method or property openById on object SpreadsheetApp.',
  invalidArgument: (what: string) => `Invalid argument: ${what}`,
  richTextLinkRange: 'The start and end offsets must be within the text.',
  sortColumnOutside: 'The specified column is outside of the range.',

  // UrlFetchApp
  requestFailed: (origin: string, code: number, truncated: string) =>
    `Request failed for ${origin} returned code ${code}. Truncated server response: ${truncated} (use muteHttpExceptions option to examine full response)`,
  urlFetchQuota: 'Service invoked too many times for one day: urlfetch.',
  addressUnavailable: (url: string) => `Address unavailable: ${url}`,
  dnsError: (url: string) => `DNS error: ${url}`,
  timeout: (url: string) => `Timeout: ${url}`,
  urlTooLong: 'Limit Exceeded: URLFetch URL Length.',

  // Properties / Cache / Lock
  argumentTooLarge: (what: 'key' | 'value') => `Argument too large: ${what}`,
  propertyQuota: 'You have exceeded the property storage quota. Please remove some properties and try again.',
  lockTimeout: 'Lock timeout: another process was holding the lock for too long.',
  /** The daily Properties read/write quota: the urlfetch message's pattern for this service (unconfirmed). */
  propertiesQuota: 'Service invoked too many times for one day: properties.',

  // Daily trigger runtime and simultaneous executions
  /** Failure of a trigger once the user's daily trigger runtime is used (quoted in Apps Script failure emails). */
  triggerRuntimeQuota: 'Service using too much computer time for one day',
  /** The 31st execution of one user at the same time (wording reported by developers; unconfirmed). */
  tooManySimultaneous: 'There are too many scripts running simultaneously for this Google user account.',

  // ScriptApp
  tooManyTriggers:
    'This script has too many triggers. Triggers must be deleted from the script before more can be added.',
  everyMinutesInvalid: 'The value you passed to everyMinutes was invalid. It must be one of 1, 5, 10, 15 or 30.',
  everyHoursInvalid: 'The value you passed to everyHours was invalid. It must be one of 1, 2, 4, 6, 8 or 12.',
  triggerIncomplete: 'The trigger is not complete. Please call one of the time-based or event-based methods first.',
  /** A test deployment refusing an installable trigger (the behaviours option; Google's wording is not known). */
  testDeploymentTriggers: 'Installable triggers are not supported in test deployments of an add-on.',
  /** Add-on mode: a second time-driven trigger for the same user and document (wording from real error reports). */
  addOnTooManyClockTriggers:
    'This add-on has created too many time-based triggers in this document for this Google user account.',

  // HtmlService
  noHtmlFile: (name: string) => `No HTML file named ${name} was found.`,

  // Utilities
  sleepTooLong: 'Sleep time must be between 0 and 300000 milliseconds.',

  // google.script.run
  illegalRpcValue: (path: string) => `Failed due to illegal value in property: ${path}`,
} as const;
