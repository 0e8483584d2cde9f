// Worker thread of the emulator's synchronous HTTP (plain CommonJS: jest transforms do not reach workers).
// Receives batches of requests on a MessagePort, performs them in parallel with keep-alive agents
// (following redirects when asked, with a per-request deadline), posts the results back tagged with the
// batch id, then wakes the blocked main thread through the shared Int32Array.
'use strict';
const { workerData } = require('node:worker_threads');
const http = require('node:http');
const https = require('node:https');

const { port, signal } = workerData;
const flag = new Int32Array(signal);
const MAX_REDIRECTS = 10;
const MAX_BODY_BYTES = 50 * 1024 * 1024;
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
  httpsInsecure: new https.Agent({ keepAlive: true, maxSockets: 64, rejectUnauthorized: false }),
};

function classify(error) {
  const code = error && error.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'dns';
  if (code === 'ETIMEDOUT_DEADLINE') return 'timeout';
  return 'unavailable';
}

function once(request, url, method, body, deadline) {
  return new Promise((resolve) => {
    let settled = false;
    let timer;
    const finish = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const fail = (error) =>
      finish({ ok: false, kind: classify(error), message: String((error && error.message) || error) });
    const secure = url.protocol === 'https:';
    const transport = secure ? https : http;
    const headers = Object.assign({}, request.headers);
    if (body) headers['content-length'] = String(body.length);
    let req;
    try {
      req = transport.request(url, {
        method: method.toUpperCase(),
        headers,
        agent: secure ? (request.validateHttpsCertificates ? agents.https : agents.httpsInsecure) : agents.http,
      });
    } catch (error) {
      finish({ ok: false, kind: 'invalid', message: String(error.message) });
      return;
    }
    timer = setTimeout(
      () => {
        const error = new Error('deadline exceeded');
        error.code = 'ETIMEDOUT_DEADLINE';
        fail(error);
        req.destroy(error);
      },
      Math.max(1, deadline - Date.now()),
    );
    req.on('error', fail);
    req.on('response', (res) => {
      const chunks = [];
      let size = 0;
      res.on('data', (chunk) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          res.destroy(new Error('response too large'));
          return;
        }
        chunks.push(chunk);
      });
      res.on('aborted', () => fail(new Error('connection dropped')));
      res.on('error', fail);
      res.on('end', () => {
        if (res.aborted || !res.complete) {
          fail(new Error('connection dropped'));
          return;
        }
        const buffer = Buffer.concat(chunks);
        finish({
          ok: true,
          status: res.statusCode,
          rawHeaders: res.rawHeaders,
          body: new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length).slice(),
          finalUrl: url.toString(),
        });
      });
    });
    if (body) req.end(Buffer.from(body));
    else req.end();
  });
}

async function perform(request) {
  let url;
  try {
    url = new URL(request.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('unsupported protocol');
  } catch (error) {
    return { ok: false, kind: 'invalid', message: String(error.message) };
  }
  const deadline = Date.now() + request.timeoutMs;
  let method = request.method;
  let body = request.body;
  for (let hop = 0; ; hop++) {
    const result = await once(request, url, method, body, deadline);
    const location = result.ok ? headerValue(result.rawHeaders, 'location') : undefined;
    if (
      !result.ok ||
      !request.followRedirects ||
      ![301, 302, 303, 307, 308].includes(result.status) ||
      !location ||
      hop >= MAX_REDIRECTS
    ) {
      return result;
    }
    url = new URL(location, url);
    if (
      result.status === 303 ||
      ((result.status === 301 || result.status === 302) && method !== 'get' && method !== 'head')
    ) {
      method = 'get';
      body = undefined;
    }
  }
}

function headerValue(rawHeaders, name) {
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i].toLowerCase() === name) return rawHeaders[i + 1];
  return undefined;
}

port.on('message', async (message) => {
  const results = await Promise.all(
    message.requests.map((request) =>
      perform(request).catch((error) => ({ ok: false, kind: 'unavailable', message: String(error) })),
    ),
  );
  port.postMessage({ id: message.id, results });
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
