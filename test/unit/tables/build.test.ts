import { buildConfig, buildConfigs } from '../../../src/tables/build';
import { agent, draft } from './helpers';

describe('buildConfig', () => {
  const base = draft('X');
  it.each([
    [draft('Domain'), { kind: 'input', name: 'Domain', key: 'domain' }],
    [
      draft('Mail', { kind: 'email_finder', name: ' Work mail ' }),
      { kind: 'email_finder', name: 'Work mail', key: 'mail' },
    ],
    [draft('Phone', { kind: 'phone_finder' }), { kind: 'phone_finder', name: 'Phone', key: 'phone' }],
    [
      agent('Research', ' Research {input} '),
      {
        kind: 'agent',
        name: 'Research',
        key: 'research',
        value: { agent_type: 'research_pro', prompt: 'Research {input}', output_format: 'text' },
      },
    ],
    [
      agent('Tier', 'Tier of {input}', {
        agent: {
          ...base.agent,
          agentType: 'llm',
          prompt: 'Tier of {input}',
          outputFormat: 'multiselect',
          labels: [' A ', '', 'B'],
          outputSchema: '{"type":"object"}',
        },
      }),
      {
        kind: 'agent',
        name: 'Tier',
        key: 'tier',
        value: { agent_type: 'llm', prompt: 'Tier of {input}', output_format: 'multiselect', labels: ['A', 'B'] },
      },
    ],
    [
      agent('Facts', 'Facts on {input}', {
        agent: {
          ...base.agent,
          prompt: 'Facts on {input}',
          outputFormat: 'json',
          labels: ['ignored'],
          outputSchema: '{"type":"object","properties":{"ceo":{"type":"string"}}}',
        },
      }),
      {
        kind: 'agent',
        name: 'Facts',
        key: 'facts',
        value: {
          agent_type: 'research_pro',
          prompt: 'Facts on {input}',
          output_format: 'json',
          output_schema: { type: 'object', properties: { ceo: { type: 'string' } } },
        },
      },
    ],
    [
      draft('Fit', { kind: 'criterion_grade', criterion: ' Sells to banks ' }),
      { kind: 'criterion_grade', name: 'Fit', key: 'fit', value: { criterion: 'Sells to banks' } },
    ],
    [
      draft('People', { kind: 'company_people_finder', roles: ['CTO', ' '], maxResults: 3 }),
      { kind: 'company_people_finder', name: 'People', key: 'people', value: { roles: ['CTO'], max_results: 3 } },
    ],
    [
      draft('People', { kind: 'company_people_finder', roles: ['CEO'] }),
      { kind: 'company_people_finder', name: 'People', key: 'people', value: { roles: ['CEO'] } },
    ],
    [
      draft('Who', { kind: 'reverse_email_lookup', emailColumnKey: ' email ' }),
      { kind: 'reverse_email_lookup', name: 'Who', key: 'who', email_column_key: 'email' },
    ],
    [
      draft('Scores', { kind: 'discovery_scores', extraJson: '{"weights": {"fit": 2}}' }),
      { kind: 'discovery_scores', name: 'Scores', key: 'scores', weights: { fit: 2 } },
    ],
    [draft('Company', { kind: 'company_name' }), { kind: 'company_name', name: 'Company', key: 'company' }],
    [
      draft('Site', { kind: 'company_website', extraJson: ' ' }),
      { kind: 'company_website', name: 'Site', key: 'site' },
    ],
    [
      draft('Profile', { kind: 'company_profile', extraJson: '{"fields": ["hq_country"]}' }),
      { kind: 'company_profile', name: 'Profile', key: 'profile', fields: ['hq_country'] },
    ],
  ])('builds %#', (input, expected) => {
    expect(buildConfig(input)).toEqual(expected);
  });

  it('keeps only included drafts, remembering their rows', () => {
    const built = buildConfigs([
      draft('A', { include: false }),
      draft('B'),
      draft('C', { include: false }),
      draft('D'),
    ]);
    expect(built.configs.map((config) => config.key)).toEqual(['b', 'd']);
    expect(built.rows).toEqual([1, 3]);
  });
});
