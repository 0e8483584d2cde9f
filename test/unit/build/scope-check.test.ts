// The build's scope check: the service methods a bundle calls against the manifest's oauthScopes.
const { checkScopes, serviceCalls } = require('../../../build/scope-check.js');

const EMAIL = 'https://www.googleapis.com/auth/userinfo.email';
const CURRENT_ONLY = 'https://www.googleapis.com/auth/spreadsheets.currentonly';

describe('scope check', () => {
  it('finds calls on the services, and a service handed to an adapter counts as every method it may call', () => {
    const code =
      'function a() { return Session.getEffectiveUser().getEmail(); }\n' +
      'function b() { return SpreadsheetApp.getActive().getRange("A1"); }\n' +
      'function c() { var x = SpreadsheetApp.DeveloperMetadataVisibility.DOCUMENT; return make(UrlFetchApp); }';
    expect(serviceCalls(code)).toEqual([
      'Session.getEffectiveUser',
      'SpreadsheetApp.getActive',
      'UrlFetchApp.fetch',
      'UrlFetchApp.fetchAll',
    ]);
  });

  it('names a call whose scope the manifest lacks, and a declared scope nothing needs', () => {
    const code = 'function a() { Session.getEffectiveUser(); SpreadsheetApp.getActive(); }';
    const lacking = checkScopes(code, { oauthScopes: [CURRENT_ONLY, 'https://www.googleapis.com/auth/drive'] });
    expect(lacking.missing).toEqual(['Session.getEffectiveUser']);
    expect(lacking.unused).toEqual(['https://www.googleapis.com/auth/drive']);
    expect(checkScopes(code, { oauthScopes: [CURRENT_ONLY, EMAIL] }).missing).toEqual([]);
  });
});
