import {
  briefLength,
  columnNumber,
  parseTemplate,
  renderBrief as render,
  type ResolvedTemplate,
} from '../../../../src/research/brief/brief-template';
import { cellDomain } from '../../../../src/research/brief/brief-domains';
import { columnLetter } from '../../../../src/shared/a1';

/** Renders with the server's domain rules, as a launch does. */
const renderBrief = (template: ResolvedTemplate, row: readonly unknown[]) => render(template, row, cellDomain);

const headers = ['Company', 'Domain', 'Notes'];

describe('brief templates', () => {
  it('resolves headers case-insensitively and column letters', () => {
    const result = parseTemplate('Research {company} ({B}) about {Notes}', headers);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.template.columns).toEqual([1, 2, 3]);
    expect(renderBrief(result.template, ['Acme', 'acme.com', 'pricing'])).toEqual({
      kind: 'ok',
      brief: 'Research Acme (acme.com) about pricing',
    });
  });

  it('reports every unknown placeholder before anything is sent', () => {
    const result = parseTemplate('{Company} {Revenue} {ZZ}', headers);
    expect(result).toEqual({
      ok: false,
      errors: [expect.stringContaining('{Revenue}'), expect.stringContaining('{ZZ}')],
    });
  });

  it('supports literal braces and flags unclosed ones', () => {
    const ok = parseTemplate('JSON {{like}} {Company}', headers);
    expect(ok.ok && renderBrief(ok.template, ['Acme'])).toEqual({ kind: 'ok', brief: 'JSON {like} Acme' });
    expect(parseTemplate('Research {Company', headers).ok).toBe(false);
    expect(parseTemplate('a } b', headers).ok).toBe(false);
    expect(parseTemplate('', headers).ok).toBe(false);
  });

  it('skips rows whose referenced cells are blank and rejects over-long briefs', () => {
    const parsed = parseTemplate('Research {Company}', headers);
    if (!parsed.ok) throw new Error('parse');
    expect(renderBrief(parsed.template, ['  '])).toEqual({ kind: 'empty' });
    expect(renderBrief(parsed.template, ['x'.repeat(20000)])).toEqual({ kind: 'too_long', length: 20009 });
    const exact = parseTemplate('{A}', headers);
    if (!exact.ok) throw new Error('parse');
    expect(renderBrief(exact.template, ['y'.repeat(20000)]).kind).toBe('ok');
  });

  // Issue 13 item 6: the 20,000 "characters" are code points (a brief of astral characters was refused before).
  it('counts the brief in code points: 20,000 astral characters are sent, 20,001 are not', () => {
    const parsed = parseTemplate('{A}', headers);
    if (!parsed.ok) throw new Error('parse');
    const astral = '\u{1F600}'.repeat(19999) + '\u{20000}';
    expect(astral.length).toBe(40000);
    expect(briefLength(astral)).toBe(20000);
    expect(renderBrief(parsed.template, [astral])).toEqual({ kind: 'ok', brief: astral });
    expect(renderBrief(parsed.template, [`${astral}x`])).toEqual({ kind: 'too_long', length: 20001 });
    expect(briefLength('a\uD800b')).toBe(3);
  });

  it("keeps the cells' displayed text (the server reads display values)", () => {
    const parsed = parseTemplate('{A} | {B} | {C}', headers);
    if (!parsed.ok) throw new Error('parse');
    expect(renderBrief(parsed.template, ['42', 'TRUE', '$1,234.50'])).toEqual({
      kind: 'ok',
      brief: '42 | TRUE | $1,234.50',
    });
  });

  it('converts column letters both ways', () => {
    expect(columnNumber('A')).toBe(1);
    expect(columnNumber('AA')).toBe(27);
    expect(columnLetter(28)).toBe('AB');
    expect(columnLetter(702)).toBe('ZZ');
  });

  it('puts a domain, URL or e-mail cell in as its registered domain; {Header:raw} inserts the cell as it is', () => {
    const parsed = parseTemplate('Research {Domain} ({Domain:raw}) for {Company}, see {Notes}', headers);
    if (!parsed.ok) throw new Error(parsed.errors.join());
    expect(
      parsed.template.parts
        .filter((part) => part.kind === 'ref')
        .map((part) => part.kind === 'ref' && [part.column, part.raw]),
    ).toEqual([
      [2, false],
      [2, true],
      [1, false],
      [3, false],
    ]);
    expect(
      renderBrief(parsed.template, ['Wexix Software', 'sales@wexixsoftware.fr', 'Acme Inc. sells 42 things']),
    ).toEqual({
      kind: 'ok',
      brief: 'Research wexixsoftware.fr (sales@wexixsoftware.fr) for Wexix Software, see Acme Inc. sells 42 things',
    });
    expect(renderBrief(parsed.template, ['Murray', 'https://www.murraynikolaus.fr/', ''])).toEqual({
      kind: 'ok',
      brief: 'Research murraynikolaus.fr (https://www.murraynikolaus.fr/) for Murray, see',
    });
    // A header that itself ends in ":raw" is that header.
    const own = parseTemplate('{Note:raw}', ['Note:raw']);
    expect(own.ok && own.template.parts[0]).toEqual({ kind: 'ref', label: 'Note:raw', column: 1, raw: false });
  });
});
