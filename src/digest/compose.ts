// The digest's text: the spreadsheet named with a link, each sheet's rows that changed and how (the account watch's
// Signals, the refresh's changed cells, one line per row), the period's other work (rows "Keep enriching new rows"
// filled, runs that did nothing and why: activity.ts) and what the period's runs cost, from the spending history (the
// credits each reserved, was charged and was given back: the service's own figures). Slack's and Google Chat's markup
// are alike (*bold*, <url|label> links, "•" lines). A digest is held to DIGEST_CHARS, measured as posted (UTF-16
// units, after escaping): Slack advises keeping a message's text under 4,000 characters (it cuts one past 40,000) and
// Google Chat takes at most 32,000 bytes, which 3,500 units are at any UTF-8 width. Every part is bounded whatever
// the names: the spreadsheet's name, each sheet's, each line are clipped (text.ts: by code points, after escaping);
// what does not fit is counted, never dropped: a sheet's rows ("…and 62 more changed rows in Accounts"), the sheets
// whose heading has no room ("…and 40 more sheets with 300 changed rows"), runs and other work past the first few.
// Rows fill the room in turns, one of each sheet at a time, so every sheet shown is shown with rows. Pure.
import type { SpendingRun } from '../spending-history/history';
import { RUN_KIND_LABELS } from '../spending-history/contract';
import type { WebhookService } from './webhook';
import type { SignalItem } from '../shared/storage/digest-outbox';
import type { LoggedChange } from '../enrichment/refresh/change-log';
import type { FilledRows, IdleKind, IdleRun } from './activity';
import { clipEscaped, escapeFor } from './text';

/** Service text made inert for the service's markup (text.ts; the scale benchmark compares the cells with it). */
export { escapeFor };

export const DIGEST_CHARS = 3_500;
const NAME_UNITS = 100;
const SHEET_UNITS = 60;
const WHO_UNITS = 60;
const TIME_UNITS = 40;
const LINE_UNITS = 280;
const VALUE_UNITS = 60;
/** Runs, sheets of new rows and runs that did nothing listed one by one; the rest are summed on one line each. */
const LISTED = 5;
/** A link to the spreadsheet (Google's own address; anything else is named without a link). */
const SPREADSHEET_URL = /^https:\/\/docs\.google\.com\/[A-Za-z0-9/_?=&.-]{1,200}$/;

/** One cell a refresh changed, as its change log keeps it (when it changed aside). */
export type RefreshChange = Omit<LoggedChange, 'at'>;

/** A run of the spending history started in the period, as the digest sums it up. */
export type RunCost = Omit<SpendingRun, 'id' | 'unknown' | 'lost' | 'reused'>;

export interface DigestInput {
  service: WebhookService;
  spreadsheet: { name: string; url: string };
  sheetName: (sheetId: number) => string;
  /** The period, as the spreadsheet's clock says it ("Mon 2 Mar 08:00"). */
  from: string;
  to: string;
  /** A time as the spreadsheet's clock says it. */
  time: (ms: number) => string;
  signals: readonly SignalItem[];
  changes: readonly RefreshChange[];
  runs: readonly RunCost[];
  /** Rows "Keep enriching new rows" filled in the period, by sheet. */
  filled: readonly FilledRows[];
  /** Runs of the period that did nothing, and why. */
  idle: readonly IdleRun[];
}

export interface Digest {
  text: string;
  /** Changed rows the digest names, and those it counts without naming. */
  named: number;
  counted: number;
}

interface Section {
  title: string;
  lines: string[];
  sheet: string;
}

const figure = (n: number) => n.toLocaleString('en-US');
const rowsWord = (n: number) => `${figure(n)} row${n === 1 ? '' : 's'}`;
const size = (lines: readonly string[]) => lines.reduce((sum, line) => sum + line.length + 1, 0);

/** A sheet's name as the digest shows it (plain, escaped, clipped; a deleted sheet said so). */
const sheetOf = (input: DigestInput, sheetId: number) =>
  clipEscaped(input.service, input.sheetName(sheetId) || 'a deleted sheet', SHEET_UNITS);
const timeOf = (input: DigestInput, ms: number) => clipEscaped(input.service, input.time(ms), TIME_UNITS);

/** The spreadsheet as a post names it: its name (plain, escaped, clipped), linked when its address is Google's. */
export function spreadsheetLink(service: WebhookService, spreadsheet: { name: string; url: string }): string {
  const name = clipEscaped(service, spreadsheet.name || 'Untitled spreadsheet', NAME_UNITS);
  return SPREADSHEET_URL.test(spreadsheet.url) ? `<${spreadsheet.url}|${name.replace(/\|/g, '¦')}>` : name;
}

/** The first line: the spreadsheet and the period. */
function titleLine(input: DigestInput): string {
  const named = spreadsheetLink(input.service, input.spreadsheet);
  const period = `${clipEscaped(input.service, input.from, TIME_UNITS)} to ${clipEscaped(input.service, input.to, TIME_UNITS)}`;
  return `*Sheet Scout digest* for ${named}, ${period}`;
}

/** Each sheet's watched rows whose signals changed (the latest of a row in a run once). */
function signalSections(input: DigestInput): Section[] {
  const latest = new Map<string, SignalItem>();
  for (const item of input.signals) latest.set(`${item.ref}\u0000${item.sheetId}\u0000${item.label}`, item);
  const bySheet = new Map<number, string[]>();
  for (const item of latest.values()) {
    const line = `• ${clipEscaped(input.service, `${item.label}: ${item.text}`, LINE_UNITS)}`;
    bySheet.set(item.sheetId, [...(bySheet.get(item.sheetId) ?? []), line]);
  }
  return [...bySheet].map(([sheetId, lines]) => ({ title: 'Account watch', sheet: sheetOf(input, sheetId), lines }));
}

/** Each sheet's rows a refresh changed: one line per row with its changed cells. */
function refreshSections(input: DigestInput): Section[] {
  const rows = new Map<string, { sheetId: number; domain: string; parts: string[] }>();
  for (const change of input.changes) {
    const key = `${change.sheetId}\u0000${change.domain}\u0000${change.occurrence}`;
    const row = rows.get(key) ?? { sheetId: change.sheetId, domain: change.domain, parts: [] };
    const value = (text: string) => clipEscaped('chat', text, VALUE_UNITS) || '(empty)';
    row.parts.push(`${change.header} ${value(change.before)} -> ${value(change.after)}`);
    rows.set(key, row);
  }
  const bySheet = new Map<number, string[]>();
  for (const row of rows.values()) {
    const line = `• ${clipEscaped(input.service, `${row.domain}: ${row.parts.join('; ')}`, LINE_UNITS)}`;
    bySheet.set(row.sheetId, [...(bySheet.get(row.sheetId) ?? []), line]);
  }
  return [...bySheet].map(([sheetId, lines]) => ({ title: 'Keep data fresh', sheet: sheetOf(input, sheetId), lines }));
}

/** A list of `count` items shown by their first lines while they fit `room`, the rest counted by `rest(from)`. */
interface Listed {
  lines: string[];
  count: number;
  rest: (from: number) => string;
}

/** The lines of a list that fit `room` (with the line counting the rest, when some are left out), and the room left. */
function fitList(list: Listed, room: number): { shown: string[]; room: number } {
  if (list.lines.length === list.count && size(list.lines) <= room)
    return { shown: list.lines, room: room - size(list.lines) };
  let left = room;
  let shown = 0;
  while (shown < list.lines.length && size([list.lines[shown], list.rest(shown + 1)]) <= left)
    left -= list.lines[shown++].length + 1;
  const out = shown < list.count ? [...list.lines.slice(0, shown), list.rest(shown)] : list.lines.slice(0, shown);
  return { shown: out, room: room - size(out) };
}

interface Totals {
  reserved: number;
  charged: number;
  givenBack: number;
}

const credits = (run: Totals) =>
  `${figure(run.reserved)} credits reserved, ${figure(run.charged)} charged, ${figure(run.givenBack)} given back`;
const total = (list: readonly RunCost[]): Totals => ({
  reserved: list.reduce((sum, run) => sum + run.reserved, 0),
  charged: list.reduce((sum, run) => sum + run.charged, 0),
  givenBack: list.reduce((sum, run) => sum + run.givenBack, 0),
});

/** What the period's runs cost: a line per run (the first LISTED), the rest summed; and the fixed lines. */
function costParts(input: DigestInput): { runs: Listed; fixed: string[] } {
  const runs = [...input.runs].sort((a, b) => a.at - b.at);
  const lines = runs.slice(0, LISTED).map((run) => {
    const who = run.kind === 'watch' ? '' : ` by ${clipEscaped(input.service, run.startedBy, WHO_UNITS)}`;
    const still = run.open > 0 ? `, ${figure(run.open)} still running` : '';
    const what = `${RUN_KIND_LABELS[run.kind]}${who}, ${timeOf(input, run.at)}`;
    return `• ${what} (${sheetOf(input, run.sheetId)}, ${rowsWord(run.rows)}): ${credits(run)}${still}`;
  });
  const rest = (from: number) => `• …and ${figure(runs.length - from)} more runs: ${credits(total(runs.slice(from)))}`;
  const fixed: string[] = [];
  if (input.changes.length > 0) fixed.push('• Keep data fresh: company lookups, 0 credits');
  if (input.filled.length > 0) fixed.push('• Keep enriching new rows: company lookups, 0 credits');
  if (runs.length === 0) fixed.push('• No research ran: 0 credits');
  if (runs.length > 1) fixed.push(`Research in all: ${credits(total(runs))}`);
  return { runs: { lines, count: runs.length, rest }, fixed };
}

const IDLE_LABELS: Readonly<Record<IdleKind, string>> = {
  refresh: 'Keep data fresh',
  watch: 'Account watch',
  'new-rows': 'Research on new rows',
};

/** The period's other work: rows new rows filled (by sheet, most first), and the runs that did nothing and why. */
function activityParts(input: DigestInput): Array<{ title: string; list: Listed }> {
  const filled = [...input.filled].sort((a, b) => b.rows - a.rows);
  const rowsFrom = (from: number) => filled.slice(from).reduce((sum, sheet) => sum + sheet.rows, 0);
  const idle = input.idle.slice(0, LISTED).map((run) => {
    const what = `${IDLE_LABELS[run.kind]}, ${sheetOf(input, run.sheetId)}, ${timeOf(input, run.at)}`;
    return `• ${what}: ${clipEscaped(input.service, run.why, LINE_UNITS)}`;
  });
  const parts = [];
  if (filled.length > 0)
    parts.push({
      title: `*Keep enriching new rows*: ${rowsWord(rowsFrom(0))} filled`,
      list: {
        lines: filled
          .slice(0, LISTED)
          .map((sheet) => `• ${sheetOf(input, sheet.sheetId)}: ${rowsWord(sheet.rows)} filled`),
        count: filled.length,
        rest: (from: number) =>
          `• …and ${figure(filled.length - from)} more sheets: ${rowsWord(rowsFrom(from))} filled`,
      },
    });
  if (idle.length > 0)
    parts.push({
      title: `*Runs that did nothing*: ${figure(input.idle.length)}`,
      list: {
        lines: idle,
        count: input.idle.length,
        rest: (from: number) => `• …and ${figure(input.idle.length - from)} more`,
      },
    });
  return parts;
}

const heading = (section: Section) => `*${section.title}, ${section.sheet}*: ${rowsWord(section.lines.length)} changed`;
const moreLine = (count: number, sheet: string) =>
  `…and ${figure(count)} more changed ${count === 1 ? 'row' : 'rows'} in ${sheet}`;
const moreSheets = (sections: readonly Section[]) =>
  `…and ${figure(sections.length)} more sheets with ${rowsWord(sections.reduce((sum, s) => sum + s.lines.length, 0))} changed`;

/** The summary line when no watched row or refreshed cell changed. */
function quietLine(input: DigestInput, sections: readonly Section[]): string[] {
  if (sections.length > 0) return [];
  const busy = input.filled.length > 0 || input.idle.length > 0 || input.runs.length > 0;
  return [
    busy
      ? 'No watched row or refreshed cell changed.'
      : 'No changes: the account watch and the refresh found nothing new.',
  ];
}

/** The digest's text within DIGEST_CHARS (as posted), and how many changed rows it names and counts. */
export function composeDigest(input: DigestInput): Digest {
  const title = titleLine(input);
  const sections = [...signalSections(input), ...refreshSections(input)];
  const quiet = quietLine(input, sections);
  const cost = costParts(input);
  // The bounded fixed part first, then the lists in their order of importance, each within what is left.
  const runs = fitList(cost.runs, DIGEST_CHARS + 1 - size([title, ...quiet, '*What it cost*', ...cost.fixed]));
  let room = runs.room;
  const other: string[] = [];
  for (const part of activityParts(input)) {
    if (part.title.length + 1 > room) break;
    const fitted = fitList(part.list, room - (part.title.length + 1));
    other.push(part.title, ...fitted.shown);
    room = fitted.room;
  }
  const changed = sectionsBody(sections, room);
  const text = [title, ...quiet, ...changed.body, ...other, '*What it cost*', ...runs.shown, ...cost.fixed].join('\n');
  return { text, named: changed.named, counted: changed.total - changed.named };
}

/**
 * The sections' lines within `room`: each sheet's heading with its first row while they fit (the sheets past them
 * counted on one line), then more rows in turns, one of each sheet at a time; the rows left out counted per sheet.
 */
function sectionsBody(sections: readonly Section[], room: number): { body: string[]; named: number; total: number } {
  const total = sections.reduce((sum, section) => sum + section.lines.length, 0);
  // A sheet shown takes its heading, its first row and the line counting the rest (kept for it until the end).
  const reserve = (section: Section) =>
    size([heading(section), section.lines[0], moreLine(section.lines.length, section.sheet)]);
  let left = room;
  let kept = 0;
  while (kept < sections.length) {
    const tail = kept + 1 < sections.length ? size([moreSheets(sections.slice(kept + 1))]) : 0;
    if (reserve(sections[kept]) + tail > left) break;
    left -= reserve(sections[kept]);
    kept += 1;
  }
  const dropped = sections.slice(kept);
  if (dropped.length > 0) left -= size([moreSheets(dropped)]);
  const shown = sections.slice(0, kept).map(() => 1);
  for (let turn = 1, added = true; added; turn++) {
    added = false;
    sections.slice(0, kept).forEach((section, i) => {
      const line = section.lines[turn];
      if (line === undefined || shown[i] !== turn || line.length + 1 > left) return;
      left -= line.length + 1;
      shown[i] += 1;
      added = true;
    });
  }
  const body = sections.slice(0, kept).flatMap((section, i) => {
    const cut = section.lines.length - shown[i];
    return [heading(section), ...section.lines.slice(0, shown[i]), ...(cut > 0 ? [moreLine(cut, section.sheet)] : [])];
  });
  if (dropped.length > 0) body.push(moreSheets(dropped));
  return { body, named: shown.reduce((sum, n) => sum + n, 0), total };
}
