// Test doubles for the service client: a scripted HttpPort that records every fetchAll batch and answers from a FIFO
// queue of outcomes (an unexpected request fails the test), its latency advancing the shared manual clock
// (test/fakes/ports.ts), a service client over it, and fixtures of service response bodies.

import { createServiceClient, type ServiceClientDeps } from '../../../src/api/client';
import type { HttpFailure, HttpOutcome, HttpPort, HttpRequest, HttpResponse } from '../../../src/ports';
import { ManualClock } from '../../fakes/ports';

export class ScriptedHttp implements HttpPort {
  readonly batches: HttpRequest[][] = [];
  private readonly queue: HttpOutcome[] = [];

  /** `latencyMs` advances `clock` by that much per fetchAll, to simulate slow answers. */
  constructor(
    private readonly clock?: ManualClock,
    private readonly latencyMs = 0,
  ) {}

  /** Queues outcomes, consumed one per request in the order requests are sent. */
  answer(...outcomes: HttpOutcome[]): this {
    this.queue.push(...outcomes);
    return this;
  }

  get requests(): HttpRequest[] {
    return this.batches.flat();
  }

  get unanswered(): number {
    return this.queue.length;
  }

  fetchAll(requests: HttpRequest[]): HttpOutcome[] {
    this.batches.push(requests.map((request) => ({ ...request, headers: { ...request.headers } })));
    if (this.clock) this.clock.advance(this.latencyMs);
    return requests.map((request) => {
      const outcome = this.queue.shift();
      if (!outcome) throw new Error(`unexpected request ${request.method} ${request.url}`);
      return outcome;
    });
  }
}

export function reply(status: number, body?: unknown, headers: Record<string, string> = {}): HttpResponse {
  return {
    ok: true,
    status,
    headers,
    body: body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body),
  };
}

export function noAnswer(error: string, maybeSent: boolean, fatal?: boolean): HttpFailure {
  return fatal === undefined ? { ok: false, error, maybeSent } : { ok: false, error, maybeSent, fatal };
}

export const TOKEN = 'sk_live_SECRET_token_0123456789';
export const BASE_URL = 'https://api.example.test';

/** A service client over a scripted HttpPort on a manual clock, its jitter fixed; `overrides` replace any dep. */
export function scriptedClient(overrides: Partial<ServiceClientDeps> = {}, latencyMs = 0) {
  const clock = new ManualClock();
  const http = new ScriptedHttp(clock, latencyMs);
  const client = createServiceClient({
    http,
    clock,
    settings: { baseUrl: BASE_URL, token: TOKEN },
    random: () => 0.5,
    ...overrides,
  });
  return { clock, http, client };
}

export function taskBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'task_1',
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    status: 'created',
    brief: 'Research Acme',
    depth: 'medium',
    output_schema: null,
    failure_reason: null,
    iterations: 0,
    agents: 0,
    sources: 0,
    report: null,
    owner: { id: 'user_1', email: 'ana@example.com' },
    ...overrides,
  };
}

export function userBody(): Record<string, unknown> {
  return {
    user_id: 'user_1',
    email: 'ana@example.com',
    available_credits: 120,
    organization_id: null,
    organization_name: null,
    organization_slug: null,
  };
}

export function profileBody(domain = 'acme.com'): Record<string, unknown> {
  return {
    id: '5f0c8a1e-0000-4000-8000-000000000001',
    domain,
    company_name: 'Acme',
    context: { short_description: 'Anvils', founding_year: 1949, employee_count: '51-200' },
  };
}

export function candidate(domain: string): Record<string, unknown> {
  return { id: `id-${domain}`, domain, name: domain, relevance_score: 0.9, employee_count: '11-50' };
}

export function searchBody(domains: string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { results: domains.map(candidate), request: { offset: 0, limit: 25, query: 'q', filters: null }, ...extra };
}
