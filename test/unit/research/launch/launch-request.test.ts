import { resolveOutput } from '../../../../src/research/launch/launch-request';
import { outputClashes } from '../../../../src/research/brief/brief-template';
import { linkCitations, safeUrl } from '../../../../sidebar/research/citations';

describe('launch request output', () => {
  it('maps a report output and refuses clashing columns', () => {
    expect(
      resolveOutput({ kind: 'report', statusHeader: 'Status', reportHeader: ' Report ', sourcesHeader: null }),
    ).toEqual({
      ok: true,
      schema: null,
      mapping: { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: null },
      headers: ['Status', 'Report'],
    });
    expect(
      resolveOutput({ kind: 'report', statusHeader: 'Status', reportHeader: 'Status', sourcesHeader: 'S' }),
    ).toEqual({ ok: false, errors: ['Status, report and sources need different columns'] });
  });

  it('maps builder fields to columns (default: the field name) and pasted schemas', () => {
    const built = resolveOutput({
      kind: 'fields',
      statusHeader: 'Status',
      fields: [
        { name: 'employees', type: 'integer', required: true, evidence: false },
        { name: 'hq', type: 'string', required: false, evidence: true },
      ],
      columns: { hq: 'Headquarters' },
    });
    expect(built.ok && built.mapping.fields).toEqual([
      { name: 'employees', header: 'employees' },
      { name: 'hq', header: 'Headquarters' },
    ]);
    const pasted = resolveOutput({
      kind: 'fields',
      statusHeader: 'Status',
      schemaText: '{"type":"object","properties":{"a":{"type":"string"}}}',
    });
    expect(pasted.ok && pasted.headers).toEqual(['Status', 'a']);
    expect(
      resolveOutput({
        kind: 'fields',
        statusHeader: 'a',
        schemaText: '{"type":"object","properties":{"a":{"type":"string"}}}',
      }).ok,
    ).toBe(false);
    expect(resolveOutput(undefined).ok).toBe(false);
  });
});

describe('output columns', () => {
  it('refuses to write results into a column the brief reads', () => {
    expect(outputClashes(['Status', 'Company'], ['Company', 'Domain'], [1])).toEqual([
      '"Company" is read by the brief: choose another column for the results',
    ]);
    expect(outputClashes(['Status', 'Domain'], ['Company', 'Domain'], [1])).toEqual([]);
  });
});

describe('report citations', () => {
  it('links [n] to its source when the URL is http(s), and leaves the rest alone', () => {
    const sources = [
      { id: 1, url: 'https://a.example/x' },
      { id: 2, url: 'javascript:alert(1)' },
    ];
    expect(linkCitations('See [1] and [2] and [3]; [1](https://x) stays.', sources)).toBe(
      'See [\\[1\\]](<https://a.example/x>) and [2] and [3]; [1](https://x) stays.',
    );
    expect(linkCitations('Both [1][1].', sources)).toBe(
      'Both [\\[1\\]](<https://a.example/x>)[\\[1\\]](<https://a.example/x>).',
    );
    expect(linkCitations('[1]: https://def.example', sources)).toBe('[1]: https://def.example');
    expect(safeUrl('http://ok.example')).toBe('http://ok.example');
    expect(safeUrl('data:text/html,x')).toBeNull();
  });
});
