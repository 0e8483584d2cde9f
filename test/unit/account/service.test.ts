import { AccountService, NOTES, type ClientFactory } from '../../../src/account/service';
import { readCachedLookups, writeCachedLookups } from '../../../src/companies/profile-cache';
import { SETTINGS_KEYS } from '../../../src/shared/connection';
import { createServiceClient } from '../../../src/api/client';
import type { HttpOutcome, HttpPort, HttpRequest } from '../../../src/ports';
import { ManualClock, MemoryCache, MemoryStore } from '../../fakes/ports';

const USER = {
  user_id: 'u1',
  email: 'jane@acme.test',
  available_credits: 500,
  organization_id: 'o1',
  organization_name: 'Acme',
  organization_slug: 'acme',
};

/** A service that knows one good token; records every request. */
class FakeService implements HttpPort {
  readonly requests: HttpRequest[] = [];
  down = false;
  fetchAll(requests: HttpRequest[]): HttpOutcome[] {
    return requests.map((request) => {
      this.requests.push(request);
      if (this.down) return { ok: false, error: 'Address unavailable', maybeSent: false };
      if (!request.url.endsWith('/v1/user'))
        return { ok: true, status: 404, headers: {}, body: '{"detail":"Not Found"}' };
      const good = request.headers.Authorization === 'Bearer good-token';
      return good
        ? { ok: true, status: 200, headers: {}, body: JSON.stringify(USER) }
        : { ok: true, status: 401, headers: {}, body: '{"detail":"Unauthorized"}' };
    });
  }
}

function setup(urlAllowlist: string[] = []) {
  const stores = { user: new MemoryStore(), document: new MemoryStore() };
  const http = new FakeService();
  const clientFor: ClientFactory = (settings) =>
    createServiceClient({ http, clock: new ManualClock(), settings, retry: { maxAttempts: 1 } });
  const cache = new MemoryCache();
  const service = new AccountService(stores, clientFor, { formulaCache: cache, urlAllowlist, dashboardUrl: '' });
  return { stores, http, service, cache };
}

const BASE = 'https://api.service.test';

describe('AccountService', () => {
  it('verifies a token with GET /v1/user before saving it, then reports the account', () => {
    const { stores, http, service } = setup();
    const state = service.save('  Bearer good-token ', BASE);
    expect(http.requests.map((r) => r.url)).toEqual([`${BASE}/v1/user`]);
    expect(stores.user.get(SETTINGS_KEYS.token)).toBe('good-token');
    expect(state).toMatchObject({
      connected: true,
      problem: null,
      baseUrl: BASE,
      account: { email: 'jane@acme.test', availableCredits: 500, organization: 'Acme' },
    });
  });

  it('does not save a rejected token and says why, without echoing it', () => {
    const { stores, service } = setup();
    const state = service.save('bad-token-123', BASE);
    expect(stores.user.get(SETTINGS_KEYS.token)).toBeNull();
    expect(state.connected).toBe(false);
    expect(state.problem).toMatch(/rejected this token \(401\)/);
    expect(JSON.stringify(state)).not.toContain('bad-token-123');
  });

  it('names the address when the service cannot be reached', () => {
    const { service, http } = setup();
    http.down = true;
    expect(service.save('good-token', BASE).problem).toBe(
      `Could not reach ${BASE}. Check the service address under Advanced, or your connection, and try again.`,
    );
  });

  it('refuses plain HTTP to a non-local host before sending anything', () => {
    const { service, http } = setup();
    const state = service.save('good-token', 'http://api.service.test');
    expect(state.problem).toMatch(/plain http is only allowed for localhost/);
    expect(http.requests).toHaveLength(0);
  });

  it('keeps the service address inside the URL allowlist of a published build, and says so', () => {
    const { stores, http, service } = setup(['https://api.service.test/']);
    const refused = service.save('good-token', 'https://other.service.test');
    expect(refused).toMatchObject({
      connected: false,
      problem: 'Service address refused: this deployment only reaches https://api.service.test/.',
    });
    expect(refused.urlAllowlist).toEqual(['https://api.service.test/']);
    expect(http.requests).toEqual([]);
    expect(stores.user.get(SETTINGS_KEYS.token)).toBeNull();
    expect(service.save('good-token', `${BASE}/v2`)).toMatchObject({
      connected: true,
      problem: null,
      baseUrl: `${BASE}/v2`,
    });
  });

  it('accepts any HTTPS address when the build has no allowlist', () => {
    const { service } = setup();
    expect(service.save('good-token', 'https://other.service.test')).toMatchObject({
      connected: true,
      problem: null,
      urlAllowlist: [],
    });
  });

  it('allows plain HTTP to localhost', () => {
    const { service } = setup();
    expect(service.save('good-token', 'http://127.0.0.1:8787').problem).toBeNull();
  });

  it('shares the token with formulas only on request, and removing the token stops the sharing', () => {
    const { stores, service } = setup();
    service.save('good-token', BASE);
    expect(stores.document.get(SETTINGS_KEYS.formulaToken)).toBeNull();
    const shared = service.setFormulaSharing(true);
    expect(stores.document.get(SETTINGS_KEYS.formulaToken)).toBe('good-token');
    expect(shared.formulas).toEqual({ shared: true, sharedBy: 'jane@acme.test', sharedByMe: true });
    const removed = service.remove();
    expect(stores.user.get(SETTINGS_KEYS.token)).toBeNull();
    expect(stores.document.get(SETTINGS_KEYS.formulaToken)).toBeNull();
    expect(removed).toMatchObject({ connected: false, account: null, formulas: { shared: false } });
  });

  it('unticking sharing removes the document copy', () => {
    const { stores, service } = setup();
    service.save('good-token', BASE);
    service.setFormulaSharing(true);
    const state = service.setFormulaSharing(false);
    expect(stores.document.get(SETTINGS_KEYS.formulaToken)).toBeNull();
    expect(state.formulas.shared).toBe(false);
  });

  it('reports a saved token that has since been revoked', () => {
    const { stores, service } = setup();
    stores.user.set(SETTINGS_KEYS.token, 'revoked');
    stores.user.set(SETTINGS_KEYS.baseUrl, BASE);
    expect(service.state()).toMatchObject({ connected: true, account: null, problem: expect.stringMatching(/401/) });
  });

  it('keeps showing the working connection after a refused token change, with the problem as a refused change', () => {
    const { stores, service } = setup();
    service.save('good-token', BASE);
    const refused = service.save('bad-token', BASE);
    expect(refused).toMatchObject({
      connected: true,
      refusedChange: true,
      problem: expect.stringMatching(/401/),
      account: { email: 'jane@acme.test' },
    });
    expect(stores.user.get(SETTINGS_KEYS.token)).toBe('good-token');
  });

  it('says when formulas do not use the token, and that removing the token stopped their sharing', () => {
    const { service } = setup();
    expect(service.save('good-token', BASE).note).toBe(NOTES.notShared);
    expect(service.setFormulaSharing(true).note).toBeNull();
    expect(service.remove().note).toBe(NOTES.removedSharing);
    expect(service.save('good-token', BASE)).toMatchObject({ note: NOTES.notShared, formulas: { shared: false } });
  });

  it('clears the cached formula lookups when formulas stop using the token (unticking or removing it)', () => {
    const { service, cache } = setup();
    const cacheLookups = () =>
      writeCachedLookups(
        cache,
        new Map([
          ['acme.com', { state: 'found', values: { company_name: 'Acme' } }],
          ['b.com', { state: 'not_found' }],
        ]),
        Date.now(),
      );
    service.save('good-token', BASE);
    service.setFormulaSharing(true);
    cacheLookups();
    expect(readCachedLookups(cache, ['acme.com', 'b.com'], Date.now()).size).toBe(2);
    expect(service.setFormulaSharing(false).note).toBe(NOTES.stoppedSharing);
    expect(readCachedLookups(cache, ['acme.com', 'b.com'], Date.now()).size).toBe(0);
    service.setFormulaSharing(true);
    cacheLookups();
    service.remove();
    expect(cache.entries.size).toBe(0);
  });
});
