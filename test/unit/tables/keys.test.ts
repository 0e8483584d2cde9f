import { keyProblem, promptReferences, renameReference, slugify, uniqueKey } from '../../../src/tables/keys';

describe('slugify', () => {
  it.each([
    ['Company Domain', 'company_domain'],
    ['  Website URL  ', 'website_url'],
    ['Société Générale', 'societe_generale'],
    ['2024 Revenue ($)', 'col_2024_revenue'],
    ['!!!', 'column'],
    ['Input', 'input_column'],
    ['a'.repeat(100), 'a'.repeat(64)],
  ])('%p -> %p', (header, slug) => {
    expect(slugify(header)).toBe(slug);
    expect(keyProblem(slug)).toBeNull();
  });
});

describe('uniqueKey', () => {
  it('suffixes repeated slugs and records what it hands out', () => {
    const taken = new Set<string>(['domain']);
    expect(uniqueKey('Domain', taken)).toBe('domain_2');
    expect(uniqueKey('domain', taken)).toBe('domain_3');
    expect(uniqueKey('Name', taken)).toBe('name');
    expect([...taken].sort()).toEqual(['domain', 'domain_2', 'domain_3', 'name']);
  });

  it('keeps suffixed long keys within 64 characters', () => {
    const taken = new Set<string>();
    uniqueKey('x'.repeat(80), taken);
    const second = uniqueKey('x'.repeat(80), taken);
    expect(second).toHaveLength(64);
    expect(second.endsWith('_2')).toBe(true);
  });
});

describe('keyProblem', () => {
  it.each([
    ['', /empty/],
    ['input', /reserved/],
    ['Company', /lower-case/],
    ['1st', /lower-case/],
    ['has space', /lower-case/],
    ['dash-ed', /lower-case/],
    ['k'.repeat(65), /longer/],
  ])('rejects %p', (key, message) => {
    expect(keyProblem(key)).toMatch(message);
  });

  it('accepts snake case keys', () => {
    expect(keyProblem('research_2')).toBeNull();
  });
});

describe('promptReferences', () => {
  it('finds {input} and {key} references in order, ignoring JSON-like braces', () => {
    const prompt = 'Research {input}; use {company_research} and {input}. Answer as {"a": 1} or { spaced }.';
    expect(promptReferences(prompt).map((ref) => ref.name)).toEqual(['input', 'company_research', 'input']);
    expect(promptReferences(prompt)[1].index).toBe(prompt.indexOf('{company_research}'));
  });

  it('renames one key everywhere and leaves others alone', () => {
    expect(renameReference('{a} then {ab} then {a}', 'a', 'z')).toBe('{z} then {ab} then {z}');
  });
});
