// The life of a request's SSE response stream: closed once its answer is in, and bounded when idle.
import { destroyQuietly, type HttpBody } from '@mcpc/http';
import { StreamableHttpErrorCode } from './codes.js';

/**
 * How long a stream that has delivered its answer may take to end by itself before it is closed. A
 * server ends it right after the answer (the spec says it SHOULD), so the end arrives with the answer
 * or just after; one that keeps the stream open would otherwise hold a connection per call.
 */
export const ANSWERED_STREAM_GRACE_MS = 100;

/** An SSE stream that carried no event (only comments, or nothing) for its idle time. */
export class StreamIdleError extends Error {
  readonly code = StreamableHttpErrorCode.StreamIdle;

  constructor(ms: number) {
    super(`no event for ${ms} ms (SSE comments do not count)`);
    this.name = 'StreamIdleError';
  }
}

/**
 * Watches the response stream(s) of one request — the POST's, then any resumed with GET:
 * - until the answer, the stream may stay silent for at most `idleMs` between *events*: keep-alive
 *   comments reset the HTTP client's idle timer (they are bytes) but not this one, so a server that
 *   sends only comments cannot hold a request open for ever (0: no bound, for long-lived answers);
 * - once the answer is in, nothing else is expected on the stream (a POST carries one request; what
 *   belongs to it comes before its response): the stream is closed at the next chunk that is not its
 *   end, or after {@link ANSWERED_STREAM_GRACE_MS}, whichever comes first.
 */
export class AnswerStream {
  readonly #idleMs: number;
  #body: HttpBody | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** The stream the idle timer watches. */
  #timerBody: HttpBody | undefined;
  #answered = false;
  /** Chunks read since (and including) the one that carried the answer. */
  #chunksSinceAnswer = 0;

  constructor(idleMs: number) {
    this.#idleMs = idleMs;
  }

  /** A stream of this request begins (the POST's, or a resumed one). */
  follow(body: HttpBody): void {
    this.#body = body;
    if (!this.#answered) this.#armIdle();
  }

  /** An event arrived: the stream is not idle. */
  event(): void {
    if (!this.#answered) this.#armIdle();
  }

  /** The answer arrived: from now on the stream only has to end. */
  answered(): void {
    if (this.#answered) return;
    this.#answered = true;
    clearTimeout(this.#timer);
    this.#timerBody = undefined;
    const body = this.#body;
    if (body === undefined) return;
    this.#timer = setTimeout(() => destroyQuietly(body), ANSWERED_STREAM_GRACE_MS);
    this.#timer.unref?.();
  }

  /** Asked after each chunk is parsed: true stops reading (a chunk came after the answer's own). */
  stopReading(): boolean {
    return this.#answered && this.#chunksSinceAnswer++ > 0;
  }

  /** Reading is over: no timer outlives it. */
  release(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerBody = undefined;
    this.#body = undefined;
  }

  #armIdle(): void {
    const body = this.#body;
    if (this.#idleMs <= 0 || body === undefined) return;
    // The same stream's timer is restarted in place where timers can be (Node, Deno, Bun: one timer per
    // stream, not one per event); in browsers and Workers a timer is a number, made anew.
    const timer = this.#timer as { refresh?: () => unknown } | undefined;
    if (timer?.refresh !== undefined && this.#timerBody === body) return void timer.refresh();
    clearTimeout(this.#timer);
    this.#timerBody = body;
    const ms = this.#idleMs;
    this.#timer = setTimeout(() => {
      // Ends the read with this error; the body reports nothing more to anyone.
      body.on('error', ignore);
      body.destroy(new StreamIdleError(ms));
    }, ms);
    this.#timer.unref?.();
  }
}

const ignore = (): void => {};
