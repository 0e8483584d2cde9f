// UrlFetchApp over real HTTP: request building as Apps Script does it (method, headers, payload as
// string / bytes / Blob / form-encoded object, contentType, followRedirects, timeoutSeconds,
// muteHttpExceptions), Google's exception texts for failing status codes and network errors, HTTPResponse
// and Blob objects, the per-user daily quota (each request of a fetchAll counts), the request log, the modelled time of
// each round (costs.ts: the latency the service states in a header, which the bundle never sees), and host routes
// (a request to a listed origin goes to a local stand-in, as a hosts file would send it).
import { GasError, Msg } from '../errors';
import type { WireRequest, WireResult } from '../http/sync-http';
import type { ServiceContext, ServiceEnv } from '../state/env';
import { BlobImpl, blobFacadeClass, toByteArray, toSignedBytes } from './blob';
import { fetchAllCost } from '../costs';
import { LATENCY_HEADER } from '../../sandbox/http/faults';

const MAX_URL_LENGTH = 2082;
const TRUNCATE_AT = 150;
const METHODS = ['get', 'delete', 'patch', 'post', 'put'];

interface PreparedRequest {
  wire: WireRequest;
  mute: boolean;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function prepare(
  env: ServiceEnv,
  blobs: ReturnType<typeof blobFacadeClass>,
  url: unknown,
  params: unknown,
): PreparedRequest {
  const target = String(url);
  if (target.length > MAX_URL_LENGTH) throw new GasError(Msg.urlTooLong);
  if (!/^https?:\/\//i.test(target)) throw new GasError(Msg.invalidArgument(target));
  const options = isPlainObject(params) ? params : {};
  const method = String(options.method ?? 'get').toLowerCase();
  if (!METHODS.includes(method)) throw new GasError(Msg.invalidArgument('method'));
  const headers: Record<string, string> = {};
  if (isPlainObject(options.headers)) for (const [k, v] of Object.entries(options.headers)) headers[k] = String(v);
  const hasHeader = (name: string) => Object.keys(headers).some((k) => k.toLowerCase() === name);
  let body: Uint8Array | undefined;
  let payloadType: string | undefined;
  const payload = options.payload;
  if (payload !== undefined && payload !== null && method !== 'get') {
    const blob = blobs.unwrap(payload);
    if (blob) {
      body = Uint8Array.from(blob.bytes);
      payloadType = blob.contentType ?? undefined;
    } else if (typeof payload === 'string') {
      body = new Uint8Array(Buffer.from(payload, 'utf8'));
    } else if (Array.isArray(payload)) {
      body = toByteArray(payload);
    } else if (isPlainObject(payload)) {
      const form = Object.entries(payload)
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
        .join('&');
      body = new Uint8Array(Buffer.from(form, 'utf8'));
    } else {
      body = new Uint8Array(Buffer.from(String(payload), 'utf8'));
    }
  }
  const contentType = options.contentType !== undefined ? String(options.contentType) : undefined;
  if (contentType !== undefined || (body && !hasHeader('content-type'))) {
    for (const k of Object.keys(headers)) if (k.toLowerCase() === 'content-type') delete headers[k];
    headers['Content-Type'] = contentType ?? payloadType ?? 'application/x-www-form-urlencoded';
  }
  if (!hasHeader('user-agent')) {
    headers['User-Agent'] =
      `Mozilla/5.0 (compatible; Google-Apps-Script; beanserver; +https://script.google.com; id: ${env.scriptId})`;
  }
  const timeoutSeconds = Number(options.timeoutSeconds);
  return {
    wire: {
      url: target,
      method,
      headers,
      body,
      followRedirects: options.followRedirects !== false,
      validateHttpsCertificates: options.validateHttpsCertificates !== false,
      timeoutMs: timeoutSeconds > 0 ? timeoutSeconds * 1000 : env.limits.urlFetchTimeoutMs,
    },
    mute: options.muteHttpExceptions === true,
  };
}

/** Where a request goes: to a host route's base URL when its origin has one (path and query kept), else as asked. */
export function routed(url: string, routes: Record<string, string>): string {
  for (const [origin, target] of Object.entries(routes)) {
    const rest = url.slice(origin.length);
    if (url.toLowerCase().startsWith(origin.toLowerCase()) && (rest === '' || /^[/?#]/.test(rest)))
      return target + rest;
  }
  return url;
}

function networkMessage(result: Extract<WireResult, { ok: false }>, url: string): string {
  switch (result.kind) {
    case 'dns':
      return Msg.dnsError(url);
    case 'timeout':
      return Msg.timeout(url);
    case 'invalid':
      return Msg.invalidArgument(url);
    default:
      return Msg.addressUnavailable(url);
  }
}

function responseText(body: Uint8Array, charset?: string): string {
  return new TextDecoder(charset ? String(charset) : 'utf-8').decode(body);
}

function truncated(text: string): string {
  return text.length > TRUNCATE_AT ? `${text.slice(0, TRUNCATE_AT - 3)}...` : text;
}

interface ResponseImpl {
  status: number;
  rawHeaders: string[];
  body: Uint8Array;
  finalUrl: string;
}

export function createUrlFetchApp({ env, exec }: ServiceContext): Record<string, unknown> {
  const Blob = blobFacadeClass(exec);
  const headerMap = (raw: string[], all: boolean) => {
    const out: Record<string, string | string[]> = {};
    for (let i = 0; i < raw.length; i += 2) {
      const [name, value] = [raw[i], raw[i + 1]];
      const existing = out[name];
      if (!all || existing === undefined) out[name] = value;
      else out[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
    }
    return out;
  };
  const contentTypeOf = (r: ResponseImpl) => {
    const h = headerMap(r.rawHeaders, false);
    const key = Object.keys(h).find((k) => k.toLowerCase() === 'content-type');
    return key ? String(h[key]).split(';')[0].trim() : null;
  };
  const HTTPResponse = exec.define<ResponseImpl>('HTTPResponse', {
    getResponseCode() {
      return this.status;
    },
    getContentText(charset?: string) {
      return responseText(this.body, charset);
    },
    getContent() {
      return toSignedBytes(this.body);
    },
    getHeaders() {
      return headerMap(this.rawHeaders, false);
    },
    getAllHeaders() {
      return headerMap(this.rawHeaders, true);
    },
    getBlob() {
      return Blob.wrap(new BlobImpl(Array.from(this.body), contentTypeOf(this), null));
    },
    getAs(contentType: string) {
      return Blob.wrap(new BlobImpl(Array.from(this.body), String(contentType), null));
    },
  });

  /**
   * The latency the service stated (LATENCY_HEADER, then removed: the bundle never sees it); 0 when none; a request
   * that timed out waited its whole timeout.
   */
  const withoutStatedLatency = (result: WireResult, timeoutMs: number): WireResult & { latencyMs: number } => {
    if (!result.ok) return { ...result, latencyMs: result.kind === 'timeout' ? timeoutMs : 0 };
    const kept: string[] = [];
    let latencyMs = 0;
    for (let i = 0; i + 1 < result.rawHeaders.length; i += 2) {
      if (result.rawHeaders[i].toLowerCase() === LATENCY_HEADER) latencyMs = Number(result.rawHeaders[i + 1]) || 0;
      else kept.push(result.rawHeaders[i], result.rawHeaders[i + 1]);
    }
    return { ...result, rawHeaders: kept, latencyMs };
  };

  const send = (prepared: PreparedRequest[], viaFetchAll: boolean) => {
    exec.require('urlfetch', 'UrlFetchApp', viaFetchAll ? 'fetchAll' : 'fetch');
    env.quotas.take(exec.user, 'urlfetch', prepared.length, env.limits.urlFetchPerDay, Msg.urlFetchQuota);
    const remaining = exec.remainingMs();
    // A request waits at most its timeout and the execution's time left. On a manual clock only modelled time counts:
    // the wire waits its whole timeout in real time (a slow machine times nothing out). On either clock a request whose
    // stated latency passes that bound timed out: a sandbox on a manual clock states its latency without waiting it out.
    const modelledTimeouts = prepared.map((p) => Math.max(1, Math.min(p.wire.timeoutMs, remaining + 1)));
    const wires = prepared.map((p, i) => ({
      ...p.wire,
      timeoutMs: exec.manualClock ? p.wire.timeoutMs : modelledTimeouts[i],
    }));
    const started = Date.now();
    const results = env
      .http()
      .fetchAll(wires.map((wire) => ({ ...wire, url: routed(wire.url, env.hostRoutes) })))
      .map((result, i) => {
        const stated = withoutStatedLatency(result, modelledTimeouts[i]);
        if (stated.latencyMs <= modelledTimeouts[i]) return stated;
        return { ok: false as const, kind: 'timeout' as const, message: 'timeout', latencyMs: modelledTimeouts[i] };
      });
    const duration = Date.now() - started;
    exec.charge(
      fetchAllCost(
        results.map((result) => result.latencyMs),
        env.behaviours.fetchAllConcurrency,
      ),
      'urlfetch',
    );
    exec.urlFetchCalls += prepared.length;
    env.counters.urlFetch.total += prepared.length;
    if (viaFetchAll) env.counters.urlFetch.fetchAllCalls++;
    const batchId = (env.httpLog.at(-1)?.batchId ?? 0) + 1;
    results.forEach((result, i) => {
      const wire = wires[i];
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(wire.headers)) headers[k.toLowerCase()] = v;
      env.httpLog.push({
        executionId: exec.id,
        method: wire.method.toUpperCase(),
        url: wire.url,
        headers,
        body: wire.body ? Buffer.from(wire.body).toString('utf8') : undefined,
        status: result.ok ? result.status : undefined,
        error: result.ok ? undefined : result.kind,
        durationMs: duration,
        batchId,
      });
    });
    // The execution ran out of time while waiting: Apps Script ends it rather than reporting a timeout.
    if (exec.elapsedMs() > exec.limitMs) throw exec.kill();
    const responses = results.map((result, i) => {
      const url = wires[i].url;
      if (!result.ok) throw new GasError(networkMessage(result, url));
      if (result.status >= 400 && !prepared[i].mute) {
        throw new GasError(Msg.requestFailed(new URL(url).origin, result.status, truncated(responseText(result.body))));
      }
      return HTTPResponse.wrap({
        status: result.status,
        rawHeaders: result.rawHeaders,
        body: result.body,
        finalUrl: result.finalUrl,
      });
    });
    return responses;
  };

  const requestArgs = (request: unknown): [unknown, unknown] => {
    if (typeof request === 'string') return [request, {}];
    if (isPlainObject(request)) return [request.url, request];
    throw new GasError(Msg.invalidArgument('requests'));
  };

  const Service = exec.define<object>('UrlFetchApp', {
    fetch(url: unknown, params?: unknown) {
      return send([prepare(env, Blob, url, params)], false)[0];
    },
    fetchAll(requests: unknown[]) {
      if (!Array.isArray(requests)) throw new GasError(Msg.invalidArgument('requests'));
      const prepared = requests.map((request) => {
        const [url, params] = requestArgs(request);
        return prepare(env, Blob, url, params);
      });
      return send(prepared, true);
    },
    getRequest(url: unknown, params?: unknown) {
      const { wire } = prepare(env, Blob, url, params);
      const contentTypeKey = Object.keys(wire.headers).find((k) => k.toLowerCase() === 'content-type');
      const headers = { ...wire.headers };
      if (contentTypeKey) delete headers[contentTypeKey];
      return {
        url: wire.url,
        method: wire.method,
        headers,
        payload: wire.body ? Buffer.from(wire.body).toString('utf8') : '',
        contentType: contentTypeKey ? wire.headers[contentTypeKey] : undefined,
        followRedirects: wire.followRedirects,
        validateHttpsCertificates: wire.validateHttpsCertificates,
        useIntranet: false,
      };
    },
  });
  return Service.wrap({});
}
