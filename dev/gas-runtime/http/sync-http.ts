// Synchronous HTTP for the emulated UrlFetchApp: one long-lived worker thread does the real (parallel)
// I/O while the calling thread blocks in Atomics.wait and collects the reply with receiveMessageOnPort.
// Batches carry ids so a late reply to an abandoned batch is dropped instead of being mistaken for the
// current one.
import path from 'node:path';
import { MessageChannel, MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';

export interface WireRequest {
  url: string;
  /** Lower-case HTTP method. */
  method: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  followRedirects: boolean;
  validateHttpsCertificates: boolean;
  /** Per-request deadline, redirects included. */
  timeoutMs: number;
}

export type WireResult =
  | { ok: true; status: number; rawHeaders: string[]; body: Uint8Array; finalUrl: string }
  | { ok: false; kind: 'timeout' | 'dns' | 'unavailable' | 'invalid'; message: string };

interface Reply {
  id: number;
  results: WireResult[];
}

const WORKER_FILE = path.join(__dirname, 'sync-http-worker.js');

export class SyncHttpClient {
  private worker: Worker | undefined;
  private port: MessagePort | undefined;
  private flag: Int32Array | undefined;
  private nextId = 0;

  private start(): { port: MessagePort; flag: Int32Array } {
    if (this.worker && this.port && this.flag) return { port: this.port, flag: this.flag };
    const signal = new SharedArrayBuffer(4);
    const channel = new MessageChannel();
    this.flag = new Int32Array(signal);
    this.port = channel.port1;
    this.worker = new Worker(WORKER_FILE, {
      workerData: { signal, port: channel.port2 },
      transferList: [channel.port2],
    });
    this.worker.unref();
    this.port.unref();
    return { port: this.port, flag: this.flag };
  }

  /** Performs the requests in parallel and blocks until all have finished (results in request order). */
  fetchAll(requests: WireRequest[]): WireResult[] {
    if (requests.length === 0) return [];
    const { port, flag } = this.start();
    const id = ++this.nextId;
    Atomics.store(flag, 0, 0);
    port.postMessage({ id, requests });
    // The worker enforces each request's deadline; this outer bound only guards against a dead worker.
    const deadline = Date.now() + Math.max(...requests.map((r) => r.timeoutMs)) + 5000;
    for (;;) {
      let message: { message: Reply } | undefined;
      while ((message = receiveMessageOnPort(port) as { message: Reply } | undefined)) {
        if (message.message.id === id) return message.message.results;
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        return requests.map(() => ({ ok: false, kind: 'timeout', message: 'no reply from the HTTP worker' }));
      }
      Atomics.wait(flag, 0, 0, remaining);
      Atomics.store(flag, 0, 0);
    }
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.port?.close();
    this.port = undefined;
    if (worker) await worker.terminate();
  }
}

/**
 * How long a worker no runtime uses stays up for the next one: a caller that closes one runtime and opens the next
 * (the money fuzzer's sequences, a test per runtime) keeps the thread and its open connections instead of starting
 * another (about 0.3 s of CPU each). The timer does not hold the process.
 */
const IDLE_STOP_MS = 2_000;

/**
 * One worker per process, shared by all runtimes (executions are synchronous, so they never overlap on
 * it); it is stopped once no runtime has used it for IDLE_STOP_MS.
 */
let shared: { client: SyncHttpClient; users: number; idleStop?: ReturnType<typeof setTimeout> } | undefined;

export function acquireSharedHttpClient(): SyncHttpClient {
  shared ??= { client: new SyncHttpClient(), users: 0 };
  clearTimeout(shared.idleStop);
  shared.idleStop = undefined;
  shared.users++;
  return shared.client;
}

export function releaseSharedHttpClient(): void {
  const current = shared;
  if (!current) return;
  current.users--;
  if (current.users > 0) return;
  current.idleStop = setTimeout(() => {
    if (shared !== current || current.users > 0) return;
    shared = undefined;
    void current.client.close();
  }, IDLE_STOP_MS);
  current.idleStop.unref();
}
