// userMessage: one short, stable, actionable sentence per error kind.

import { userMessage, type ApiError } from '../../../src/api/errors';

const everyKind: ApiError[] = [
  { kind: 'no_token' },
  { kind: 'bad_base_url', reason: 'x' },
  { kind: 'invalid_input', reason: 'missing company domain or ID' },
  { kind: 'unauthorized' },
  { kind: 'forbidden' },
  { kind: 'not_found' },
  { kind: 'validation', detail: [] },
  { kind: 'plan_required', action: null },
  { kind: 'insufficient_credits', required: 30, available: 12, action: null },
  { kind: 'payment_failed', action: null },
  { kind: 'payment_required', action: null },
  { kind: 'rate_limited', retryAfterSeconds: 5 },
  { kind: 'unavailable', status: 503 },
  { kind: 'rejected', status: 409 },
  { kind: 'network', maybeSent: true, detail: 'Address unavailable' },
  { kind: 'timeout', maybeSent: true, detail: 'Timeout' },
  { kind: 'ambiguous', cause: 'timeout', detail: 'Timeout' },
  { kind: 'quota', detail: 'Service invoked too many times for one day: urlfetch.' },
  { kind: 'platform_error', detail: 'You do not have permission' },
  { kind: 'bad_response', status: 200, reason: 'invalid JSON' },
];

describe('userMessage', () => {
  test('gives the agreed cell texts', () => {
    expect(userMessage({ kind: 'no_token' })).toBe('Set up Sheet Scout: Extensions > Sheet Scout > Settings');
    expect(userMessage({ kind: 'unauthorized' })).toBe('Token rejected: check it in Settings');
    expect(userMessage({ kind: 'rate_limited' })).toBe('Rate limited, retry later');
    expect(userMessage({ kind: 'insufficient_credits', required: 50, available: 12, action: 'Top up' })).toBe(
      'Needs 50 credits, you have 12: try a lower depth',
    );
    expect(userMessage({ kind: 'insufficient_credits', required: null, available: 3, action: null })).toBe(
      'Not enough credits: try a lower depth',
    );
  });

  test('is stable: the same cause gives the same text whatever the incidental details', () => {
    expect(userMessage({ kind: 'rate_limited', retryAfterSeconds: 5 })).toBe(userMessage({ kind: 'rate_limited' }));
    expect(userMessage({ kind: 'network', maybeSent: true, detail: 'a' })).toBe(
      userMessage({ kind: 'network', maybeSent: false, detail: 'b' }),
    );
    expect(userMessage({ kind: 'unavailable', status: 502 })).toBe(userMessage({ kind: 'unavailable', status: 503 }));
  });

  test('every kind has a distinct, short, single-line sentence', () => {
    const messages = everyKind.map(userMessage);
    expect(new Set(messages).size).toBe(everyKind.length);
    for (const message of messages) {
      expect(message.length).toBeGreaterThan(10);
      expect(message.length).toBeLessThanOrEqual(120);
      expect(message).not.toMatch(/\n/);
    }
  });

  test('validation names the first issue and its field, clipped to a cell-friendly length', () => {
    const detail = [
      { loc: ['body', 'brief'], msg: 'String should have at least 1 character', type: 'string_too_short' },
      { loc: ['body', 'depth'], msg: 'Input should be medium, high or xhigh', type: 'enum' },
    ];
    expect(userMessage({ kind: 'validation', detail })).toBe(
      'Rejected by the service: String should have at least 1 character (brief)',
    );
    const long = [{ loc: ['query', 'filters'], msg: 'x'.repeat(300), type: 'value_error' }];
    expect(userMessage({ kind: 'validation', detail: long })).toHaveLength(120);
    expect(userMessage({ kind: 'validation', detail: [] })).toBe('Rejected by the service: check the inputs');
  });

  test('does not expose platform or server details', () => {
    expect(
      userMessage({ kind: 'network', maybeSent: true, detail: 'Address unavailable: https://internal' }),
    ).not.toContain('internal');
    expect(userMessage({ kind: 'bad_response', status: 200, reason: 'task field id is missing' })).not.toContain(
      'task field',
    );
  });
});
