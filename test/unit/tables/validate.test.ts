import { hasErrors, validateMapping, type MappingIssue } from '../../../src/tables/validate';
import { agent, draft } from './helpers';

const errors = (issues: MappingIssue[]) => issues.filter((issue) => issue.severity === 'error');
const on = (issues: MappingIssue[], row: number) => issues.filter((issue) => issue.row === row);

describe('validateMapping', () => {
  it('accepts the example of docs/guide/tables.md: input, research using it, LLM consuming the research', () => {
    const drafts = [
      draft('Domain'),
      agent('Research', 'Research the company at {input}: products, customers, pricing.'),
      agent('Pitch', 'Write a one-line pitch from {research}.', {
        agent: {
          agentType: 'llm',
          outputFormat: 'text',
          prompt: 'Write a one-line pitch from {research}.',
          labels: [],
          outputSchema: '',
        },
      }),
    ];
    expect(validateMapping(drafts)).toEqual([]);
  });

  it('needs at least one included column', () => {
    const issues = validateMapping([draft('A', { include: false })]);
    expect(issues).toEqual([
      { row: null, field: 'mapping', severity: 'error', message: 'Include at least one column' },
    ]);
  });

  it('flags duplicate keys on the later row only, naming the first', () => {
    const issues = validateMapping([draft('Domain'), draft('Website', { key: 'domain' })]);
    expect(on(issues, 0)).toEqual([]);
    expect(on(issues, 1)).toEqual([
      expect.objectContaining({ field: 'key', severity: 'error', message: expect.stringContaining('"Domain"') }),
    ]);
  });

  it('ignores duplicate keys of skipped columns', () => {
    expect(errors(validateMapping([draft('Domain'), draft('Website', { key: 'domain', include: false })]))).toEqual([]);
  });

  it('reports an unknown reference, with a suggestion when only the case differs', () => {
    const issues = validateMapping([draft('Domain'), agent('R', 'About {Domain} and {nothing}')]);
    expect(on(issues, 1).map((issue) => issue.message)).toEqual([
      'Unknown key {Domain}: did you mean {domain}?',
      'Unknown key {nothing}: no column has this key',
    ]);
    expect(on(issues, 1).every((issue) => issue.field === 'prompt')).toBe(true);
  });

  it('suggests the key a typo most likely meant, and nothing for a name far from every key (issue 29)', () => {
    const issues = validateMapping([
      draft('Company name'),
      draft('Domain'),
      agent('R', 'About {compnay_name}, {domian} and {xy}'),
    ]);
    expect(on(issues, 2).map((issue) => issue.message)).toEqual([
      'Unknown key {compnay_name}: did you mean {company_name}?',
      'Unknown key {domian}: did you mean {domain}?',
      'Unknown key {xy}: no column has this key',
    ]);
  });

  it('reports a reference to a column that comes later', () => {
    const issues = validateMapping([
      agent('Pitch', 'Pitch from {research}'),
      draft('Domain'),
      agent('Research', 'Research {domain}'),
    ]);
    expect(errors(issues)).toEqual([
      expect.objectContaining({
        row: 0,
        field: 'prompt',
        message: expect.stringMatching(/\{research\}.*"Research".*comes later/),
      }),
    ]);
  });

  it('reports a reference to a skipped column', () => {
    const issues = validateMapping([draft('Domain', { include: false }), agent('Research', 'Research {domain}')]);
    expect(errors(issues)).toEqual([expect.objectContaining({ row: 1, message: expect.stringContaining('skipped') })]);
  });

  it('reports cycles on every row of the cycle, instead of a later-column error', () => {
    const issues = validateMapping([
      agent('A', 'use {c}'),
      agent('B', 'use {a}'),
      agent('C', 'use {b}'),
      agent('D', 'use {a}'),
    ]);
    const cycle = errors(issues).filter((issue) => issue.message.startsWith('Reference cycle'));
    expect(cycle.map((issue) => issue.row)).toEqual([0, 1, 2]);
    expect(cycle[0].message).toBe('Reference cycle: {a} -> {b} -> {c} -> {a}');
    expect(errors(issues)).toHaveLength(3);
  });

  it('reports a self reference', () => {
    const issues = validateMapping([agent('A', 'improve {a}')]);
    expect(errors(issues)).toEqual([
      expect.objectContaining({ row: 0, field: 'prompt', message: 'Refers to its own key {a}' }),
    ]);
  });

  it('reports empty prompts, and warns about prompts without references', () => {
    const issues = validateMapping([agent('A', '   '), agent('B', 'Say hello')]);
    expect(issues).toEqual([
      expect.objectContaining({ row: 0, field: 'prompt', severity: 'error', message: 'Prompt is empty' }),
      expect.objectContaining({ row: 1, field: 'prompt', severity: 'warning' }),
    ]);
    expect(hasErrors(issues.filter((issue) => issue.row === 1))).toBe(false);
  });

  it("checks each kind's own fields", () => {
    const base = draft('X');
    const issues = validateMapping([
      draft('Grade', { kind: 'criterion_grade', criterion: ' ' }),
      draft('People', { kind: 'company_people_finder', roles: [' '], maxResults: 0 }),
      draft('Reverse', { kind: 'reverse_email_lookup', emailColumnKey: '' }),
      draft('Scores', { kind: 'discovery_scores', extraJson: '{"key": "x"}' }),
      draft('Name', { kind: 'company_name', extraJson: '[1]' }),
      agent('Select', 'pick for {input}', {
        agent: { ...base.agent, prompt: 'pick for {input}', outputFormat: 'select', labels: [] },
      }),
      agent('Json', 'describe {input}', {
        agent: { ...base.agent, prompt: 'describe {input}', outputFormat: 'json', outputSchema: '{"type": "array"}' },
      }),
      draft('', { name: ' ', key: 'Bad Key' }),
    ]);
    expect(errors(issues).map((issue) => [issue.row, issue.field])).toEqual(
      [
        [0, 'criterion'],
        [1, 'roles'],
        [1, 'maxResults'],
        [2, 'emailColumnKey'],
        [3, 'extraJson'],
        [4, 'extraJson'],
        [6, 'outputSchema'],
        [5, 'labels'],
      ]
        .sort((a, b) => (a[0] as number) - (b[0] as number))
        .concat([
          [7, 'name'],
          [7, 'key'],
        ]),
    );
  });

  it('treats the reverse e-mail column as a reference', () => {
    const ok = validateMapping([
      draft('Email'),
      draft('Who', { kind: 'reverse_email_lookup', emailColumnKey: 'email' }),
    ]);
    expect(errors(ok)).toEqual([]);
    const later = validateMapping([
      draft('Who', { kind: 'reverse_email_lookup', emailColumnKey: 'email' }),
      draft('Email'),
    ]);
    expect(errors(later)).toEqual([
      expect.objectContaining({ row: 0, field: 'emailColumnKey', message: expect.stringContaining('comes later') }),
    ]);
  });

  it("uses the table's known columns: before the new ones they can be referenced; after, not; same key warns", () => {
    const drafts = [agent('Summary', 'Summarize {research}'), draft('Domain')];
    // Push resolves it in the table; the dialog warns that a template could not (it holds only its own columns).
    expect(validateMapping(drafts, { existingBefore: ['research'] })).toEqual([
      {
        row: 0,
        field: 'prompt',
        severity: 'warning',
        message:
          'Uses {research} of the table: Push accepts it, Save as template does not (a template holds only its own columns)',
      },
    ]);
    expect(errors(validateMapping(drafts, { existingAfter: ['research'] }))).toEqual([
      expect.objectContaining({ row: 0, message: expect.stringContaining('after the new columns') }),
    ]);
    const warned = validateMapping(drafts, { existingBefore: ['research', 'domain'] });
    expect(warned).toEqual([
      expect.objectContaining({ row: 0, field: 'prompt', severity: 'warning' }),
      expect.objectContaining({ row: 1, field: 'key', severity: 'warning' }),
    ]);
    // Saved as a template, the same reference is an error, said the same way.
    expect(errors(validateMapping(drafts, { template: true }))).toEqual([
      expect.objectContaining({
        row: 0,
        message: 'Unknown key {research}: no column has this key (a template holds only its own columns)',
      }),
    ]);
  });
});
