// Every server function a panel calls checks the shape of what it is sent, through the built bundle and the
// emulator's google.script.run rules: a malformed request gets one clear message naming the wrong part, and nothing
// reaches the service (the sandbox counts every request).
import type { GasRuntime } from '../../dev/gas-runtime';
import type { LaunchResponse } from '../../src/research/contract';
import { spec } from './search/harness';
import { runtimeFor, startSandbox, type SandboxStack } from './harness';

let stack: SandboxStack;
let runtime: GasRuntime;

beforeAll(async () => {
  stack = await startSandbox();
  runtime = runtimeFor(stack.sandbox.url, { sheets: { Sheet1: [['Domain'], ['stripe.com']] } });
});

afterAll(async () => {
  await runtime.close();
  await stack.sandbox.stop();
});

/** The message a sidebar call fails with (google.script.run's failure handler gets it). */
function failure(name: string, args: unknown[]): string {
  try {
    runtime.run(name, args, { kind: 'sidebar' });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${name} accepted ${JSON.stringify(args)}`);
}

const unreadable = (problem: string) =>
  `Sheet Scout could not read this request (${problem}): reload the panel and try again`;

describe('malformed panel requests (integration)', () => {
  it('refuses a search whose country list arrives as one string, instead of sending 13 one-letter countries', async () => {
    const before = await stack.control.stats();
    const bad = spec({ filters: { ...spec().filters, includeCountries: 'United States' as unknown as string[] } });
    expect(failure('previewCompanySearch', [bad])).toBe(unreadable('filters.includeCountries must be array'));
    expect(failure('previewCompanySearch', [{ ...spec(), count: '25' }])).toBe(unreadable('count must be integer'));
    expect(
      failure('previewCompanySearch', [{ ...spec(), filters: { ...spec().filters, includeCities: [null] } }]),
    ).toBe(unreadable('filters.includeCities[0] must be string'));
    expect(
      failure('writeCompanySearch', [
        { searchId: null, spec: spec(), columns: ['name'], target: { kind: 'elsewhere' } },
      ]),
    ).toMatch(/^Sheet Scout could not read this request \(target/);
    expect(failure('getSearchExcludeDomains', [{ kind: 'column', sheetId: 1 }])).toMatch(
      /^Sheet Scout could not read this request/,
    );
    expect(failure('summarizeSearchExcludeDomains', [{ entries: 'a.com', acceptMostRecent: false }])).toBe(
      unreadable('entries must be array'),
    );
    expect(await stack.control.stats()).toEqual(before);
  });

  it('answers a malformed research request with a refusal, and sends nothing', async () => {
    const before = await stack.control.stats();
    const output = { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: null };
    const launch = runtime.run<LaunchResponse>(
      'launchResearch',
      [{ template: 'Research {Domain}', depth: 'HIGH', output, sheetId: 0, rows: [2] }],
      { kind: 'sidebar' },
    );
    expect(launch).toMatchObject({ ok: false, message: unreadable('depth must be one of "medium", "high", "xhigh"') });
    const noRows = runtime.run<LaunchResponse>(
      'launchResearch',
      [{ template: 'x', depth: 'medium', output, sheetId: 0, rows: '2' }],
      { kind: 'sidebar' },
    );
    expect(noRows.message).toBe(unreadable('rows must be array'));
    expect(failure('listResearchHistory', ['next'])).toBe(unreadable('page must be integer'));
    expect(failure('getTaskReport', [''])).toBe(unreadable('task id must NOT have fewer than 1 characters'));
    expect(runtime.run('checkUnconfirmedResearch', ['abc'], { kind: 'sidebar' })).toEqual({
      ok: false,
      message: unreadable('rows must be array'),
    });
    expect(await stack.control.stats()).toEqual(before);
  });

  it('refuses malformed Enrich, Settings and Tables requests with the same message, changing nothing', async () => {
    const before = await stack.control.stats();
    expect(failure('startEnrichment', [{ fields: [1, 2] }])).toBe(unreadable('fields[0] must be string'));
    expect(failure('getEnrichmentPreview', [{ domainColumn: 'A' }])).toBe(unreadable('domainColumn must be integer'));
    expect(failure('getRefreshPreview', [{ days: '30' }])).toBe(unreadable('days must be integer'));
    expect(failure('runRefreshChunk', [{ days: 30, skip: 'a.com' }])).toBe(unreadable('skip must be array'));
    expect(failure('saveAccountToken', [{ token: 42 }])).toBe(unreadable('token must be string'));
    expect(failure('setFormulaTokenSharing', ['yes'])).toBe(unreadable('sharing must be boolean'));
    expect(failure('setRequestBudgetAccount', ['enterprise'])).toBe(
      unreadable('account kind must be one of "consumer", "workspace"'),
    );
    expect(failure('saveTablesMapping', [{ sheetId: '0', drafts: [] }])).toBe(unreadable('sheetId must be integer'));
    expect(failure('pushTablesColumns', [{ sheetId: 0, drafts: {}, table: 't', position: true }])).toBe(
      unreadable('drafts must be array'),
    );
    expect(runtime.properties.document.keys()).toEqual([]);
    expect(await stack.control.stats()).toEqual(before);
  });
});
