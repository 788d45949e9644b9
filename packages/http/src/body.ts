// Response bodies: incremental decompression within a cap, plain reads, quiet discards — on any HttpBody.
import { BodyEvents, type BodyEnd, type BodyFollower } from './body-events.js';
import { allocBytes, concatBytes, utf8 } from './bytes.js';
import { ResponseTooLargeError } from './errors.js';
import type { HttpBody } from './types.js';

/** What we accept; the server may compress with any of them. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/**
 * The body's bytes as they arrive, decompressed incrementally. With `limit`, reading stops as soon as
 * the decompressed total passes it (ResponseTooLargeError): a small, highly compressed body cannot
 * expand into gigabytes in memory. Without it (long-lived SSE streams, bounded per event instead),
 * chunks are still decompressed one at a time and never accumulated here.
 */
export async function* bodyChunks(
  body: HttpBody,
  contentEncoding: string | undefined,
  limit: number | undefined,
): AsyncGenerator<Uint8Array> {
  const encodings = codings(contentEncoding);
  // The decoder is loaded the first time a body comes coded: only Node's own clients hand one over
  // (fetch decodes its own), so a browser or a Worker never loads node:zlib.
  const decoding = encodings.length > 0 ? (await import('#decompress')).decode(body, encodings) : undefined;
  const source: AsyncIterable<Uint8Array> = decoding?.chunks ?? body;
  let total = 0;
  try {
    for await (const chunk of source) {
      total += chunk.length;
      if (limit !== undefined && total > limit) throw new ResponseTooLargeError(limit);
      yield chunk;
    }
  } finally {
    // Stops reading (and decompressing) at once when the consumer leaves early, for whatever reason.
    decoding?.stop();
    destroyQuietly(body);
  }
}

/** The content codings of a `Content-Encoding` header, in the order they were applied. */
function codings(contentEncoding: string | undefined): string[] {
  return (contentEncoding ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '' && e !== 'identity');
}

/** Whether a body with this `Content-Encoding` is not compressed at all. */
export function isIdentityEncoding(contentEncoding: string | undefined): boolean {
  return contentEncoding === undefined || contentEncoding === '' || codings(contentEncoding).length === 0;
}

/**
 * An uncompressed body as text, within `limit` bytes, read off the stream's 'data' events in one go:
 * for the small JSON answers of most calls, an async generator per body costs more than the read.
 * With `declaredBytes` (a Content-Length within the limit) the bytes are copied into one buffer of that
 * size as they arrive, so a large body is never held twice (the chunks and their concatenation). Stops
 * reading as soon as the limit is passed (ResponseTooLargeError), and destroys the body then.
 */
export function readPlainText(
  body: HttpBody,
  limit: number,
  declaredBytes?: number,
): Promise<{ text: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const collected = new Collected(declaredBytes);
    const stop = followBody(body, {
      onData(chunk) {
        if (collected.bytes + chunk.length > limit) {
          stop();
          destroyQuietly(body);
          return reject(new ResponseTooLargeError(limit));
        }
        collected.add(chunk);
      },
      onEnd(end) {
        if (end === 'end') {
          const bytes = collected.bytes;
          resolve({ text: utf8(collected.take()), bytes });
        } else if (end === 'close') reject(prematureClose());
        else reject(end);
      },
    });
  });
}

/**
 * Hands a body's chunks to `follower.onData` until it ends, fails or closes, whichever comes first, then
 * calls `follower.onEnd` once with which. Returns a function that stops following it early (no `onEnd`
 * then).
 */
export function followBody(body: HttpBody, follower: BodyFollower): () => void {
  // Our own bodies (undici's dispatch, fetch) keep one follower in a field, without listeners.
  if (body instanceof BodyEvents && body.follow(follower)) return () => body.unfollow(follower);
  const stop = (): void => {
    body.off('data', onData);
    body.off('end', onFinished);
    body.off('error', onError);
    body.off('close', onClosed);
  };
  const settle = (end: BodyEnd): void => {
    stop();
    follower.onEnd(end);
  };
  const onData = (chunk: Uint8Array): void => follower.onData(chunk);
  const onFinished = (): void => settle('end');
  const onError = (error: Error): void => settle(error);
  const onClosed = (): void => settle('close');
  body.on('data', onData);
  body.once('end', onFinished);
  body.once('error', onError);
  body.once('close', onClosed);
  return stop;
}

/** Body bytes as they arrive: into one buffer of the declared size, else as a list of chunks. */
class Collected {
  #buffer: Uint8Array | undefined;
  #parts: Uint8Array[] = [];
  bytes = 0;

  constructor(declaredBytes: number | undefined) {
    // Only for bodies large enough for the copy to pay; an unfilled buffer leaves untouched pages unmapped.
    if (declaredBytes !== undefined && declaredBytes >= PREALLOCATE_FROM) this.#buffer = allocBytes(declaredBytes);
  }

  add(chunk: Uint8Array): void {
    const buffer = this.#buffer;
    if (buffer !== undefined && this.bytes + chunk.length <= buffer.length) buffer.set(chunk, this.bytes);
    else {
      // More than declared (the client checks the framing; this only keeps the bytes straight).
      if (buffer !== undefined) {
        this.#parts.push(buffer.subarray(0, this.bytes));
        this.#buffer = undefined;
      }
      this.#parts.push(chunk);
    }
    this.bytes += chunk.length;
  }

  /** The bytes, once; what is held here is dropped. */
  take(): Uint8Array {
    const buffer = this.#buffer;
    const parts = this.#parts;
    this.#buffer = undefined;
    this.#parts = [];
    if (buffer !== undefined) return buffer.length === this.bytes ? buffer : buffer.subarray(0, this.bytes);
    return parts.length === 1 ? parts[0]! : concatBytes(parts, this.bytes);
  }
}

const PREALLOCATE_FROM = 256 * 1024;

/** What a body destroyed without an error (aborted) before its end reports, as Node's streams name it. */
export function prematureClose(): Error {
  return Object.assign(new Error('the response body closed before it ended'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

/**
 * Stops reading a body we are done with. undici's bodies report a destroy as an error, which must find
 * a listener: one nobody hears would crash the host.
 */
export function destroyQuietly(body: HttpBody): void {
  body.on('error', ignore);
  body.destroy();
}

const ignore = (): void => {};

/** The whole body as text, within `limit` decompressed bytes. */
export async function readText(body: HttpBody, contentEncoding: string | undefined, limit: number): Promise<string> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of bodyChunks(body, contentEncoding, limit)) {
    parts.push(chunk);
    total += chunk.length;
  }
  return utf8(concatBytes(parts, total));
}
