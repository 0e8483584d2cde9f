// The playground's demo spreadsheet: a "Companies" sheet of about 50 domains taken from the sandbox's index, written
// the way real sheets hold them (URLs, odd case, emails, a duplicate), plus a few blanks and bad values.
import type { GasRuntime } from '../gas-runtime';
import { SandboxControl } from '../sandbox/control-client';

const OWNERS = ['Ana', 'Ben', 'Chloe', 'Dev'];
const STAGES = ['Prospect', 'Qualified', 'Customer'];

/** How a user might have typed the n-th domain. */
function asTyped(domain: string, index: number): string {
  switch (index % 7) {
    case 1:
      return `https://www.${domain}/`;
    case 3:
      return domain.toUpperCase();
    case 5:
      return `sales@${domain}`;
    default:
      return domain;
  }
}

export async function demoRows(sandboxUrl: string): Promise<string[][]> {
  const companies = await new SandboxControl(sandboxUrl).companies(46, true);
  const rows = companies.map((company, index) => [
    asTyped(company.domain, index),
    OWNERS[index % OWNERS.length],
    STAGES[index % STAGES.length],
  ]);
  rows.splice(7, 0, ['', '', '']);
  rows.splice(15, 0, ['not a domain', 'Ben', 'Prospect']);
  rows.splice(23, 0, ['', 'Chloe', '']);
  rows.splice(31, 0, [companies[2]?.domain.toUpperCase() ?? '', 'Dev', 'Qualified']);
  return [['Domain', 'Account owner', 'Stage'], ...rows];
}

export async function fillDemoSpreadsheet(runtime: GasRuntime, sandboxUrl: string): Promise<void> {
  const rows = await demoRows(sandboxUrl);
  const model = runtime.spreadsheet;
  const sheet = model.sheets[0];
  sheet.name = 'Companies';
  sheet.setValues(`A1:C${rows.length}`, rows);
  model
    .insertSheet('Notes')
    .setValues('A1:A2', [
      ['Scratch space'],
      ['Type a formula such as =COMPANY_LOOKUP(Companies!A2:A6) in any empty cell'],
    ]);
}
