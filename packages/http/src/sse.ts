// Server-sent events read from a body or from byte chunks, each event bounded, ids checked before they are echoed.
import { bodyChunks, destroyQuietly, followBody, isIdentityEncoding } from './body.js';
import { SseParser, type SseCallbacks } from './sse-parser.js';
import type { HttpBody } from './types.js';

export { isAcceptableEventId, type SseEvent } from './sse-parser.js';

export interface SseHandlers extends SseCallbacks {
  /** Asked after each chunk: true stops reading there (the stream is released, nothing is thrown). */
  readonly stop?: (() => boolean) | undefined;
}

/**
 * Reads SSE events from decompressed byte chunks, with at most `maxBufferChars` buffered for one
 * unfinished line or event: an event that never ends costs bounded memory, and ends the stream with
 * ResponseTooLargeError.
 */
export async function readSse(
  chunks: AsyncIterable<Uint8Array>,
  maxBufferChars: number,
  handlers: SseHandlers,
): Promise<void> {
  const parser = new SseParser(maxBufferChars, handlers);
  for await (const chunk of chunks) {
    parser.feed(chunk);
    if (parser.overflow !== undefined) throw parser.overflow;
    if (handlers.stop?.() === true) return; // leaving the loop releases the body
  }
}

/**
 * Reads the SSE events of a response body, as {@link readSse} does with `bodyChunks(body, …)`. An
 * uncompressed body (nearly all of them) is read off its 'data' events: an async iterator per body
 * (its promises, its end-of-stream watcher) cost more than parsing a small answer. Resolves when the
 * body ends or `stop` says so (the body is released then); rejects when it fails, closes before its
 * end, or an event outgrows the bound.
 */
export function readSseBody(
  body: HttpBody,
  contentEncoding: string | undefined,
  maxBufferChars: number,
  handlers: SseHandlers,
): Promise<void> {
  if (!isIdentityEncoding(contentEncoding))
    return readSse(bodyChunks(body, contentEncoding, undefined), maxBufferChars, handlers);
  return new Promise<void>((resolve, reject) => {
    const parser = new SseParser(maxBufferChars, handlers);
    const leave = (error?: unknown): void => {
      stop();
      destroyQuietly(body);
      if (error === undefined) resolve();
      else reject(error);
    };
    const stop = followBody(
      body,
      (chunk) => {
        try {
          parser.feed(chunk);
        } catch (error) {
          return leave(error);
        }
        if (parser.overflow !== undefined) leave(parser.overflow);
        else if (handlers.stop?.() === true) leave();
      },
      (end) => {
        if (end === 'end') resolve();
        else if (end === 'close')
          // Destroyed without an error (aborted): the body did not end.
          reject(
            Object.assign(new Error('the response body closed before it ended'), {
              code: 'ERR_STREAM_PREMATURE_CLOSE',
            }),
          );
        else reject(end);
      },
    );
  });
}
