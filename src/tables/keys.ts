// Column keys: the default key of a header (a slug, unique within the sheet), the accepted key format, the `{...}`
// references of a prompt, and the cycles of the graph those references make.

/** Lower-case letter first, then lower-case letters, digits and underscores; at most 64 characters. */
export const KEY_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

/** `{input}` in a prompt is the row's input value, so no column may take that key. */
export const INPUT_REFERENCE = 'input';

const MAX_KEY_LENGTH = 64;

/** "Company Domain" -> "company_domain"; accents dropped; a leading digit gets a `col_` prefix; empty -> "column". */
export function slugify(header: string): string {
  const ascii = header.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  let slug = ascii
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (slug === '') slug = 'column';
  if (/^[0-9]/.test(slug)) slug = `col_${slug}`;
  if (slug === INPUT_REFERENCE) slug = 'input_column';
  return slug.slice(0, MAX_KEY_LENGTH).replace(/_+$/, '');
}

/** The slug of `header`, suffixed `_2`, `_3`, ... until it is not in `taken`; the result is added to `taken`. */
export function uniqueKey(header: string, taken: Set<string>): string {
  const base = slugify(header);
  let key = base;
  for (let n = 2; taken.has(key); n++) {
    const suffix = `_${n}`;
    key = `${base.slice(0, MAX_KEY_LENGTH - suffix.length)}${suffix}`;
  }
  taken.add(key);
  return key;
}

/** Why a key is not acceptable, or null. */
export function keyProblem(key: string): string | null {
  if (key === '') return 'Key is empty';
  if (key === INPUT_REFERENCE) return 'Key "input" is reserved for {input}, the row\'s input value';
  if (key.length > MAX_KEY_LENGTH) return `Key is longer than ${MAX_KEY_LENGTH} characters`;
  if (!KEY_PATTERN.test(key)) return 'Key must start with a lower-case letter and use only a-z, 0-9 and _';
  return null;
}

export interface PromptReference {
  /** The name between the braces. */
  name: string;
  /** Offset of the `{` in the prompt. */
  index: number;
}

// A reference is `{name}` with a name made of letters, digits, `_` or `-` (starting with a letter or `_`). Braces
// around anything else (JSON examples, `{ }`) are plain text.
const REFERENCE = /\{([A-Za-z_][A-Za-z0-9_-]*)\}/g;

/** Every `{name}` reference in a prompt, in order of appearance (repeats included). */
export function promptReferences(prompt: string): PromptReference[] {
  return [...prompt.matchAll(REFERENCE)].map((match) => ({ name: match[1], index: match.index ?? 0 }));
}

/** Replaces every `{from}` reference in `prompt` by `{to}` (used when a key is renamed in the dialog). */
export function renameReference(prompt: string, from: string, to: string): string {
  return prompt.replace(REFERENCE, (whole, name: string) => (name === from ? `{${to}}` : whole));
}

/** Strongly connected components of the reference graph (Tarjan); returns, per row, the rows of its cycle. */
export function cycles(edges: Map<number, number[]>, rows: number[]): Map<number, number[]> {
  const index = new Map<number, number>();
  const low = new Map<number, number>();
  const onStack = new Set<number>();
  const stack: number[] = [];
  const result = new Map<number, number[]>();
  let counter = 0;
  const visit = (v: number): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: number[] = [];
      let w: number;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      const selfLoop = (edges.get(v) ?? []).includes(v);
      if (component.length > 1 || selfLoop) {
        component.sort((a, b) => a - b);
        for (const member of component) result.set(member, component);
      }
    }
  };
  for (const v of rows) if (!index.has(v)) visit(v);
  return result;
}
