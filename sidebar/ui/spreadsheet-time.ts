// Times of the spreadsheet's clock as panels show them: a schedule runs in the spreadsheet's time zone, not the
// browser's ("Wed, Dec 2, 06:00 AM").

export function inSpreadsheetZone(ms: number, timeZone: string): string {
  return new Date(ms).toLocaleString(undefined, {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
}
