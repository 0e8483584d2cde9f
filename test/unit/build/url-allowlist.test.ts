// The URL allowlist a build writes into appsscript.json (build/url-allowlist.js) and the check the bundle makes with it
// (src/account/url-allowlist.ts): a build's own default address always passes, other services do not.
import { outsideAllowlist } from '../../../src/account/url-allowlist';
import { validateBaseUrl } from '../../../src/api/url';
import { WEBHOOK_URL_PREFIXES as BUNDLE_WEBHOOK_PREFIXES } from '../../../src/digest/webhook';

const { urlAllowlistFor, manifestAllowlistFor, WEBHOOK_URL_PREFIXES } = require('../../../build/url-allowlist') as {
  urlAllowlistFor: (baseUrl?: string) => string[];
  manifestAllowlistFor: (baseUrl?: string) => string[];
  WEBHOOK_URL_PREFIXES: string[];
};

function normalized(baseUrl: string): string {
  const checked = validateBaseUrl(baseUrl);
  if (!checked.ok) throw new Error(checked.reason);
  return checked.baseUrl;
}

describe('urlAllowlistFor (build)', () => {
  it('has no allowlist without a base URL, or for a local development service', () => {
    expect(urlAllowlistFor(undefined)).toEqual([]);
    expect(urlAllowlistFor('')).toEqual([]);
    expect(urlAllowlistFor('http://localhost:8787')).toEqual([]);
    expect(urlAllowlistFor('http://127.0.0.1:8787/api')).toEqual([]);
  });

  it('allows the HTTPS origin of the base URL, ending with a slash as Google requires', () => {
    expect(urlAllowlistFor('https://api.example.com')).toEqual(['https://api.example.com/']);
    expect(urlAllowlistFor('https://API.Example.com/v2/')).toEqual(['https://api.example.com/']);
    expect(urlAllowlistFor('https://api.example.com:8443/service')).toEqual(['https://api.example.com:8443/']);
  });

  it('refuses an address that cannot be allowlisted or that the add-in itself would refuse', () => {
    expect(() => urlAllowlistFor('api.example.com')).toThrow('SHEET_SCOUT_BASE_URL is not an absolute URL');
    expect(() => urlAllowlistFor('http://api.example.com')).toThrow('must be an https:// address');
    expect(() => urlAllowlistFor('https://user:secret@api.example.com')).toThrow('without user info');
    expect(() => urlAllowlistFor('https://api.example.com/?key=1')).toThrow('without user info, query or :443');
    expect(() => urlAllowlistFor('https://api.example.com:443/v1')).toThrow('without user info, query or :443');
  });
});

describe('manifestAllowlistFor (build)', () => {
  it("adds the digest's webhook paths (not the whole hosts) to the service's origin, the bundle's own list", () => {
    const webhooks = ['https://hooks.slack.com/services/', 'https://chat.googleapis.com/v1/spaces/'];
    expect(manifestAllowlistFor('https://api.example.com/v2')).toEqual(['https://api.example.com/', ...webhooks]);
    expect(WEBHOOK_URL_PREFIXES).toEqual([...BUNDLE_WEBHOOK_PREFIXES]);
  });

  it('admits every webhook the digest accepts, and none of the hosts other APIs', () => {
    const allowed = (url: string) => WEBHOOK_URL_PREFIXES.some((prefix) => url.startsWith(prefix));
    expect(allowed('https://hooks.slack.com/services/T0123/B0456/abcdefgh1234')).toBe(true);
    expect(allowed('https://chat.googleapis.com/v1/spaces/AAAA/messages?key=k&token=t')).toBe(true);
    expect(allowed('https://hooks.slack.com/workflows/T0/A0/1/x')).toBe(false);
    expect(allowed('https://chat.googleapis.com/v1/spaces/AAAA/members')).toBe(true);
    expect(allowed('https://chat.googleapis.com/v1/media/upload')).toBe(false);
  });

  it('has none without a base URL (a bound script reaches any HTTPS address)', () => {
    expect(manifestAllowlistFor(undefined)).toEqual([]);
    expect(manifestAllowlistFor('http://127.0.0.1:8787')).toEqual([]);
  });

  it('never lets a webhook host pass as the service address', () => {
    const allowlist = urlAllowlistFor('https://api.example.com');
    expect(outsideAllowlist(normalized('https://hooks.slack.com'), allowlist)).not.toBeNull();
  });
});

describe('outsideAllowlist (bundle)', () => {
  it('accepts any address when the build has no allowlist', () => {
    expect(outsideAllowlist('https://anything.example.org', [])).toBeNull();
  });

  it('accepts the build default and other paths on its origin, refuses other hosts, ports and schemes', () => {
    const allowlist = urlAllowlistFor('https://api.example.com/v2');
    expect(outsideAllowlist(normalized('https://API.example.com/v2/'), allowlist)).toBeNull();
    expect(outsideAllowlist(normalized('https://api.example.com'), allowlist)).toBeNull();
    expect(outsideAllowlist(normalized('https://api.example.com/staging'), allowlist)).toBeNull();
    const refusal = 'this deployment only reaches https://api.example.com/';
    expect(outsideAllowlist(normalized('https://api.example.com.evil.test'), allowlist)).toBe(refusal);
    expect(outsideAllowlist(normalized('https://api.example.com:8443'), allowlist)).toBe(refusal);
    expect(outsideAllowlist(normalized('https://other.example.com/v2'), allowlist)).toBe(refusal);
    expect(outsideAllowlist(normalized('http://localhost:8787'), allowlist)).toBe(refusal);
  });

  it.each(['https://api.example.com', 'https://Api.Example.com/v2/', 'https://api.example.com:8443/svc/'])(
    "keeps a build's own default address %s inside the allowlist built from it",
    (baseUrl) => {
      expect(outsideAllowlist(normalized(baseUrl), urlAllowlistFor(baseUrl))).toBeNull();
    },
  );
});
