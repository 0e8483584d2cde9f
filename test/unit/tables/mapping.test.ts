import { alignDrafts, readDraft, readDrafts } from '../../../src/tables/mapping';
import { draft } from './helpers';

describe('alignDrafts', () => {
  it('without a saved mapping offers every non-blank header as a skipped input with a unique key', () => {
    const aligned = alignDrafts(['Domain', '', 'Name', 'Name', ' Notes '], null);
    expect(aligned.drafts.map((d) => [d.header, d.occurrence, d.key, d.include, d.kind])).toEqual([
      ['Domain', 1, 'domain', false, 'input'],
      ['Name', 1, 'name', false, 'input'],
      ['Name', 2, 'name_2', false, 'input'],
      ['Notes', 1, 'notes', false, 'input'],
    ]);
    expect(aligned.columns).toEqual([1, 3, 4, 5]);
    expect(aligned.saved).toBe(false);
  });

  it('follows headers to their new columns, adds new headers skipped, keeps vanished ones aside', () => {
    const saved = [draft('Domain'), { ...draft('Research'), kind: 'agent' as const, key: 'domain_2' }, draft('Gone')];
    const aligned = alignDrafts(['New', 'Research', 'Domain'], saved);
    expect(aligned.drafts.map((d) => [d.header, d.key, d.include, d.kind])).toEqual([
      ['New', 'new', false, 'input'],
      ['Research', 'domain_2', true, 'agent'],
      ['Domain', 'domain', true, 'input'],
    ]);
    expect(aligned.missing.map((d) => d.header)).toEqual(['Gone']);
  });

  it('gives new headers keys that saved drafts do not use', () => {
    const aligned = alignDrafts(['Domain', 'domain'], [draft('Domain')]);
    expect(aligned.drafts[1].key).toBe('domain_2');
  });
});

describe('readDraft', () => {
  it('restores defaults and drops unknown values', () => {
    const read = readDraft({
      header: 'Research',
      kind: 'nope',
      include: 'yes',
      agent: { agentType: 'gpt', outputFormat: 'url', labels: ['a', 3] },
      maxResults: 'x',
    });
    expect(read).toEqual(
      expect.objectContaining({
        header: 'Research',
        occurrence: 1,
        kind: 'input',
        include: false,
        name: 'Research',
        key: '',
        maxResults: null,
      }),
    );
    expect(read!.agent).toEqual({
      agentType: 'research_pro',
      outputFormat: 'url',
      prompt: '',
      labels: ['a'],
      outputSchema: '',
    });
  });

  it('refuses entries without a header and keeps the first of repeated identities', () => {
    expect(readDraft({ header: '  ' })).toBeNull();
    expect(readDraft('x')).toBeNull();
    const drafts = readDrafts([
      { header: 'A', key: 'first' },
      { header: 'A', key: 'second' },
      { header: 'A', occurrence: 2, key: 'third' },
      null,
    ]);
    expect(drafts.map((d) => d.key)).toEqual(['first', 'third']);
    expect(readDrafts('nope')).toEqual([]);
  });

  it('round-trips a full draft', () => {
    const full = {
      ...draft('Research'),
      kind: 'agent' as const,
      include: true,
      maxResults: 4,
      roles: ['CEO'],
      agent: {
        agentType: 'llm' as const,
        outputFormat: 'select' as const,
        prompt: 'p {input}',
        labels: ['x'],
        outputSchema: '{}',
      },
    };
    expect(readDraft(JSON.parse(JSON.stringify(full)))).toEqual(full);
  });
});
