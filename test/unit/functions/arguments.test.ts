import { readFilters } from '../../../src/functions/filters';
import { readBoolean, readCompanyInput, readLimit, readQuery } from '../../../src/functions/arguments';
import { toFormulaCell, isUnfinishedCellText, CELL_TEXT } from '../../../src/functions/cell-text';

describe('filters argument', () => {
  it('accepts dotted and nested JSON and gives the nested wire form', () => {
    expect(
      readFilters('{"include.country": "United States", "exclude": {"size": ["1-10"]}, "range.founded.min": 1999}'),
    ).toEqual({
      ok: true,
      value: {
        include: { country: ['United States'] },
        exclude: { size: ['1-10'] },
        range: { founded: { min: 1999 } },
      },
    });
  });

  it('reads an empty list as restricting nothing', () => {
    expect(readFilters('{"exclude.domains": [], "include.country": ["Germany"]}')).toEqual({
      ok: true,
      value: { include: { country: ['Germany'] } },
    });
  });

  it('treats blank as no filters and a 1x1 range as a JSON cell', () => {
    expect(readFilters(undefined)).toEqual({ ok: true, value: undefined });
    expect(readFilters('  ')).toEqual({ ok: true, value: undefined });
    expect(readFilters([['{"include.city": ["Berlin"]}']])).toEqual({
      ok: true,
      value: { include: { city: ['Berlin'] } },
    });
  });

  it('accumulates repeated range keys without duplicates and skips blank rows', () => {
    expect(
      readFilters([
        ['include.country', 'France'],
        ['', ''],
        ['INCLUDE.COUNTRY', 'Spain, France'],
      ]),
    ).toEqual({
      ok: true,
      value: { include: { country: ['France', 'Spain'] } },
    });
  });

  it('names the bad key or value', () => {
    const message = (arg: unknown) => {
      const read = readFilters(arg);
      return read.ok ? 'ok' : read.message;
    };
    expect(message([['include.industry', 'SaaS']])).toMatch(
      /^Invalid filters: unknown key "include.industry". Use include.size, /,
    );
    expect(message('{"range": {"founded": {"min": "old"}}}')).toBe(
      'Invalid filters: range.founded.min must be a year, e.g. 2010',
    );
    expect(message('{"range.founded.min": 2020, "range.founded.max": 2010}')).toBe(
      'Invalid filters: range.founded.min is after range.founded.max',
    );
    expect(message([['exclude.domains', 'not a domain']])).toBe(
      'Invalid filters: exclude.domains "not a domain" is not a domain',
    );
    expect(message([['include.country', '']])).toBe('Invalid filters: include.country has no value');
    expect(message('{"include.city": [null]}')).toBe(
      'Invalid filters: include.city must be a list of texts; null is not a text',
    );
    expect(message('{"include.country": [1, 2]}')).toBe(
      'Invalid filters: include.country must be a list of texts; 1 is not a text',
    );
    expect(message('{"exclude.city": {"name": "Paris"}}')).toBe(
      'Invalid filters: exclude.city must be a list of texts',
    );
    expect(message('[1,2]')).toMatch(/expected a JSON object/);
    expect(message([['include.country'], ['United States']])).toMatch(/two-column range/);
    const many = Array.from({ length: 1001 }, (_, i) => `d${i}.com`).join(',');
    expect(message([['exclude.domains', many]])).toBe('Invalid filters: exclude.domains takes at most 1000 domains');
  });
});

describe('other arguments', () => {
  it('reads limits, booleans, queries and company inputs', () => {
    expect(readLimit(undefined)).toEqual({ ok: true, value: 10 });
    expect(readLimit('25')).toEqual({ ok: true, value: 25 });
    expect(readLimit(2.5).ok).toBe(false);
    expect(readBoolean(1, 'with_header', false)).toEqual({ ok: true, value: true });
    expect(readBoolean('', 'with_header', false)).toEqual({ ok: true, value: false });
    expect(readQuery([['crm'], [''], ['  for  banks ']])).toEqual({ ok: true, value: 'crm for banks' });
    expect(readCompanyInput('Sales@Acme.CO.UK')).toEqual({ kind: 'company', key: 'acme.co.uk' });
    expect(readCompanyInput(42)).toEqual({ kind: 'invalid', message: 'Invalid domain: "42"' });
    expect(readCompanyInput('   ')).toEqual({ kind: 'blank' });
  });

  it('cuts long values to the cell limit and knows which texts are not a final answer', () => {
    expect((toFormulaCell('x'.repeat(60_000)) as string).length).toBe(50_000);
    expect(toFormulaCell({ a: 1 })).toBe('{"a":1}');
    expect(toFormulaCell(Number.NaN)).toBe('');
    expect(isUnfinishedCellText(CELL_TEXT.pending)).toBe(true);
    expect(isUnfinishedCellText('Rate limited, retry later')).toBe(true);
    expect(isUnfinishedCellText(CELL_TEXT.notFound)).toBe(false);
    expect(isUnfinishedCellText('Token rejected: check it in Settings')).toBe(true);
    expect(isUnfinishedCellText(CELL_TEXT.setup)).toBe(true);
    expect(isUnfinishedCellText('Invalid domain: "x"')).toBe(false);
  });
});
