// Shared by the search integration tests and benchmarks, on top of the common harness (test/integration/harness.ts):
// a search spec with defaults, and the panel's server functions called like the sidebar.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { PreviewAnswer, SearchPanelState, WriteAnswer, WriteRequest } from '../../../src/search/service';
import { emptyFilterForm, type SearchSpec } from '../../../src/search/spec';
export function spec(overrides: Partial<SearchSpec> = {}): SearchSpec {
  return { mode: 'describe', query: 'software', reference: '', filters: emptyFilterForm(), count: 25, ...overrides };
}

/** The panel's calls, as google.script.run makes them. */
export const panel = {
  state: (runtime: GasRuntime) => runtime.run<SearchPanelState>('getSearchPanelState', [], { kind: 'sidebar' }),
  preview: (runtime: GasRuntime, searchSpec: SearchSpec) =>
    runtime.run<PreviewAnswer>('previewCompanySearch', [searchSpec], { kind: 'sidebar' }),
  write: (runtime: GasRuntime, request: WriteRequest) =>
    runtime.run<WriteAnswer>('writeCompanySearch', [request], { kind: 'sidebar' }),
  runAgain: (runtime: GasRuntime, sheetId: number) =>
    runtime.run<WriteAnswer>('runCompanySearchAgain', [sheetId], { kind: 'sidebar' }),
};

/** Request bodies the bundle sent to a path, parsed. */
export function sentBodies(
  runtime: GasRuntime,
  pathPattern: RegExp,
): Array<{ url: string; body: Record<string, unknown> }> {
  return runtime.httpLog
    .filter((entry) => pathPattern.test(entry.url))
    .map((entry) => ({ url: entry.url, body: JSON.parse(entry.body ?? '{}') as Record<string, unknown> }));
}
