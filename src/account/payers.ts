// Which payers of this spreadsheet's saved timer runs removed their token: an account watch or research on new rows
// is paid from the token of the editor who saved it, and only their timer runs it, so once they remove their token no
// run can start. The Settings panel notes it here (the document's properties, where only the add-in writes) when they
// remove it, and clears it when they save a token again; the sections of those runs say so until then. Pure over the
// document store.
import type { KeyValueStore } from '../ports';

const TOKENLESS_KEY = 'sheetscout.payers.tokenless';

/** Payer e-mail (lower case) -> when they removed their token (epoch ms). */
export function tokenlessPayers(document: KeyValueStore | null): Map<string, number> {
  try {
    const parsed = JSON.parse(document?.get(TOKENLESS_KEY) ?? '{}') as Record<string, unknown>;
    return new Map(Object.entries(parsed).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
  } catch {
    return new Map();
  }
}

/** Notes that `email` removed their token at `at` (null: saved one again). */
export function noteTokenless(document: KeyValueStore | null, email: string, at: number | null): void {
  if (!document) return;
  const payers = tokenlessPayers(document);
  const key = email.toLowerCase();
  if (at === null ? !payers.has(key) : payers.get(key) === at) return;
  if (at === null) payers.delete(key);
  else payers.set(key, at);
  if (payers.size === 0) document.remove(TOKENLESS_KEY);
  else document.set(TOKENLESS_KEY, JSON.stringify(Object.fromEntries(payers)));
}
