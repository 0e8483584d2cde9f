// Worker thread of the playground that owns its listening socket (plain CommonJS: jest transforms do not reach
// workers). Every request is relayed to the main thread, which runs the executions, except the ones that must be
// answered while an execution there is blocked in Ui.alert waiting for the user: GET /api/alert (the question shown
// now, or null) and POST /api/alert (the button clicked), which hands the answer over and wakes the execution.
// While a question waits, /api/state is refused at once (503) rather than held, so the page's polls do not take the
// browser's few connections to this address that the answer needs.
'use strict';
const { workerData, parentPort } = require('node:worker_threads');
const http = require('node:http');

const { relay, answers, signal, port } = workerData;
const flag = new Int32Array(signal);
/** Responses waiting for the main thread, by request id. */
const waiting = new Map();
let nextId = 0;
/** The question the main thread waits on: { id, kind, title, prompt, buttons }, or null. */
let question = null;

function send(response, status, body, type = 'application/json') {
  response.writeHead(status, { 'Content-Type': `${type}; charset=utf-8`, 'Cache-Control': 'no-store' });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function answer(response, text) {
  let body;
  try {
    body = JSON.parse(text || '{}');
  } catch {
    return send(response, 400, { ok: false, message: 'not JSON' });
  }
  const allowed = question ? [...question.buttons, 'CLOSE'] : [];
  if (!question || body.id !== question.id || !allowed.includes(body.button))
    return send(response, 409, { ok: false, message: 'no such question waits for an answer' });
  answers.postMessage({ id: question.id, button: body.button, text: String(body.text ?? '') });
  question = null;
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
  return send(response, 200, { ok: true });
}

answers.on('message', (asked) => {
  question = asked;
});
relay.on('message', (reply) => {
  const response = waiting.get(reply.id);
  waiting.delete(reply.id);
  if (response) send(response, reply.status, reply.body, reply.type);
});

const server = http.createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const url = (request.url || '/').split('?')[0];
    if (url === '/api/alert') {
      return request.method === 'POST' ? answer(response, body) : send(response, 200, { question });
    }
    if (question && url === '/api/state') return send(response, 503, { ok: false, message: 'waiting for an answer' });
    const id = ++nextId;
    waiting.set(id, response);
    relay.postMessage({ id, method: request.method, url, body });
  });
});
server.on('error', (error) => parentPort.postMessage({ error: String(error.message || error) }));
server.listen(port, '127.0.0.1', () => parentPort.postMessage({ listening: server.address().port }));
