// The digest's text: the spreadsheet linked, each sheet's changed rows and how (watch signals, refresh changes), what
// the period's runs cost; within DIGEST_CHARS whatever comes in, every sheet shown, the rows that do not fit counted
// (named + counted = every changed row); service text inert in Slack's and Google Chat's markup.
import { composeDigest, DIGEST_CHARS, type DigestInput } from '../../../src/digest/compose';
import { escapeFor } from '../../../src/digest/text';

const base = (overrides: Partial<DigestInput> = {}): DigestInput => ({
  service: 'slack',
  spreadsheet: { name: 'Pipeline 2026', url: 'https://docs.google.com/spreadsheets/d/abc/edit' },
  sheetName: (sheetId) => (sheetId === 1 ? 'Accounts' : sheetId === 2 ? 'Leads' : ''),
  from: 'Mon 2 Mar 08:00',
  to: 'Mon 9 Mar 08:00',
  time: () => 'Wed 4 Mar 06:00',
  signals: [],
  changes: [],
  runs: [],
  filled: [],
  idle: [],
  ...overrides,
});

const signal = (i: number, sheetId = 1) => ({
  sheetId,
  label: `company-${i}.com`,
  text: `employee_count 11-50 -> 51-200; new funding_stage: Series ${i}`,
  ref: 'w1:3',
});

describe('composeDigest', () => {
  it('names the spreadsheet with a link, the changed rows and how, and what the runs cost', () => {
    const digest = composeDigest(
      base({
        signals: [signal(1), signal(2)],
        changes: [
          {
            sheetId: 2,
            domain: 'stripe.com',
            occurrence: 1,
            header: 'Employees',
            before: '1001-5000',
            after: '5001-10000',
          },
          { sheetId: 2, domain: 'stripe.com', occurrence: 1, header: 'City', before: '', after: 'Dublin' },
        ],
        runs: [
          {
            kind: 'watch',
            startedBy: 'ana@x.com',
            at: 1,
            sheetId: 1,
            rows: 2,
            reserved: 20,
            charged: 12,
            givenBack: 8,
            open: 0,
          },
          {
            kind: 'launch',
            startedBy: 'ben@x.com',
            at: 2,
            sheetId: 2,
            rows: 1,
            reserved: 30,
            charged: 0,
            givenBack: 0,
            open: 1,
          },
        ],
      }),
    );
    expect(digest.text).toBe(
      [
        '*Sheet Scout digest* for <https://docs.google.com/spreadsheets/d/abc/edit|Pipeline 2026>, Mon 2 Mar 08:00 to Mon 9 Mar 08:00',
        '*Account watch, Accounts*: 2 rows changed',
        '• company-1.com: employee_count 11-50 -&gt; 51-200; new funding_stage: Series 1',
        '• company-2.com: employee_count 11-50 -&gt; 51-200; new funding_stage: Series 2',
        '*Keep data fresh, Leads*: 1 row changed',
        '• stripe.com: Employees 1001-5000 -&gt; 5001-10000; City (empty) -&gt; Dublin',
        '*What it cost*',
        '• Account watch run, Wed 4 Mar 06:00 (Accounts, 2 rows): 20 credits reserved, 12 charged, 8 given back',
        '• Research launch by ben@x.com, Wed 4 Mar 06:00 (Leads, 1 row): 30 credits reserved, 0 charged, 0 given back, 1 still running',
        '• Keep data fresh: company lookups, 0 credits',
        'Research in all: 50 credits reserved, 12 charged, 8 given back',
      ].join('\n'),
    );
    expect(digest).toMatchObject({ named: 3, counted: 0 });
  });

  it('stays within its limit: the rows that do not fit are counted, every sheet shown', () => {
    const signals = [
      ...Array.from({ length: 900 }, (_, i) => signal(i)),
      ...Array.from({ length: 40 }, (_, i) => signal(i, 2)),
    ];
    const digest = composeDigest(base({ signals }));
    expect(digest.text.length).toBeLessThanOrEqual(DIGEST_CHARS);
    expect(digest.named + digest.counted).toBe(940);
    expect(digest.named).toBeGreaterThan(10);
    const counted = [...digest.text.matchAll(/…and ([\d,]+) more changed rows? in (\w+)/g)];
    expect(counted.map((match) => match[2])).toEqual(['Accounts', 'Leads']);
    expect(counted.reduce((sum, match) => sum + Number(match[1].replace(/,/g, '')), 0)).toBe(digest.counted);
    expect(digest.text).toContain('*Account watch, Leads*: 40 rows changed');
    expect(digest.text).toContain('• company-0.com');
  });

  it('lists a row of one run once, and says so when nothing changed', () => {
    expect(composeDigest(base({ signals: [signal(1), signal(1)] })).named).toBe(1);
    const quiet = composeDigest(base());
    expect(quiet.text).toContain('No changes: the account watch and the refresh found nothing new.');
    expect(quiet.text).toContain('• No research ran: 0 credits');
  });

  it('makes service text inert: no link, mention or markup escapes', () => {
    expect(escapeFor('slack', '<!channel> & <https://evil|click>')).toBe(
      '&lt;!channel&gt; &amp; &lt;https://evil|click&gt;',
    );
    expect(escapeFor('chat', '<users/all> <https://evil|x>')).toBe('‹users/all› ‹https://evil|x›');
    const digest = composeDigest(
      base({
        service: 'chat',
        spreadsheet: { name: 'Q1 <users/all>|x', url: 'https://docs.google.com/spreadsheets/d/abc/edit' },
        signals: [{ sheetId: 1, label: '<users/all>', text: 'name Acme -> <https://evil|Acme>\nline', ref: 'w:1' }],
      }),
    );
    expect(digest.text).not.toMatch(/<users|<https:\/\/evil/);
    expect(digest.text).toContain('|Q1 ‹users/all›¦x>');
  });
});
