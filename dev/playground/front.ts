// The playground's front: its socket lives in a worker thread (front-worker.js) that relays each request to `handle`
// on this thread, so that an execution blocked in Ui.alert (as Apps Script blocks it until the user answers) does not
// stop the page from seeing the question and posting the answer. `ask` is that blocking wait: it shows the question
// through the worker and sleeps in Atomics.wait until the worker hands over the click, for at most Apps Script's
// execution time (then the execution ends, as it does there).
import * as path from 'path';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { UiQuestion, UiResponse } from '../gas-runtime';
import { GasError } from '../gas-runtime/errors';

export interface FrontRequest {
  method: string;
  /** The path, without the query. */
  url: string;
  body: string;
}

export interface FrontReply {
  status: number;
  body: string;
  type: string;
}

export interface Front {
  port: number;
  /** Shows the question on the page and blocks this thread until the user answers it. */
  ask(question: UiQuestion): UiResponse;
  close(): Promise<void>;
}

const WORKER_FILE = path.join(__dirname, 'front-worker.js');
/** Apps Script's execution time limit: an alert nobody answers ends its execution then. */
const ANSWER_WAIT_MS = 6 * 60_000;
/** How often the wait looks for the answer (the worker wakes it at once; this only bounds a missed wake-up). */
const WAIT_SLICE_MS = 1000;

export async function startFront(port: number, handle: (request: FrontRequest) => Promise<FrontReply>): Promise<Front> {
  const signal = new SharedArrayBuffer(4);
  const flag = new Int32Array(signal);
  const relay = new MessageChannel();
  const answers = new MessageChannel();
  const worker = new Worker(WORKER_FILE, {
    workerData: { relay: relay.port2, answers: answers.port2, signal, port },
    transferList: [relay.port2, answers.port2],
  });
  relay.port1.on('message', (request: FrontRequest & { id: number }) => {
    void handle(request)
      .catch((error: unknown): FrontReply => {
        const message = error instanceof Error ? error.message : String(error);
        return { status: 500, body: JSON.stringify({ ok: false, message }), type: 'application/json' };
      })
      .then((reply) => relay.port1.postMessage({ id: request.id, ...reply }));
  });
  const listening = await new Promise<number>((resolve, reject) => {
    worker.once('message', (message: { listening?: number; error?: string }) =>
      message.listening === undefined ? reject(new Error(message.error)) : resolve(message.listening),
    );
    worker.once('error', reject);
  });
  let asked = 0;
  return {
    port: listening,
    ask(question: UiQuestion): UiResponse {
      const id = ++asked;
      Atomics.store(flag, 0, 0);
      answers.port1.postMessage({ id, ...question });
      const deadline = Date.now() + ANSWER_WAIT_MS;
      while (Date.now() < deadline) {
        let message: { message: UiResponse & { id: number } } | undefined;
        while ((message = receiveMessageOnPort(answers.port1) as typeof message)) {
          if (message.message.id === id) return { button: message.message.button, text: message.message.text };
        }
        Atomics.wait(flag, 0, 0, WAIT_SLICE_MS);
        Atomics.store(flag, 0, 0);
      }
      answers.port1.postMessage(null);
      throw new GasError(`Nobody answered "${question.title || question.prompt}": Exceeded maximum execution time`);
    },
    async close() {
      relay.port1.close();
      answers.port1.close();
      await worker.terminate();
    },
  };
}
