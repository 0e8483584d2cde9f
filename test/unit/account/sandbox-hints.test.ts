// The panels' hints for the local sandbox (src/account/contract.ts SANDBOX_HINTS) name what the sandbox accepts: the
// Settings hint every token of its seeded accounts (dev/sandbox/accounts.ts), the Tables hints tables and a template
// of the account they name.
import { SANDBOX_HINTS } from '../../../src/account/contract';
import { Accounts } from '../../../dev/sandbox/accounts';

it('names every token the sandbox accepts, and no other', () => {
  const tokens = new Accounts().all().map((account) => account.token);
  const named = SANDBOX_HINTS.token.match(/\bsbx_\w+/g) ?? [];
  expect([...named].sort()).toEqual([...tokens].sort());
  for (const hint of [SANDBOX_HINTS.table, SANDBOX_HINTS.template])
    for (const token of hint.match(/\bsbx_\w+/g) ?? []) expect(tokens).toContain(token);
});
