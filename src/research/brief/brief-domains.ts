// Which brief cells hold a company domain, by the add-in's one set of domain rules (src/shared/domain/domain.ts): a domain,
// URL or e-mail address gives its registered domain, anything else (a name, a number, a sentence) none. Server-side
// only (the domain rules need the Public Suffix List and UTS #46 tables, too large for a panel page): the launch uses
// it for every row, and the panel's preview gets its answers for the first selected row with the context.
import { parseDomain } from '../../shared/domain/domain';
import type { CellDomain } from './brief-template';

export const cellDomain: CellDomain = (_column, value) => {
  const parsed = parseDomain(value);
  return parsed.kind === 'domain' ? parsed.domain : null;
};

/** The registered domain of each cell of a row (null where a cell holds none): the panel's preview uses these. */
export function rowDomains(row: readonly string[]): Array<string | null> {
  return row.map((value, index) => (value.trim() ? cellDomain(index + 1, value) : null));
}
