// How many distinct questions the selected rows ask with the brief typed (rows asking the same question share one
// task), and how many of them this spreadsheet bought within the period the panel offers earlier results over
// (reuse-offer.ts): asked of the server (it reads the rows, and the hidden records, once) a moment after the brief,
// the selection, the depth, the output or the period last changed, and kept for exactly that request, so the
// estimate never shows a count of other rows. Until it answers, the estimate counts one task a row (the most a launch
// can reserve) and offers nothing. A launch forgets the answer (what it bought or reused changes the offer).
import type { QuestionCountDto, QuestionCountRequest } from '../../src/research/contract';
import { server } from '../bridge';

interface Asked {
  key: string;
  count: QuestionCountDto;
}

/** Waits this long after the last keystroke before asking. */
const QUIET_MS = 300;

let answered: Asked | null = null;
let pendingKey: string | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;

/** The key of a count request: the answer is kept for exactly this one. */
export const countKey = (request: QuestionCountRequest) => JSON.stringify({ ...request, rows: request.rows.join(',') });

/**
 * The count for this request when the server has answered it; otherwise null, and (once the request stops changing)
 * the question is asked, then `redraw` runs with the answer.
 */
export function questionCount(request: QuestionCountRequest, redraw: () => void): QuestionCountDto {
  const key = countKey(request);
  if (answered?.key === key) return answered.count;
  if (pendingKey === key) return null;
  pendingKey = key;
  if (timer !== null) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    server
      .countResearchQuestions({ ...request, rows: [...request.rows] })
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

/** Forgets the last answer (after a launch: the next redraw asks again). */
export function forgetQuestionCount(): void {
  answered = null;
  pendingKey = null;
}
