// A running job's view of its sheet in one execution: each data row's domain (parsed once per distinct cell value),
// the rows still to pass in sheet order (rows that need values, and rows with an invalid domain to mark), the rows
// above the job's cursor that wait for a domain's retry, and the fingerprint of the domain cells above a row, by
// which the next execution knows that its cursor still points at the same rows. When rows moved (a sort, an insert, a
// delete), the cursor is not trusted: the rows are taken from the top again, a row whose domain the job finished
// counting as done unless it is still empty (a duplicate the job had not reached). Pure.
import { parseDomain } from '../../shared/domain/domain';
import { cellsNeedValues, isEmpty } from './rows';

export type RowKey = { kind: 'domain'; domain: string } | { kind: 'invalid'; input: string } | { kind: 'blank' };

const BLANK: RowKey = { kind: 'blank' };

/** Each grid row's domain (index 0, the header row, is blank), parsed once per distinct cell value. */
export function rowKeys(keys: readonly unknown[]): RowKey[] {
  const parsed = new Map<string, RowKey>();
  return keys.map((raw, index) => {
    if (index === 0) return BLANK;
    const text = typeof raw === 'string' ? raw : String(raw ?? '');
    let key = parsed.get(text);
    if (!key) {
      const domain = parseDomain(raw);
      key = domain.kind === 'domain' ? domain : domain.kind === 'invalid' ? domain : BLANK;
      parsed.set(text, key);
    }
    return key;
  });
}

/** Fingerprint (FNV-1a, 32 bits, base 36) of the domain cells of grid rows 1 to `end` - 1. */
export function prefixFingerprint(keys: readonly unknown[], end: number): string {
  let hash = 0x811c9dc5;
  for (let index = 1; index < Math.min(end, keys.length); index++) {
    const text = `${String(keys[index] ?? '')}\n`;
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  }
  return `${Math.min(end, keys.length)}:${(hash >>> 0).toString(36)}`;
}

export interface ViewRules {
  overwrite: boolean;
  /** Per field column: whether an empty cell there can be a value the profile lacks (see rows.ts). */
  settled: boolean[];
}

/** What the job knows that the sheet does not show. */
export interface ViewKnowledge {
  /** Rows above this grid index are done; null when rows moved and the view starts from the top. */
  cursor: number | null;
  /** Domains waiting for a retry. */
  retrying: ReadonlySet<string>;
  /** With no cursor: the domains this job finished (their enrichment dates are its own). */
  done: ReadonlySet<string>;
  /** Domains this job marked "still enriching" or "lookup failed". */
  marked: ReadonlySet<string>;
}

export interface JobRows {
  /** Grid indexes of the rows still to pass, in sheet order: rows that need values and rows to mark invalid. */
  todo: number[];
  /** Rows above the cursor waiting for their domain's retry, by domain. */
  awaiting: Map<string, number[]>;
  /** Domains the job already resolved (rows above the cursor, or finished): not counted again. */
  counted: Set<string>;
}

/** The rows of the view, from each row's key and its field cells (in field order; '' where not read). */
export function jobRows(
  keys: readonly RowKey[],
  cellsOf: (index: number) => readonly unknown[],
  rules: ViewRules,
  knowledge: ViewKnowledge,
): JobRows {
  const view: JobRows = { todo: [], awaiting: new Map(), counted: new Set() };
  const cursor = knowledge.cursor ?? 1;
  keys.forEach((key, index) => {
    if (index === 0 || key.kind === 'blank') return;
    if (key.kind === 'invalid') {
      if (index >= cursor) view.todo.push(index);
      return;
    }
    const domain = key.domain;
    if (index < cursor) {
      if (!knowledge.retrying.has(domain)) view.counted.add(domain);
      else {
        const rows = view.awaiting.get(domain);
        if (rows) rows.push(index);
        else view.awaiting.set(domain, [index]);
      }
      return;
    }
    if (knowledge.cursor === null && !knowledge.retrying.has(domain)) {
      const cells = cellsOf(index);
      // A row of a domain the job finished was written, unless it is empty (a duplicate not reached yet).
      const finished = knowledge.done.has(domain) || knowledge.marked.has(domain);
      if (finished && (rules.overwrite || !cells.every(isEmpty))) {
        view.counted.add(domain);
        return;
      }
    }
    if (rules.overwrite || cellsNeedValues(cellsOf(index), rules.settled)) view.todo.push(index);
  });
  return view;
}
