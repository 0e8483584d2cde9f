// Issue 13 item 5 through the built bundle: =COMPANY_LOOKUP reads domains after UTS #46 mapping (full-width forms,
// ignored zero-width characters) and refuses what is not a hostname, against the sandbox over HTTP.
import { fillColumn, formulasSuite, values } from './helpers';

const suite = formulasSuite({ resetEachTest: false });

/** The full-width form of ASCII text (`stripe.com` -> `ｓｔｒｉｐｅ．ｃｏｍ`). */
const fullWidth = (text: string) => text.replace(/[!-~]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0xfee0));

describe('=COMPANY_LOOKUP domain input', () => {
  it('maps full-width and zero-width input to the company, and refuses underscore labels and doubled dots', async () => {
    const [a, b] = await suite.control.companies(2, true);
    const [first, ...rest] = a.domain.split('.');
    const inputs = [
      fullWidth(a.domain),
      `${first.slice(0, 2)}\u200B${first.slice(2)}.${rest.join('.')}`,
      `_dmarc.${b.domain}`,
      `${b.domain}..`,
    ];
    const runtime = suite.open();
    fillColumn(runtime, 'A', 1, inputs);
    runtime.userEdit('B1', '=COMPANY_LOOKUP(A1:A4, "domain,company_name")');
    expect(values(runtime, 'B1:C4')).toEqual([
      [a.domain, a.name],
      [a.domain, a.name],
      [`Invalid domain: "_dmarc.${b.domain}"`, ''],
      [`Invalid domain: "${b.domain}.."`, ''],
    ]);
    expect(await suite.control.lookupsServed()).toBe(1);
  });
});
