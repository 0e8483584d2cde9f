// The sandbox HTTP server (loopback only): routes /v1 requests through request counting, the per-token rate limit,
// fault injection and bearer authentication to the service handlers, /_sandbox/ to the control API, and /webhooks/ to
// the stand-ins of Slack's and Google Chat's incoming webhooks (webhooks/receiver.ts); answers JSON but for those.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate } from '../accounts';
import type { ClockMode } from '../clock';
import { controlRoutes, type ControlRoute } from './control-routes';
import { LATENCY_HEADER, type FaultDecision } from './faults';
import { errorResponse, HttpError, parseJsonBody, readBody, sendJson, type JsonResponse } from './http-util';
import { DEFAULT_SEED, Sandbox } from '../sandbox';
import { serviceRoutes, type ServiceRoute } from './service-routes';
import { checkRateLimit } from './rate-limit';
import { isoTime } from '../clock';
import type { WebhookService } from '../webhooks/receiver';

export interface StartOptions {
  /** 0 picks a free port; default 8787. */
  port?: number;
  /** Task progress multiplier; default 1 (a medium task takes about 10-20 s). */
  speed?: number;
  clock?: ClockMode;
  seed?: number;
  /** Requests per second per token before 429s (default none). */
  rateLimitPerSecond?: number | null;
}

export interface RunningSandbox {
  url: string;
  close(): Promise<void>;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Matches a path against routes; decodes path parameters (each one URL segment). */
function match<R extends { method: string; pattern: RegExp }>(
  routes: R[],
  method: string,
  path: string,
): { route: R; params: string[] } | 'not_found' | 'method_not_allowed' {
  let pathMatched = false;
  for (const route of routes) {
    const found = route.pattern.exec(path);
    if (!found) continue;
    pathMatched = true;
    if (route.method !== method) continue;
    try {
      return { route, params: found.slice(1).map((segment) => decodeURIComponent(segment)) };
    } catch {
      return 'not_found';
    }
  }
  return pathMatched ? 'method_not_allowed' : 'not_found';
}

function faultReply(route: string, decision: Extract<FaultDecision, { action: 'error' }>): JsonResponse {
  const retryAfter = String(Math.ceil(decision.retryAfterSeconds));
  if (decision.status === 429) {
    return {
      status: 429,
      body: { detail: `Rate limit exceeded; retry after ${retryAfter} seconds` },
      headers: { 'retry-after': retryAfter },
    };
  }
  if (decision.status === 503) {
    const detail =
      route === 'tasks.create'
        ? 'Scheduling unavailable: nothing was created and nothing was charged; retry later'
        : 'Service temporarily unavailable';
    return { status: 503, body: { detail }, headers: { 'retry-after': retryAfter } };
  }
  return { status: decision.status, body: { detail: 'Internal Server Error' } };
}

class SandboxServer {
  private readonly service: ServiceRoute[];
  private readonly control: ControlRoute[];

  constructor(private readonly sandbox: Sandbox) {
    this.service = serviceRoutes(sandbox);
    this.control = controlRoutes(sandbox);
  }

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const method = request.method ?? 'GET';
      const bodyText = BODY_METHODS.has(method) ? await readBody(request) : '';
      const webhook = /^\/webhooks\/(slack|chat)(\/.*)$/.exec(url.pathname);
      if (url.pathname.startsWith('/_sandbox/')) this.handleControl(method, url, bodyText, response);
      else if (webhook) {
        const at = isoTime(this.sandbox.now());
        const service = webhook[1] as WebhookService;
        const reply = this.sandbox.webhooks.handle(service, webhook[2], url.searchParams, method, bodyText, at);
        // A lost answer: the post took effect, the connection goes without one.
        if (reply.drop) return void request.socket.destroy();
        const payload = Buffer.from(reply.body, 'utf8');
        response.writeHead(reply.status, {
          'content-type': reply.type,
          'content-length': String(payload.length),
          ...reply.headers,
        });
        response.end(payload);
      } else await this.handleService(request, method, url, bodyText, response);
    } catch (error) {
      if (!response.headersSent) sendJson(response, errorResponse(error));
    }
  }

  private handleControl(method: string, url: URL, bodyText: string, response: ServerResponse): void {
    const matched = match(this.control, method, url.pathname);
    if (matched === 'not_found') throw new HttpError(404, 'Not Found');
    if (matched === 'method_not_allowed') throw new HttpError(405, 'Method Not Allowed');
    let body: unknown;
    try {
      body = bodyText.trim() === '' ? undefined : JSON.parse(bodyText);
    } catch {
      throw new HttpError(400, 'Body must be valid JSON');
    }
    sendJson(response, matched.route.handle({ params: matched.params, query: url.searchParams, body }));
  }

  private async handleService(
    request: IncomingMessage,
    method: string,
    url: URL,
    bodyText: string,
    response: ServerResponse,
  ): Promise<void> {
    const matched = match(this.service, method, url.pathname);
    if (typeof matched === 'string') {
      this.sandbox.count('unmatched');
      throw new HttpError(
        matched === 'not_found' ? 404 : 405,
        matched === 'not_found' ? 'Not Found' : 'Method Not Allowed',
      );
    }
    const { route, params } = matched;
    this.sandbox.count(route.name);
    const rate = this.sandbox.rateLimit.take(request.headers.authorization ?? '');
    if (!rate.allowed) {
      this.sandbox.count('rate_limited');
      const retryAfter = String(rate.retryAfterSeconds);
      sendJson(response, {
        status: 429,
        body: { detail: `Rate limit exceeded; retry after ${retryAfter} seconds` },
        headers: { 'retry-after': retryAfter },
      });
      return;
    }
    const decision = this.sandbox.faults.decide(route.name);
    // The added latency is waited out on a real clock. A manual clock is modelled time: the latency is only stated
    // (LATENCY_HEADER), which is what the emulator's cost model counts, so waiting it out would only slow the run.
    if (decision.latencyMs > 0 && this.sandbox.clock.mode === 'real') await sleep(decision.latencyMs);
    if (decision.action === 'drop') {
      request.socket.destroy();
      return;
    }
    // The latency added, stated for the emulator's cost model (it removes the header: clients never see it).
    const stated = { [LATENCY_HEADER]: String(decision.latencyMs + decision.slowBodyMs) };
    if (decision.action === 'error') {
      const fault = faultReply(route.name, decision);
      sendJson(response, { ...fault, headers: { ...fault.headers, ...stated } }, { slowBodyMs: decision.slowBodyMs });
      return;
    }
    let reply: JsonResponse;
    try {
      const account = authenticate(this.sandbox.accounts, request.headers.authorization);
      if (!account) {
        throw new HttpError(
          401,
          request.headers.authorization ? 'Invalid authentication credentials' : 'Not authenticated',
          { 'www-authenticate': 'Bearer' },
        );
      }
      const body = parseJsonBody(bodyText);
      reply = route.handle({ account, params, query: url.searchParams, body, now: this.sandbox.now() });
    } catch (error) {
      reply = errorResponse(error);
    }
    if (decision.dropAfterServe) {
      request.socket.destroy();
      return;
    }
    if (reply.status < 300) reply = { ...reply, body: this.sandbox.hostile.apply(reply.body) };
    if (decision.listLagMs > 0 && route.name === 'tasks.list' && Array.isArray(reply.body)) {
      const shownBefore = this.sandbox.now() - decision.listLagMs;
      reply = {
        ...reply,
        body: reply.body.filter((task: { created_at: string }) => Date.parse(task.created_at) <= shownBefore),
      };
    }
    sendJson(
      response,
      { ...reply, headers: { ...reply.headers, ...stated } },
      { slowBodyMs: decision.slowBodyMs, rawNewlines: decision.rawNewlines },
    );
  }
}

/** Builds the sandbox (company index and all) and serves it on 127.0.0.1. */
export async function startSandbox(options: StartOptions = {}): Promise<RunningSandbox> {
  const speed = options.speed ?? 1;
  if (!(speed > 0)) throw new Error('speed must be a positive number');
  const sandbox = new Sandbox({
    speed,
    clock: options.clock ?? 'real',
    seed: options.seed ?? DEFAULT_SEED,
    rateLimitPerSecond: checkRateLimit(options.rateLimitPerSecond ?? null),
  });
  const handler = new SandboxServer(sandbox);
  const server = createServer((request, response) => void handler.handle(request, response));
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8787, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
