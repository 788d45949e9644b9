// Server-sent events read from a body or from byte chunks, each event bounded, ids checked before they are echoed.
import type { BodyEnd, BodyFollower } from './body-events.js';
import { bodyChunks, destroyQuietly, followBody, isIdentityEncoding, prematureClose } from './body.js';
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
    const read = new SseBodyRead(body, new SseParser(maxBufferChars, handlers), handlers, resolve, reject);
    read.stop = followBody(body, read);
  });
}

/**
 * One uncompressed SSE body read off its chunks into a parser: a class, where closures over the parser
 * cost four objects a response, all held while it is read.
 */
class SseBodyRead implements BodyFollower {
  readonly #body: HttpBody;
  readonly #parser: SseParser;
  readonly #handlers: SseHandlers;
  readonly #resolve: () => void;
  readonly #reject: (error: unknown) => void;
  /** Stops following the body (set once it is followed). */
  stop: () => void = noop;

  constructor(
    body: HttpBody,
    parser: SseParser,
    handlers: SseHandlers,
    resolve: () => void,
    reject: (error: unknown) => void,
  ) {
    this.#body = body;
    this.#parser = parser;
    this.#handlers = handlers;
    this.#resolve = resolve;
    this.#reject = reject;
  }

  onData(chunk: Uint8Array): void {
    const parser = this.#parser;
    try {
      parser.feed(chunk);
    } catch (error) {
      return this.#leave(error);
    }
    if (parser.overflow !== undefined) this.#leave(parser.overflow);
    else if (this.#handlers.stop?.() === true) this.#leave();
  }

  onEnd(end: BodyEnd): void {
    if (end === 'end') this.#resolve();
    else this.#reject(end === 'close' ? prematureClose() : end);
  }

  /** Done before the body's end: released, and the read settled. */
  #leave(error?: unknown): void {
    this.stop();
    destroyQuietly(this.#body);
    if (error === undefined) this.#resolve();
    else this.#reject(error);
  }
}

const noop = (): void => {};
