// Contract tests over HTTP: authentication (spec 5), the user object (2.4), routing and versioning (9).
import { sandboxPerFile, TOKENS } from './sandbox-client';

const sandbox = sandboxPerFile();

/** One request per endpoint of the interface (plus read-backs), valid apart from authentication. */
const ENDPOINTS: [string, string, unknown][] = [
  ['GET', '/v1/user', undefined],
  ['POST', '/v1/deep_research_tasks', { brief: 'Research acme.com' }],
  ['GET', '/v1/deep_research_tasks', undefined],
  ['GET', '/v1/deep_research_tasks/00000000-0000-4000-8000-000000000000', undefined],
  ['GET', '/v1/companies/example.com', undefined],
  ['GET', '/v1/companies/search?q=payroll', undefined],
  ['POST', '/v1/companies/search', { q: 'payroll' }],
  ['GET', '/v1/companies/example.com/similar', undefined],
  ['POST', '/v1/companies/example.com/similar', {}],
  ['POST', '/v1/tables/tbl_labs_companies/columns', { column_configs: [{ kind: 'input', name: 'A', key: 'a' }] }],
  ['GET', '/v1/tables/tbl_labs_companies', undefined],
  ['PUT', '/v1/templates/tpl_labs_account_research', { column_configs: [{ kind: 'input', name: 'A', key: 'a' }] }],
  ['GET', '/v1/templates/tpl_labs_account_research', undefined],
];

describe('authentication (spec 5)', () => {
  test.each(ENDPOINTS)(
    '%s %s answers 401 without a token, with a bad token and without the Bearer prefix',
    async (method, path, body) => {
      const missing = await sandbox.call(method, path, { token: null, body });
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toBe('Bearer');
      expect(typeof missing.body.detail).toBe('string');
      expect((await sandbox.call(method, path, { token: 'not-a-token', body })).status).toBe(401);
      expect(
        (await sandbox.call(method, path, { token: null, body, headers: { authorization: TOKENS.pro } })).status,
      ).toBe(401);
      expect(
        (await sandbox.call(method, path, { token: null, body, headers: { authorization: `Token ${TOKENS.pro}` } }))
          .status,
      ).toBe(401);
    },
  );

  test('a valid token is accepted on the check endpoint', async () => {
    const reply = await sandbox.call('GET', '/v1/user');
    expect(reply.status).toBe(200);
  });

  test('401 responses do not create or charge anything', async () => {
    await sandbox.call('POST', '/v1/deep_research_tasks', { token: 'bad', body: { brief: 'Research acme.com' } });
    expect(await sandbox.credits()).toBe(500);
    expect((await sandbox.call('GET', '/v1/deep_research_tasks')).body).toEqual([]);
  });
});

describe('user object (spec 2.4, 4.4)', () => {
  test('sandbox-pro: Pro account with 500 credits in an organization', async () => {
    const { status, body } = await sandbox.call('GET', '/v1/user');
    expect(status).toBe(200);
    expect(body).toEqual({
      user_id: 'usr_sandbox_pro',
      email: 'pro@sandbox.example.com',
      available_credits: 500,
      organization_id: 'org_sandbox_labs',
      organization_name: 'Sandbox Labs',
      organization_slug: 'sandbox-labs',
    });
  });

  test('sandbox-solo: 200 credits and null organization fields', async () => {
    const { body } = await sandbox.call('GET', '/v1/user', { token: TOKENS.solo });
    expect(body.available_credits).toBe(200);
    expect(body.organization_id).toBeNull();
    expect(body.organization_name).toBeNull();
    expect(body.organization_slug).toBeNull();
  });

  test.each([
    [TOKENS.free, 'usr_sandbox_free', 100],
    [TOKENS.low, 'usr_sandbox_low', 12],
    [TOKENS.rival, 'usr_sandbox_rival', 500],
    [TOKENS.pro2, 'usr_sandbox_pro_2', 500],
  ])('token %s belongs to %s with %d credits', async (token, userId, credits) => {
    const { body } = await sandbox.call('GET', '/v1/user', { token });
    expect(body.user_id).toBe(userId);
    expect(body.available_credits).toBe(credits);
    expect(typeof body.email).toBe('string');
  });

  test("the second member shares the first member's organization, the rival does not", async () => {
    const pro2 = (await sandbox.call('GET', '/v1/user', { token: TOKENS.pro2 })).body;
    const rival = (await sandbox.call('GET', '/v1/user', { token: TOKENS.rival })).body;
    expect(pro2.organization_id).toBe('org_sandbox_labs');
    expect(rival.organization_id).not.toBe('org_sandbox_labs');
  });

  test('credits set through the control API show in available_credits', async () => {
    await sandbox.control('POST', 'accounts/sandbox-pro', { credits: 42 });
    expect(await sandbox.credits()).toBe(42);
  });
});

describe('routing and versioning (spec 9)', () => {
  test('paths carry the /v1 prefix; unversioned paths are not served', async () => {
    expect((await sandbox.call('GET', '/user')).status).toBe(404);
    expect((await sandbox.call('GET', '/v2/user')).status).toBe(404);
  });

  test('unknown paths answer 404 and wrong methods 405, with a FastAPI detail body', async () => {
    const unknown = await sandbox.call('GET', '/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Not Found' });
    const wrongMethod = await sandbox.call('DELETE', '/v1/user');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body).toEqual({ detail: 'Method Not Allowed' });
  });

  test('responses are JSON', async () => {
    const reply = await sandbox.call('GET', '/v1/user');
    expect(reply.headers.get('content-type')).toBe('application/json');
  });
});
