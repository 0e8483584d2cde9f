// Shared by the search integration tests and benchmark: the sandbox in a child process, an emulated runtime over the
// built bundle whose user has a sandbox token, and helpers to call the panel's server functions like the sidebar.
import path from 'node:path';
import { createRuntime, SpreadsheetModel, type GasRuntime } from '../../../dev/gas-runtime';
import { spawnSandbox, type SpawnedSandbox } from '../../../dev/sandbox/spawn';
import { SETTINGS_KEYS } from '../../../src/account/settings';
import type { PreviewAnswer, SearchPanelState, WriteAnswer, WriteRequest } from '../../../src/search/panel-service';
import { emptyFilterForm, type SearchSpec } from '../../../src/search/spec';
import { columnLetter } from '../../../src/shared/a1';

export const BUNDLE = path.resolve(__dirname, '../../../dist/Code.js');
export const USER = 'ana@example.com';

export interface SandboxCompany {
  id: string;
  domain: string;
  name: string;
  hq_country: string;
  hq_city: string;
  employee_count: string;
  founding_year: number;
}

export class Sandbox {
  private constructor(readonly spawned: SpawnedSandbox) {}

  static async start(): Promise<Sandbox> {
    return new Sandbox(await spawnSandbox());
  }

  get url(): string {
    return this.spawned.url;
  }

  async call<T = unknown>(
    method: string,
    route: string,
    body?: unknown,
    token?: string,
  ): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await fetch(`${this.url}${route}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  }

  async companies(limit: number): Promise<SandboxCompany[]> {
    return (await this.call<SandboxCompany[]>('GET', `/_sandbox/companies?limit=${limit}`)).body;
  }

  async stats(): Promise<Record<string, number>> {
    return (await this.call<Record<string, number>>('GET', '/_sandbox/stats')).body;
  }

  stop(): Promise<void> {
    return this.spawned.stop();
  }
}

/** A runtime with the given sheets (name -> rows, row 1 first) whose user has `token`. */
export function runtimeWith(
  url: string,
  token: string,
  sheets: Record<string, unknown[][]> = { Sheet1: [] },
): GasRuntime {
  const names = Object.keys(sheets);
  const spreadsheet = new SpreadsheetModel({ rows: 200, columns: 26, sheetNames: names });
  for (const name of names) {
    const rows = sheets[name];
    if (rows.length === 0) continue;
    const width = Math.max(...rows.map((row) => row.length));
    const padded = rows.map((row) => Array.from({ length: width }, (_, i) => (row[i] ?? '') as string | number));
    spreadsheet.sheet(name).setValues(`A1:${columnLetter(width)}${rows.length}`, padded);
  }
  const runtime = createRuntime({ bundlePath: BUNDLE, spreadsheet, users: [USER] });
  runtime.properties.user(USER).set(SETTINGS_KEYS.token, token);
  runtime.properties.user(USER).set(SETTINGS_KEYS.baseUrl, url);
  return runtime;
}

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
