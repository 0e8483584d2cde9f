import { requestPlan } from '../../../src/enrichment/contract';

describe('requestPlan', () => {
  it('is one day when the lookups fit what is left today, and counts the days of the rest at the daily budget', () => {
    expect(requestPlan(500, 500, 18_000)).toEqual({ requests: 500, leftToday: 500, dailyLimit: 18_000, days: 1 });
    expect(requestPlan(501, 500, 18_000).days).toBe(2);
    expect(requestPlan(20_000, 17_400, 18_000).days).toBe(2);
    expect(requestPlan(40_000, 1_000, 18_000).days).toBe(4);
    expect(requestPlan(0, 0, 18_000).days).toBe(1);
  });
});
