// HTTP plumbing for the sandbox server: reading bounded request bodies, decoding JSON with FastAPI-style errors,
// the error types handlers throw (HttpError, ValidationFailure), and writing JSON responses (optionally slowly).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { issue, ValidationFailure } from './validation';

export const MAX_BODY_BYTES = 5 * 1024 * 1024;

/** An error with a status and a FastAPI-style `detail` (a string, or an object for 402). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail));
  }
}

export interface JsonResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError(413, `Request body larger than ${MAX_BODY_BYTES} bytes`));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Decodes a JSON request body; an empty body is `undefined` (handlers report required fields as missing). */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message);
    throw new ValidationFailure([
      issue(['body', position ? Number(position[1]) : 0], 'JSON decode error', 'json_invalid'),
    ]);
  }
}

export function errorResponse(error: unknown): JsonResponse {
  if (error instanceof ValidationFailure) return { status: 422, body: { detail: error.issues } };
  if (error instanceof HttpError)
    return { status: error.status, body: { detail: error.detail }, headers: error.headers };
  return { status: 500, body: { detail: 'Internal Server Error' } };
}

export interface SendOptions {
  /** The body trickles out in chunks over this time. */
  slowBodyMs?: number;
  /** "\n" escapes inside strings are written as raw newlines (not valid JSON; clients must parse tolerantly). */
  rawNewlines?: boolean;
}

/** An escaped newline not preceded by an odd number of backslashes (so an escaped backslash + "n" is left alone). */
const ESCAPED_NEWLINE = /(?<!\\)((?:\\\\)*)\\n/g;

/** Writes a JSON response. */
export function sendJson(response: ServerResponse, reply: JsonResponse, options: SendOptions = {}): void {
  const text = JSON.stringify(reply.body);
  const payload = Buffer.from(options.rawNewlines ? text.replace(ESCAPED_NEWLINE, '$1\n') : text, 'utf8');
  const slowBodyMs = options.slowBodyMs ?? 0;
  response.writeHead(reply.status, {
    'content-type': 'application/json',
    'content-length': String(payload.length),
    ...reply.headers,
  });
  if (slowBodyMs <= 0 || payload.length < 2) {
    response.end(payload);
    return;
  }
  const pieces = Math.min(10, payload.length);
  const pieceSize = Math.ceil(payload.length / pieces);
  let sent = 0;
  const writeNext = (): void => {
    if (response.destroyed) return;
    const piece = payload.subarray(sent, sent + pieceSize);
    sent += piece.length;
    if (sent >= payload.length) response.end(piece);
    else {
      response.write(piece);
      setTimeout(writeNext, slowBodyMs / pieces);
    }
  };
  writeNext();
}
