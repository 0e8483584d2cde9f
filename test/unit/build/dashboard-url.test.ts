// The dashboard address a build links to: only an absolute https:// address without user info.
const { dashboardUrlFor } = require('../../../build/dashboard-url') as {
  dashboardUrlFor(value: string | undefined): string;
};

describe('dashboard URL of a build', () => {
  it('is empty without one and keeps an https address', () => {
    expect(dashboardUrlFor(undefined)).toBe('');
    expect(dashboardUrlFor('https://app.example.com/settings/api')).toBe('https://app.example.com/settings/api');
  });

  it('refuses what it should not link to', () => {
    expect(() => dashboardUrlFor('http://app.example.com/')).toThrow('must be an https:// address');
    expect(() => dashboardUrlFor('javascript:alert(1)')).toThrow('must be an https:// address');
    expect(() => dashboardUrlFor('https://user:pw@app.example.com/')).toThrow('without user info');
    expect(() => dashboardUrlFor('app.example.com')).toThrow('not an absolute URL');
  });
});
