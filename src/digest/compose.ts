// The digest's text: the spreadsheet named with a link, each sheet's rows that changed and how (the account watch's
// Signals, the refresh's changed cells, one line per row), and what the period's runs cost, from the spending history
// (the credits each reserved, was charged and was given back: the service's own figures). Slack's and Google Chat's
// markup are alike (*bold*, <url|label> links, "•" lines). A digest is held to DIGEST_CHARS: Slack advises keeping a
// message's text under 4,000 characters (it cuts one past 40,000) and Google Chat takes at most 32,000 bytes, which
// 3,500 characters are at any UTF-8 width. Past it, each sheet's rows that do not fit are counted ("…and 62 more
// changed rows in Accounts"): a long digest is cut with a count, never dropped. Rows fill the room in turns, one of
// each sheet at a time, so every sheet is shown. Service text is escaped for the markup (Slack: &, < and > as entities;
// Google Chat, which documents no escape: < and > as ‹ ›), so a company's text never becomes a link or a mention. Pure.
import type { SpendingRun } from '../spending-history/history';
import { RUN_KIND_LABELS } from '../spending-history/contract';
import type { WebhookService } from './webhook';
import type { SignalItem } from './outbox';
import type { LoggedChange } from '../enrichment/refresh/change-log';

export const DIGEST_CHARS = 3_500;
const LINE_CHARS = 280;
const VALUE_CHARS = 60;
/** Runs listed one by one; the rest are summed on one line. */
const RUNS_LISTED = 5;

/** One cell a refresh changed, as its change log keeps it (when it changed aside). */
export type RefreshChange = Omit<LoggedChange, 'at'>;

/** A run of the spending history started in the period, as the digest sums it up. */
export type RunCost = Omit<SpendingRun, 'id' | 'unknown' | 'lost'>;

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

const clip = (text: string, chars: number) => (text.length > chars ? `${text.slice(0, chars - 1)}…` : text);
const figure = (n: number) => n.toLocaleString('en-US');
const rowsWord = (n: number) => `${figure(n)} row${n === 1 ? '' : 's'}`;

/** Service text made inert for the service's markup. */
export function escapeFor(service: WebhookService, text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ');
  return service === 'slack'
    ? flat.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    : flat.replace(/</g, '‹').replace(/>/g, '›');
}

/** A sheet's name as the digest shows it (escaped; a deleted sheet said so). */
const sheetOf = (input: DigestInput, sheetId: number) =>
  escapeFor(input.service, input.sheetName(sheetId) || 'a deleted sheet');

/** Each sheet's watched rows whose signals changed (the latest of a row in a run once). */
function signalSections(input: DigestInput): Section[] {
  const latest = new Map<string, SignalItem>();
  for (const item of input.signals) latest.set(`${item.ref}\u0000${item.sheetId}\u0000${item.label}`, item);
  const bySheet = new Map<number, string[]>();
  for (const item of latest.values()) {
    const line = `• ${escapeFor(input.service, clip(`${item.label}: ${item.text}`, LINE_CHARS))}`;
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
    const value = (text: string) => clip(text.trim(), VALUE_CHARS) || '(empty)';
    row.parts.push(`${change.header} ${value(change.before)} -> ${value(change.after)}`);
    rows.set(key, row);
  }
  const bySheet = new Map<number, string[]>();
  for (const row of rows.values()) {
    const line = `• ${escapeFor(input.service, clip(`${row.domain}: ${row.parts.join('; ')}`, LINE_CHARS))}`;
    bySheet.set(row.sheetId, [...(bySheet.get(row.sheetId) ?? []), line]);
  }
  return [...bySheet].map(([sheetId, lines]) => ({ title: 'Keep data fresh', sheet: sheetOf(input, sheetId), lines }));
}

/** What the period's runs cost, from the spending history. */
function costLines(input: DigestInput): string[] {
  const runs = [...input.runs].sort((a, b) => a.at - b.at);
  const credits = (run: Pick<RunCost, 'reserved' | 'charged' | 'givenBack'>) =>
    `${figure(run.reserved)} credits reserved, ${figure(run.charged)} charged, ${figure(run.givenBack)} given back`;
  const lines = runs.slice(0, RUNS_LISTED).map((run) => {
    const who = run.kind === 'watch' ? '' : ` by ${run.startedBy}`;
    const still = run.open > 0 ? `, ${figure(run.open)} still running` : '';
    const what = `${RUN_KIND_LABELS[run.kind]}${escapeFor(input.service, who)}, ${input.time(run.at)}`;
    return `• ${what} (${sheetOf(input, run.sheetId)}, ${rowsWord(run.rows)}): ${credits(run)}${still}`;
  });
  const rest = runs.slice(RUNS_LISTED);
  const sum = (pick: (run: RunCost) => number, list: readonly RunCost[]) => list.reduce((t, run) => t + pick(run), 0);
  const total = (list: readonly RunCost[]) => ({
    reserved: sum((run) => run.reserved, list),
    charged: sum((run) => run.charged, list),
    givenBack: sum((run) => run.givenBack, list),
  });
  if (rest.length > 0) lines.push(`• …and ${figure(rest.length)} more runs: ${credits(total(rest))}`);
  if (input.changes.length > 0) lines.push('• Keep data fresh: company lookups, 0 credits');
  if (runs.length === 0 && input.changes.length === 0) lines.push('• No research ran: 0 credits');
  if (runs.length > 1) lines.push(`Research in all: ${credits(total(runs))}`);
  return lines;
}

const moreLine = (count: number, sheet: string) =>
  `…and ${figure(count)} more changed ${count === 1 ? 'row' : 'rows'} in ${sheet}`;

/** The digest's text within DIGEST_CHARS, and how many changed rows it names and counts. */
export function composeDigest(input: DigestInput): Digest {
  const service = input.service;
  const name = escapeFor(service, input.spreadsheet.name).replace(/\|/g, '¦');
  const title = `*Sheet Scout digest* for <${input.spreadsheet.url}|${name}>, ${input.from} to ${input.to}`;
  const sections = [...signalSections(input), ...refreshSections(input)];
  const heading = (section: Section) =>
    `*${section.title}, ${section.sheet}*: ${rowsWord(section.lines.length)} changed`;
  const costs = ['*What it cost*', ...costLines(input)];
  const none = sections.length === 0 ? ['No changes: the account watch and the refresh found nothing new.'] : [];
  // Everything but the rows' lines, with the room each section's count line may take.
  const fixed = [title, ...none, ...costs, ...sections.flatMap((s) => [heading(s), moreLine(s.lines.length, s.sheet)])];
  let room = DIGEST_CHARS - fixed.join('\n').length;
  const shown = sections.map(() => 0);
  for (let turn = 0, added = true; added; turn++) {
    added = false;
    sections.forEach((section, i) => {
      const line = section.lines[turn];
      if (line === undefined || shown[i] !== turn || line.length + 1 > room) return;
      room -= line.length + 1;
      shown[i] += 1;
      added = true;
    });
  }
  const body = sections.flatMap((section, i) => {
    const cut = section.lines.length - shown[i];
    return [heading(section), ...section.lines.slice(0, shown[i]), ...(cut > 0 ? [moreLine(cut, section.sheet)] : [])];
  });
  const named = shown.reduce((sum, n) => sum + n, 0);
  const total = sections.reduce((sum, section) => sum + section.lines.length, 0);
  return { text: [title, ...none, ...body, ...costs].join('\n'), named, counted: total - named };
}
