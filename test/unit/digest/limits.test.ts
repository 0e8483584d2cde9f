// Issue 45, point 5: every digest fits its limit whatever the names and the service's text (a 5,000-character or
// 40,000-'&' spreadsheet name, 60 sheets with long names, emoji, control and bidi characters), measured as posted:
// Slack's text after escaping within DIGEST_CHARS, Google Chat's body within 32,000 bytes; clips never split a code
// point or an entity; nothing but the link is markup; every changed row is named or counted. A seeded property test
// over hostile corpora, and the cases.
import fc from 'fast-check';
import { composeDigest, DIGEST_CHARS, type DigestInput } from '../../../src/digest/compose';
import { clipEscaped, plainText } from '../../../src/digest/text';

const CHAT_BYTES = 32_000;
const URL = 'https://docs.google.com/spreadsheets/d/1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefgh/edit';

/** Pieces of text a digest must survive: markup, entities, emoji, controls, bidi, lone surrogates, separators. */
const HOSTILE = [
  '&',
  '&amp;',
  '<',
  '>',
  '<!channel>',
  '<https://evil.example|click>',
  '|',
  '*bold*',
  '_',
  '~',
  '`',
  '👨‍👩‍👧‍👦',
  '😀',
  '🇫🇷',
  'é',
  '\u0301',
  '\u202E',
  '\u202A',
  '\u2066',
  '\u2069',
  '\u200F',
  '\u061C',
  '\u200B',
  '\uFEFF',
  '\u0000',
  '\u0007',
  '\u001B[31m',
  '\u0085',
  '\u2028',
  '\u2029',
  '\n',
  '\r\n',
  '\t',
  '\uD800',
  '\uDFFF',
  '\uDBFF\uDFFF',
  '中文',
  'עברית',
  ' ',
  'Acme Inc.',
];

/** Text built from hostile pieces, repeated: up to `max` pieces. */
const hostile = (max: number) =>
  fc
    .array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: 'binary', maxLength: 20 })), { maxLength: max })
    .chain((pieces) =>
      fc.integer({ min: 1, max: 300 }).map((times) => pieces.join('').repeat(pieces.length > 3 ? 1 : times)),
    );

const sheetIds = fc.integer({ min: 1, max: 60 });

const input: fc.Arbitrary<DigestInput> = fc
  .record({
    service: fc.constantFrom<'slack' | 'chat'>('slack', 'chat'),
    name: fc.oneof(hostile(40), fc.constant('&'.repeat(40_000)), fc.constant('x'.repeat(5_000))),
    sheetNames: fc.array(fc.oneof(hostile(20), fc.constant('Sheet with a long name '.repeat(12))), {
      minLength: 60,
      maxLength: 60,
    }),
    time: fc.oneof(fc.constant('Mon 2 Mar 08:00'), hostile(10)),
    signals: fc.array(
      fc.record({
        sheetId: sheetIds,
        label: hostile(10),
        text: hostile(30),
        ref: fc.constantFrom('w1:1', 'w1:2', 'w2:1'),
      }),
      { maxLength: 150 },
    ),
    changes: fc.array(
      fc.record({
        sheetId: sheetIds,
        domain: hostile(5),
        occurrence: fc.integer({ min: 1, max: 3 }),
        header: hostile(5),
        before: hostile(10),
        after: hostile(10),
      }),
      { maxLength: 80 },
    ),
    runs: fc.array(
      fc.record({
        kind: fc.constantFrom('launch' as const, 'watch' as const, 'send-anyway' as const, 'new-rows' as const),
        startedBy: hostile(10),
        at: fc.integer({ min: 0, max: 1e12 }),
        sheetId: sheetIds,
        rows: fc.nat(10_000),
        reserved: fc.nat(1e7),
        charged: fc.nat(1e7),
        givenBack: fc.nat(1e7),
        open: fc.nat(1000),
      }),
      { maxLength: 20 },
    ),
    filled: fc.array(fc.record({ sheetId: sheetIds, rows: fc.integer({ min: 1, max: 1e5 }) }), { maxLength: 60 }),
    idle: fc.array(
      fc.record({
        kind: fc.constantFrom('refresh' as const, 'watch' as const, 'new-rows' as const),
        sheetId: sheetIds,
        at: fc.nat(1e12),
        why: hostile(20),
      }),
      { maxLength: 30 },
    ),
  })
  .map(({ name, sheetNames, time, ...rest }) => ({
    ...rest,
    spreadsheet: { name, url: URL },
    sheetName: (sheetId: number) => sheetNames[sheetId - 1] ?? '',
    from: time,
    to: time,
    time: () => time,
  }));

/** A lone surrogate (a split emoji) anywhere in the text. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Controls, separators and format characters (bidi, zero-width) other than the digest's own line breaks. */
const FORBIDDEN = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** Distinct changed rows of the input (a row of one run once; a refreshed row once). */
function changedRows(digest: DigestInput): number {
  const signals = new Set(digest.signals.map((item) => `${item.ref}\u0000${item.sheetId}\u0000${item.label}`));
  const rows = new Set(
    digest.changes.map((change) => `${change.sheetId}\u0000${change.domain}\u0000${change.occurrence}`),
  );
  return signals.size + rows.size;
}

/** What the digest's own "…and" lines count of changed rows. */
function countedRows(text: string): number {
  let counted = 0;
  for (const line of text.split('\n')) {
    const rows = /^…and ([\d,]+) more changed rows? in /.exec(line);
    const sheets = /^…and [\d,]+ more sheets with ([\d,]+) rows? changed$/.exec(line);
    counted += Number((rows?.[1] ?? sheets?.[1] ?? '0').replace(/,/g, ''));
  }
  return counted;
}

function checkLimits(digestInput: DigestInput): void {
  const digest = composeDigest(digestInput);
  const text = digest.text;
  expect(text.length).toBeLessThanOrEqual(DIGEST_CHARS);
  if (digestInput.service === 'chat')
    expect(Buffer.byteLength(JSON.stringify({ text }), 'utf8')).toBeLessThanOrEqual(CHAT_BYTES);
  expect(LONE_SURROGATE.test(text)).toBe(false);
  expect(FORBIDDEN.test(text.replace(/\n/g, ''))).toBe(false);
  // The only markup that is not the digest's own bold: the spreadsheet's link, once.
  const outsideLink = text.replace(`<${URL}|`, '').replace(/^(\*Sheet Scout digest\* for [^\n]*?)>, /, '$1, ');
  if (digestInput.service === 'slack') {
    expect(outsideLink).not.toMatch(/[<>]/);
    expect(text).not.toMatch(/&(?!amp;|lt;|gt;)/);
  } else expect(outsideLink).not.toMatch(/[<>]/);
  // Every changed row is named or counted.
  expect(digest.named + digest.counted).toBe(changedRows(digestInput));
  expect(countedRows(text)).toBe(digest.counted);
}

describe('the digest within its limits, whatever it is given (issue 45, point 5)', () => {
  it('holds for hostile names and service text (seeded property test)', () => {
    fc.assert(
      fc.property(input, (digestInput) => checkLimits(digestInput)),
      { numRuns: 250, seed: 45_5 },
    );
  });

  const base = (overrides: Partial<DigestInput>): DigestInput => ({
    service: 'slack',
    spreadsheet: { name: 'Pipeline', url: URL },
    sheetName: (sheetId) => `Sheet ${sheetId}`,
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
  const signal = (sheetId: number, i: number) => ({
    sheetId,
    label: `company-${i}.com`,
    text: 'employee_count 11-50 -> 51-200',
    ref: 'w1:1',
  });

  it("holds for the issue's cases: a 5,000-character name, 60 long sheet names, a name of 40,000 '&'", () => {
    const signals = Array.from({ length: 60 }, (_, sheet) => [signal(sheet + 1, 1), signal(sheet + 1, 2)]).flat();
    const long = (sheetId: number) => `${'Quarterly pipeline review of accounts '.repeat(20)}${sheetId}`;
    for (const service of ['slack', 'chat'] as const)
      for (const name of ['x'.repeat(5_000), '&'.repeat(40_000), 'Pipeline'])
        for (const sheetName of [long, (sheetId: number) => `Sheet ${sheetId}`]) {
          const digestInput = base({ service, spreadsheet: { name, url: URL }, sheetName, signals });
          checkLimits(digestInput);
          // Rows are named, not every one reduced to a count.
          expect(composeDigest(digestInput).named).toBeGreaterThan(0);
        }
    const amp = composeDigest(base({ spreadsheet: { name: '&'.repeat(40_000), url: URL } })).text;
    expect(amp.split('\n')[0]).toMatch(/^\*Sheet Scout digest\* for <https:[^|]+\|(&amp;){1,25}…>, Mon 2 Mar 08:00/);
  });

  it('clips by code points and drops control and bidi characters', () => {
    const family = '👨‍👩‍👧‍👦';
    for (let units = 1; units < 30; units++) {
      const clipped = clipEscaped('slack', `${'😀'.repeat(20)}&`, units);
      expect(clipped.length).toBeLessThanOrEqual(units);
      expect(LONE_SURROGATE.test(clipped)).toBe(false);
      expect(clipped).not.toMatch(/&(?!amp;)/);
    }
    expect(plainText(`Acme\u202E moc.live\u202C ${family}\u0000\u001B[31m\nnext`)).toBe(
      'Acme moc.live 👨👩👧👦 [31m next',
    );
    const digest = composeDigest(
      base({ signals: [{ sheetId: 1, label: 'evil\u202Ecom.acme', text: 'x\u2066y\u2069 \u0007', ref: 'w:1' }] }),
    );
    expect(digest.text).toContain('• evilcom.acme: xy');
  });
});
