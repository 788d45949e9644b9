// The API's HTTP helpers: JSON bodies in (bounded) and out, errors with a status and a code, argument checks.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorInfo } from '../contract/api.js';

/** The largest request body the API reads. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A request error as the API shows it: the error's `code` when it has one. */
export function errorJson(error: unknown): ErrorInfo {
  if (error instanceof Error) {
    const code: unknown = (error as { code?: unknown }).code;
    const info = { code: typeof code === 'string' ? code : error.name || 'ERROR', message: error.message };
    return error instanceof ApiError && error.reason !== undefined ? { ...info, reason: error.reason } : info;
  }
  return { code: 'ERROR', message: String(error) };
}

/** An error the API answers with a status of its own. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Why, in a word of a closed set (a typed error's `reason`), when the code alone does not say. */
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The status an error is answered with: its own (ApiError, or a helper's error carrying one), else 502. */
export function statusOf(error: unknown): number {
  const status: unknown = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 502;
}

/** The request's JSON body (`{}` when empty); 413 past the bound, 415 when not application/json, 400 when not JSON. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const type = String(req.headers['content-type'] ?? '');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, 'too_large', `the body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  // A cross-site form can post text/plain without a preflight; the token already stops it, this too.
  if (!/^application\/json\b/i.test(type)) throw new ApiError(415, 'bad_content_type', 'send application/json');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, 'bad_json', 'the body is not JSON');
  }
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value ?? null);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(text);
}

export function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { error: { code, message } });
}

/** A 400 `bad_request` with `message` unless `ok`. */
export function need(ok: unknown, message: string): asserts ok {
  if (!ok) throw new ApiError(400, 'bad_request', message);
}

/** A JSON object (not an array, not null). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/** Every value of a record as a string (headers, environment). */
export function stringValues(record: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, String(v)]));
}
