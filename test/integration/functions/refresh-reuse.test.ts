// "Refresh pending lookups" through the built bundle in the emulator against the sandbox, whether or not Sheets reuses
// a custom function's earlier result for a call with the same arguments (widely reported, not documented: the
// emulator's reuseIdenticalFormulaResults switch). The refresh enters each pending formula again with a refresh mark,
// a last argument the functions ignore, so either way the pending cells fill in.
import { SETTINGS_KEYS } from '../../../src/shared/connection';
import { fillColumn, formulasSuite, values } from './helpers';

describe.each([false, true])('Refresh pending lookups when Sheets reuses results of identical calls: %s', (reuse) => {
  const suite = formulasSuite({ behaviours: { reuseIdenticalFormulaResults: reuse } });

  it('fills in the cells that said "Enriching...", keeping the formula readable', async () => {
    const [pending] = await suite.control.companies(1, false);
    const [ready] = await suite.control.companies(1, true);
    const runtime = suite.open();
    fillColumn(runtime, 'A', 1, [ready.domain, pending.domain]);
    runtime.userEdit('B1', '=COMPANY_LOOKUP(A1:A2, "domain,company_name")');
    expect(values(runtime, 'B2:C2')).toEqual([['Enriching... try again in a minute', '']]);
    const config = await suite.control.call<{ enrichmentDelayMs: number }>('GET', '/_sandbox/config');
    await suite.control.advanceClock(config.enrichmentDelayMs + 1000);
    runtime.clickMenuItem('Sheet Scout', 'Formulas', 'Refresh pending lookups');
    expect(values(runtime, 'B1:C2')).toEqual([
      [ready.domain, ready.name],
      [pending.domain, pending.name],
    ]);
    expect(runtime.spreadsheet.sheet().getFormulas('B1')).toEqual([
      ['=COMPANY_LOOKUP(A1:A2, "domain,company_name", , "refresh 1")'],
    ]);
  });

  it('re-runs cells that said "Token rejected" once a valid token is shared, each refresh counting up', async () => {
    const [a] = await suite.control.companies(1, true);
    const runtime = suite.open('sbx_wrong_token');
    runtime.userEdit('B1', `=COMPANY_LOOKUP("${a.domain}", "domain")`);
    runtime.clickMenuItem('Sheet Scout', 'Formulas', 'Refresh pending lookups');
    expect(values(runtime, 'B1')).toEqual([['Token rejected: check it in Settings']]);
    runtime.properties.document.set(SETTINGS_KEYS.formulaToken, 'sbx_pro_token');
    runtime.clickMenuItem('Sheet Scout', 'Formulas', 'Refresh pending lookups');
    expect(values(runtime, 'B1')).toEqual([[a.domain]]);
    expect(runtime.spreadsheet.sheet().getFormulas('B1')).toEqual([
      [`=COMPANY_LOOKUP("${a.domain}", "domain", , "refresh 2")`],
    ]);
  });
});
