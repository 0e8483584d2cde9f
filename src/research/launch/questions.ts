// What a question is: the task a row asks, its brief rendered from the row (placeholders filled), its depth and its
// output schema. Rows whose brief renders the same ask one question (a launch makes one task of them: plan.ts); the
// question's key (brief, depth and schema, the schema's keys in order) is what an earlier result of this spreadsheet
// must match to be offered again (reuse.ts). Pure.
import type { JsonSchemaObject, TaskDepth } from '../../api/types';
import { renderBrief, type ResolvedTemplate } from '../brief/brief-template';
import { cellDomain } from '../brief/brief-domains';

/** The questions rows ask: each rendered brief with the rows asking it (in the rows' order), and the rows that ask none. */
export interface RowQuestions {
  questions: Map<string, number[]>;
  empty: number[];
  tooLong: Array<{ row: number; length: number }>;
}

/** Groups `rows` (values[i] is rows[i]'s) by the brief they render: rows whose brief renders the same ask one question. */
export function questionsOf(
  template: ResolvedTemplate,
  rows: readonly number[],
  values: readonly unknown[][],
): RowQuestions {
  const grouped: RowQuestions = { questions: new Map(), empty: [], tooLong: [] };
  rows.forEach((row, i) => {
    const rendered = renderBrief(template, values[i] ?? [], cellDomain);
    if (rendered.kind === 'empty') grouped.empty.push(row);
    else if (rendered.kind === 'too_long') grouped.tooLong.push({ row, length: rendered.length });
    else {
      const asking = grouped.questions.get(rendered.brief);
      if (asking) asking.push(row);
      else grouped.questions.set(rendered.brief, [row]);
    }
  });
  return grouped;
}

/** JSON with every object's keys in order: two schemas that say the same thing in another order compare equal. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, part: unknown) =>
    part && typeof part === 'object' && !Array.isArray(part)
      ? Object.fromEntries(Object.entries(part).sort(([a], [b]) => (a < b ? -1 : 1)))
      : part,
  );

/** The key of a question: its rendered brief, its depth and its output schema (null: a markdown report). */
export function questionKey(brief: string, depth: TaskDepth, schema: JsonSchemaObject | null): string {
  return canonical([brief, depth, schema]);
}
