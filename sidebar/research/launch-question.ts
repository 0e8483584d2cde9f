// The one question a launch may leave under its answer: rows it did not research because they already hold a result
// (paid again if researched again) or because research another account launched still runs there (a re-run takes
// that account's results off the rows). Its figure is what answering yes launches: the rows the spending cap and the
// credits leave room for now (the server says which), at their depth's reservation; the answer sends exactly those.
import type { TaskDepth } from '../../src/api/types';
import { counted, type LaunchQuestion } from '../../src/research/contract';
import { h, message } from '../ui/dom';

/** What a launch left for the user to decide, as the panel keeps it with the launch's answer. */
export interface LeftToDecide {
  researched: Array<{ row: number; finishedAt: number }>;
  othersRunning: Array<{ row: number; launchedBy: string | null }>;
  question: LaunchQuestion | null;
  depth: TaskDepth;
}

/** The answer "yes": the rows to launch, and the accounts whose running research they take off those rows. */
export interface QuestionAnswer {
  rows: number[];
  replacing: string[];
}

const shortDate = (ms: number) =>
  new Date(ms).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

/** `row 5`, `rows 2, 3`, up to eight rows and how many more. */
export function rowsPhrase(rows: readonly number[]): string {
  const more = rows.length > 8 ? ` and ${rows.length - 8} more` : '';
  return `${rows.length === 1 ? 'row' : 'rows'} ${rows.slice(0, 8).join(', ')}${more}`;
}

const capitalized = (text: string) => `${text[0].toUpperCase()}${text.slice(1)}`;

function researchedLine(researched: LeftToDecide['researched']): string | null {
  if (researched.length === 0) return null;
  const shown = researched
    .slice(0, 8)
    .map(({ row, finishedAt }) => `row ${row} (${shortDate(finishedAt)})`)
    .join(', ');
  const more = researched.length > 8 ? ` and ${researched.length - 8} more` : '';
  const count = researched.length;
  return `${count === 1 ? '1 row already has' : `${count} rows already have`} a research result: ${shown}${more}.`;
}

/** One line per account whose research runs on rows a re-run would take it off. */
function othersLines(othersRunning: LeftToDecide['othersRunning']): string[] {
  const byLauncher = new Map<string | null, number[]>();
  for (const { row, launchedBy } of othersRunning)
    byLauncher.set(launchedBy, [...(byLauncher.get(launchedBy) ?? []), row]);
  return [...byLauncher].map(([launchedBy, rows]) => {
    const who = launchedBy ?? 'an editor Sheet Scout cannot name (launched before this version, or its record changed)';
    return (
      `${capitalized(rowsPhrase(rows))}: research launched by ${who} is still running, paid from that account. ` +
      `Re-running takes its results off ${rows.length === 1 ? 'the row' : 'these rows'} (they stay in that account's task history).`
    );
  });
}

/** The ask, with what answering yes reserves, or why nothing fits. */
function askLine(left: LeftToDecide, question: LaunchQuestion): string {
  const asked = [...left.researched, ...left.othersRunning].map((entry) => entry.row).sort((a, b) => a - b);
  const fit = question.rows.length;
  const depth = `${left.depth} depth`;
  const limit = question.limit;
  const limitText = !limit
    ? ''
    : limit.by === 'cap'
      ? `This spreadsheet's spending cap has ${counted(limit.left, 'credit')} left`
      : `Your account has ${counted(limit.left, 'credit')} available`;
  const them = asked.length === 1 ? 'it' : 'them';
  if (fit === 0)
    return `${limitText}: not enough to research ${them} again at ${depth} (${question.perRow} credits a row).`;
  const cost = `Up to ${counted(fit * question.perRow, 'credit')} (${counted(fit, 'row')} x ${question.perRow} at ${depth}); the new result replaces the current one.`;
  if (fit === asked.length) return `Research ${them} again? ${cost}`;
  const out = asked.filter((row) => !question.rows.includes(row));
  return (
    `${limitText}: research ${rowsPhrase(question.rows)} again? ${cost} ` +
    `${capitalized(rowsPhrase(out))} ${out.length === 1 ? 'is left as it is' : 'are left as they are'}.`
  );
}

/** Whether the question stands for these selected rows (every row it asks about is among them). */
export function questionStands(left: LeftToDecide | null, rows: readonly number[]): boolean {
  if (!left?.question) return false;
  return [...left.researched, ...left.othersRunning].every((entry) => rows.includes(entry.row));
}

/** The question and its "Research again" button (none when nothing fits), or null when nothing was left to decide. */
export function launchQuestion(left: LeftToDecide, answer: (yes: QuestionAnswer) => void): HTMLElement | null {
  const question = left.question;
  if (!question) return null;
  const text = [researchedLine(left.researched), ...othersLines(left.othersRunning), askLine(left, question)];
  const replacing = [
    ...new Set(
      left.othersRunning.filter((entry) => question.rows.includes(entry.row)).map((entry) => entry.launchedBy ?? ''),
    ),
  ];
  return h(
    'div',
    { id: 'research-again-question' },
    message('warn', text.filter(Boolean).join(' ')),
    question.rows.length > 0
      ? h(
          'div',
          { class: 'row' },
          h(
            'button',
            { type: 'button', id: 'research-again', onclick: () => answer({ rows: question.rows, replacing }) },
            'Research again',
          ),
        )
      : null,
  );
}
