// Requests through WHATWG fetch (browsers, Workers, Deno, Bun; Node too), with no `node:` import.
//
// It owns the headers and idle timeouts, abort at any point, and the body as an HttpBody read off the response's
// ReadableStream.
import type { AbortLink } from './abort.js';
import { HttpErrorCode } from './codes.js';
import { BodyEvents } from './body-events.js';
import { CONTROL_CONNECTIONS } from './pools.js';
import { ClientTimeoutError } from './timeouts.js';
import type { FetchFunction, HttpBody, HttpClient, HttpHeaders, HttpRequest, HttpResponse } from './types.js';

/**
 * The client on `fetch`. The connections are the runtime's: `maxConnections` bounds the requests in
 * flight instead (each holds at most one connection over HTTP/1.1), with a few slots of their own for
 * notifications and replies and none for long-lived streams, as the other clients do. What `fetch` does
 * not let it do: the connect timeout is part of the headers timeout, redirects are followed, proxies are
 * the runtime's, and bodies come decoded (their `content-encoding` and `content-length` are left out of
 * the headers given). A browser keeps 6 connections per origin over HTTP/1.1: prefer HTTP/2 servers there.
 */
class FetchHttpClient implements HttpClient {
  readonly #fetch: FetchFunction;
  readonly #calls: Slots;
  readonly #control = new Slots(CONTROL_CONNECTIONS);
  /** Requests and bodies not finished yet: `close()` ends them. */
  readonly #live = new Set<AbortController>();
  #closed = false;

  constructor(fetch: FetchFunction, maxConnections: number) {
    this.#fetch = fetch;
    this.#calls = new Slots(maxConnections);
  }

  async request(r: HttpRequest): Promise<HttpResponse> {
    if (this.#closed) throw abortError(new Error('the HTTP client was closed'));
    const controller = new AbortController();
    const end = (error: Error): void => {
      if (!controller.signal.aborted) controller.abort(error);
    };
    const unlink = r.abort !== undefined ? followLink(r.abort, end) : followSignal(r.signal, end);
    if (controller.signal.aborted) throw controller.signal.reason;
    this.#live.add(controller);
    // Timed from here, as the other clients time a request waiting for a connection.
    const headersTimer = setTimeout(
      () => end(new ClientTimeoutError(HttpErrorCode.HeadersTimeout, r.headersTimeout)),
      r.headersTimeout,
    );
    const slots = r.longLived === true ? undefined : r.control === true ? this.#control : this.#calls;
    let held = false;
    const finished = (): void => {
      unlink();
      this.#live.delete(controller);
      if (held) slots?.release();
      held = false;
    };
    let response: Response;
    try {
      if (slots !== undefined) {
        await slots.take(controller.signal);
        held = true;
      }
      response = await this.#fetch(r.url.href, {
        method: r.method,
        headers: r.headers,
        ...(r.body !== undefined && { body: r.body }),
        // No `cache` option: workerd refuses the field, and a POST (or an event stream) is not cached.
        signal: controller.signal,
      });
    } catch (error) {
      finished();
      // Ended by us (abort, timeout): that is the error, not fetch's own AbortError for it.
      const reason: unknown = controller.signal.reason;
      throw controller.signal.aborted && reason instanceof Error ? reason : error;
    } finally {
      clearTimeout(headersTimer);
    }
    const body = new FetchBody(response.body, controller, r.bodyTimeout, finished);
    return { statusCode: response.status, headers: headersOf(response), body };
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const controller of this.#live) controller.abort(abortError(new Error('the HTTP client was closed')));
    this.#live.clear();
  }
}

/** A bound on requests in flight: `take` waits (abortably) for a free slot, in order of asking. */
class Slots {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  constructor(size: number) {
    this.#free = Math.max(1, size);
  }

  take(signal: AbortSignal): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const granted = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        const i = this.#waiting.indexOf(granted);
        if (i >= 0) this.#waiting.splice(i, 1);
        reject(signal.reason);
      };
      this.#waiting.push(granted);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  release(): void {
    const next = this.#waiting.shift();
    if (next !== undefined) next();
    else this.#free++;
  }
}

/**
 * A response's body as an HttpBody: read only while someone listens for 'data' or iterates, one chunk at
 * a time (nothing is buffered beyond it), with `bodyTimeout` ms allowed between chunks (0: no limit).
 * Ends with 'end' then 'close'; fails with 'error' then 'close'; `destroy()` cancels the stream.
 */
class FetchBody extends BodyEvents implements HttpBody {
  readonly #stream: ReadableStream<Uint8Array> | null;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  readonly #controller: AbortController;
  readonly #idleMs: number;
  readonly #finished: () => void;
  #pumping = false;
  #reading = false;
  readableEnded = false;
  destroyed = false;

  constructor(
    stream: ReadableStream<Uint8Array> | null,
    controller: AbortController,
    idleMs: number,
    finished: () => void,
  ) {
    super();
    this.#stream = stream;
    this.#controller = controller;
    this.#idleMs = idleMs;
    this.#finished = finished;
  }

  protected override listening(event: string): void {
    if (event === 'data') this.#pump();
  }

  destroy(error?: Error): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    // Cancelling the request's signal releases the stream (and the connection) at once.
    if (!this.#controller.signal.aborted) this.#controller.abort(error ?? abortError(new Error('destroyed')));
    if (this.#reader !== undefined) void this.#reader.cancel(error).catch(ignore);
    else if (this.#stream !== null && !this.#stream.locked) void this.#stream.cancel(error).catch(ignore);
    this.#finished();
    if (error !== undefined) this.emit('error', error);
    this.emit('close');
    return this;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    try {
      for (;;) {
        const chunk = await this.#read();
        if (chunk === undefined) return;
        yield chunk;
      }
    } finally {
      // Left early (a break, a throw in the loop): stop reading, as a Readable's iterator does.
      if (!this.readableEnded) this.destroy();
    }
  }

  /** Flowing mode: chunks go to the 'data' listeners as they come, until the end, an error or a destroy. */
  #pump(): void {
    if (this.#pumping) return;
    this.#pumping = true;
    void (async () => {
      try {
        for (;;) {
          const chunk = await this.#read();
          if (chunk === undefined) return;
          this.emit('data', chunk);
        }
      } catch {
        // #read destroyed the body with the error, which the 'error' listeners heard.
      }
    })();
  }

  /** The next chunk, undefined at the end (after 'end' and 'close'); a failure destroys the body and throws. */
  async #read(): Promise<Uint8Array | undefined> {
    if (this.destroyed) throw this.#failure(undefined);
    if (this.readableEnded) return undefined;
    if (this.#reading) throw new Error('a fetch body is read by one reader at a time');
    if (this.#stream === null) return this.#end();
    this.#reader ??= this.#stream.getReader();
    const reader = this.#reader;
    this.#reading = true;
    const timer =
      this.#idleMs > 0
        ? setTimeout(() => this.destroy(new ClientTimeoutError(HttpErrorCode.BodyTimeout, this.#idleMs)), this.#idleMs)
        : undefined;
    let next: Awaited<ReturnType<typeof reader.read>>;
    try {
      next = await reader.read();
    } catch (error) {
      const failure = this.#failure(error);
      this.destroy(failure);
      throw failure;
    } finally {
      this.#reading = false;
      clearTimeout(timer);
    }
    if (this.destroyed) throw this.#failure(undefined);
    if (next.done) return this.#end();
    return next.value;
  }

  #end(): undefined {
    this.readableEnded = true;
    this.#finished();
    this.emit('end');
    this.emit('close');
    return undefined;
  }

  /** What a failed read reports: why the request was ended (abort, timeout), else the stream's error. */
  #failure(error: unknown): Error {
    const reason: unknown = this.#controller.signal.reason;
    if (this.#controller.signal.aborted && reason instanceof Error) return reason;
    return error instanceof Error ? error : new Error(String(error ?? 'the response body failed'));
  }
}

/** The response headers, names in lower case; without the coding fetch already undid. */
function headersOf(response: Response): HttpHeaders {
  const out: Record<string, string | string[]> = {};
  const decoded = response.headers.has('content-encoding');
  response.headers.forEach((value, name) => {
    if (decoded && (name === 'content-encoding' || name === 'content-length')) return;
    out[name] = value;
  });
  const cookies = response.headers.getSetCookie?.();
  if (cookies !== undefined && cookies.length > 1) out['set-cookie'] = cookies;
  return out;
}

/** Calls `end` when the link aborts; returns the unlink. */
function followLink(link: AbortLink, end: (error: Error) => void): () => void {
  if (link.aborted) {
    end(abortError(link.reason));
    return ignore;
  }
  return link.onAbort(() => end(abortError(link.reason)));
}

function followSignal(signal: AbortSignal, end: (error: Error) => void): () => void {
  if (signal.aborted) {
    end(abortError(signal.reason));
    return ignore;
  }
  const onAbort = (): void => end(abortError(signal.reason));
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

const abortError = (reason: unknown): Error =>
  Object.assign(new Error('the request was aborted', { cause: reason }), { name: 'AbortError', code: 'ABORT_ERR' });

const ignore = (): void => {};

/** The client on `fetch` (the global one unless given), at most `maxConnections` calls in flight. */
export function fetchClient(fetch: FetchFunction | undefined, maxConnections: number): HttpClient {
  return new FetchHttpClient(fetch ?? globalFetch(), maxConnections);
}

function globalFetch(): FetchFunction {
  const f = (globalThis as { fetch?: FetchFunction }).fetch;
  if (typeof f !== 'function') throw new TypeError('this runtime has no global fetch: pass one as the `fetch` option');
  // Bound: some runtimes' fetch must be called with globalThis as `this`.
  return (input, init) => f.call(globalThis, input, init);
}
