import { insertAfter, readPosition, readTableId, readTemplateId } from '../../../src/tables/targets';

describe('targets', () => {
  it('reads table IDs and pasted table URLs', () => {
    expect(readTableId(' tbl_123 ')).toEqual({ ok: true, id: 'tbl_123' });
    expect(readTableId('https://app.example.com/tables/tbl_9?view=grid#x')).toEqual({ ok: true, id: 'tbl_9' });
    expect(readTableId('')).toEqual({ ok: false, message: expect.stringContaining('Enter a table ID') });
    expect(readTableId('https://app.example.com/tasks/abc')).toEqual({
      ok: false,
      message: expect.stringContaining('/tables/<id>'),
    });
    expect(readTableId('two words')).toEqual({ ok: false, message: expect.stringContaining('no spaces') });
  });

  it('reads template IDs and pasted template URLs', () => {
    expect(readTemplateId('tpl_1')).toEqual({ ok: true, id: 'tpl_1' });
    expect(readTemplateId('https://app.example.com/templates/tpl%5F2/edit')).toEqual({ ok: true, id: 'tpl_2' });
    expect(readTemplateId('https://app.example.com/tables/x')).toEqual({
      ok: false,
      message: expect.stringContaining('/templates/<id>'),
    });
    expect(readTemplateId(' ').ok).toBe(false);
  });

  it('reads positions and maps them to insert_after', () => {
    const read = (raw: unknown) => {
      const result = readPosition(raw);
      return result.ok ? insertAfter(result.position) : result.message;
    };
    expect(read({ at: 'end' })).toBe(true);
    expect(read(undefined)).toBe(true);
    expect(read({ at: 'beginning' })).toBe(false);
    expect(read({ at: 'after', columnId: ' col_1 ' })).toBe('col_1');
    expect(read({ at: 'after', columnId: '' })).toMatch(/column ID/);
  });
});
