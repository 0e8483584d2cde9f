// Finding company domains in a sheet the user chose: the column headed like a domain/website column, else the columns
// whose cells are mostly domains. Used by "exclude companies already in this sheet" and by appending (which skips
// domains already there). Pure over a grid of values (row 1 = header).
import { parseDomain } from '../shared/domain/domain';

const DOMAIN_HEADER = /^(company\s+)?(domain|website|web\s*site|url|site|homepage)s?$/i;

function headerText(value: unknown): string {
  return value === null || value === undefined ? '' : String(value).trim();
}

/** 0-based indexes of the columns holding domains. */
export function domainColumns(grid: readonly unknown[][]): number[] {
  if (grid.length === 0) return [];
  const header = grid[0];
  const byHeader = header
    .map((value, index) => (DOMAIN_HEADER.test(headerText(value)) ? index : -1))
    .filter((index) => index >= 0);
  if (byHeader.length > 0) return byHeader;
  const width = Math.max(...grid.map((row) => row.length));
  const found: number[] = [];
  for (let column = 0; column < width; column++) {
    let filled = 0;
    let domains = 0;
    for (const row of grid) {
      const parsed = parseDomain(row[column]);
      if (parsed.kind === 'blank') continue;
      filled++;
      if (parsed.kind === 'domain') domains++;
    }
    if (filled > 0 && domains * 2 >= filled) found.push(column);
  }
  return found;
}

/** Raw values of the domain columns, top to bottom (header row skipped when it is a header). */
export function domainValues(grid: readonly unknown[][]): unknown[] {
  const columns = domainColumns(grid);
  if (columns.length === 0) return [];
  const headed = columns.some((column) => DOMAIN_HEADER.test(headerText(grid[0][column])));
  const rows = headed ? grid.slice(1) : grid;
  const values: unknown[] = [];
  for (const row of rows) for (const column of columns) values.push(row[column]);
  return values;
}

/** The registered domains already in a sheet. */
export function domainsInGrid(grid: readonly unknown[][]): Set<string> {
  const domains = new Set<string>();
  for (const value of domainValues(grid)) {
    const parsed = parseDomain(value);
    if (parsed.kind === 'domain') domains.add(parsed.domain);
  }
  return domains;
}

/** Values of one column (0-based) below the header row, for "exclude domains from a column". */
export function columnValues(grid: readonly unknown[][], column: number, skipHeader: boolean): unknown[] {
  return (skipHeader ? grid.slice(1) : grid).map((row) => row[column]);
}
