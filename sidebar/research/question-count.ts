// How many distinct questions the selected rows ask with the brief typed (rows asking the same question share one
// task): asked of the server (it reads the rows once) a moment after the brief or the selection last changed, and kept
// for exactly that brief and selection, so the estimate never shows a count of other rows. Until it answers, the
// estimate counts one task a row (the most a launch can reserve).
import { server } from '../bridge';

interface Asked {
  key: string;
  count: { asking: number; questions: number } | null;
}

/** Waits this long after the last keystroke before asking. */
const QUIET_MS = 300;

let answered: Asked | null = null;
let pendingKey: string | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;

const keyOf = (sheetId: number, rows: readonly number[], template: string) =>
  JSON.stringify([sheetId, rows.join(','), template]);

/**
 * The count for these rows and this brief when the server has answered for them; otherwise null, and (once they stop
 * changing) the question is asked, then `redraw` runs with the answer.
 */
export function questionCount(
  sheetId: number,
  rows: readonly number[],
  template: string,
  redraw: () => void,
): { asking: number; questions: number } | null {
  const key = keyOf(sheetId, rows, template);
  if (answered?.key === key) return answered.count;
  if (pendingKey === key) return null;
  pendingKey = key;
  if (timer !== null) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    server
      .countResearchQuestions({ sheetId, rows: [...rows], template })
      .then((count) => {
        if (pendingKey !== key) return;
        answered = { key, count };
        pendingKey = null;
        redraw();
      })
      .catch(() => {
        // The estimate keeps counting a task a row; the launch itself says how many tasks it made.
        if (pendingKey === key) pendingKey = null;
      });
  }, QUIET_MS);
  return null;
}
