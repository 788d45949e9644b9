// The shapes every HTTP client here shares: a request, a response, the client, the choice between them.
import type { AbortLink } from './abort.js';

export type HttpMethod = 'POST' | 'GET' | 'DELETE';

/** Response headers, names in lower case (a repeated header as an array). */
export type HttpHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * A response body, by the shape the readers here use: its chunks as events or by async iteration, and
 * `destroy` to stop it. A Node `Readable` has this shape; the `fetch` client gives one over a
 * `ReadableStream`, so nothing here needs Node's streams.
 */
export interface HttpBody extends AsyncIterable<Uint8Array> {
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  once(event: 'error', listener: (error: Error) => void): unknown;
  once(event: 'end' | 'close', listener: () => void): unknown;
  off(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  off(event: 'error', listener: (error: Error) => void): unknown;
  off(event: 'end' | 'close', listener: () => void): unknown;
  destroy(error?: Error): unknown;
  /** True once the body was read to its end. */
  readonly readableEnded: boolean;
  /** True once the body was destroyed. */
  readonly destroyed: boolean;
}

/** A response as every HTTP client here delivers it. */
export interface HttpResponse {
  readonly statusCode: number;
  readonly headers: HttpHeaders;
  /**
   * The body's bytes as they came (still compressed, if they were and the client does not decode: `fetch`
   * does, and says so by leaving `content-encoding` out of the headers): read it, or `discard` it.
   */
  readonly body: HttpBody;
}

export interface HttpRequest {
  readonly url: URL;
  readonly method: HttpMethod;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  /** Aborts the exchange, before or after the response headers. */
  readonly signal: AbortSignal;
  /**
   * The same abort as `signal`, as an AbortLink: when given, a client that can listens here and leaves
   * `signal` unread (it may be made on first read: see `Sends`).
   */
  readonly abort?: AbortLink | undefined;
  /** Milliseconds to wait for the response headers. */
  readonly headersTimeout: number;
  /** Milliseconds of silence allowed between body chunks; 0 for none. */
  readonly bodyTimeout: number;
  /**
   * A stream that may stay open for as long as the host wants it (a subscription): carried on
   * connections outside the `maxConnections` bound, so that many held open cannot starve other requests.
   */
  readonly longLived?: boolean;
  /**
   * A notification or a reply to a server's request: carried on a few connections of its own
   * (`CONTROL_CONNECTIONS`), so that calls holding every bounded connection — each waiting, say,
   * for the answer to an elicitation the server asked on its stream — cannot keep that answer, or a
   * cancellation, from going out.
   */
  readonly control?: boolean;
}

/**
 * A `fetch`: the global one, or your own (a Worker's service binding, an instrumented fetch, a test
 * double). Called as `fetch(url, init)`, with `init.signal` always set.
 */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/** Sends HTTP requests; see {@link createHttpClient}. */
export interface HttpClient {
  request(request: HttpRequest): Promise<HttpResponse>;
  /** Releases the connections it opened (a dispatcher you passed is left open). */
  close(): Promise<void>;
}

/**
 * Which HTTP client carries the requests:
 * - `'auto'` (default): undici when it is installed, else Node's `node:http`/`node:https`; `fetch` where
 *   there is no `node:http` (a browser, a Worker) and on Bun (whose `node:http` is built on its fetch);
 * - `'undici'`: undici, which must be installed (`HttpClientUnavailableError` otherwise);
 * - `'node'`: `node:http`/`node:https`, even when undici is installed;
 * - `'fetch'`: WHATWG `fetch` — the global one, or the `fetch` option.
 *
 * A `dispatcher` is always used through undici's API. Proxy variables are honoured by undici and Node's
 * client; with `fetch` the runtime decides.
 */
export type HttpClientChoice = 'auto' | 'undici' | 'node' | 'fetch';

/**
 * An undici `Dispatcher` (an `Agent` with TLS options, a `ProxyAgent`, one composed with interceptors),
 * declared by shape so that this package's types need no undici installed.
 */
export interface UndiciDispatcher {
  request(...args: never[]): unknown;
  dispatch(...args: never[]): unknown;
  close(...args: never[]): unknown;
}

export interface HttpClientOptions {
  /** `'fetch'` when `fetch` is given, else `'auto'`. */
  readonly choice?: HttpClientChoice;
  readonly dispatcher?: UndiciDispatcher | undefined;
  /**
   * The `fetch` to send with (implies `choice: 'fetch'`): a Worker's service binding, an instrumented
   * fetch, a test double. Called as `fetch(url, init)`.
   */
  readonly fetch?: FetchFunction | undefined;
  /** Milliseconds to establish a connection, with the client's own connections (10 000). */
  readonly connectTimeout?: number;
  /**
   * Most connections open at once per origin, with the client's own connections (64); requests past it
   * wait. Long-lived streams (`HttpRequest.longLived`) are not counted: each is one the host asked for.
   */
  readonly maxConnections?: number;
  /**
   * The environment whose proxy variables count (`process.env`), read once, here. undici's
   * `EnvHttpProxyAgent` reads `process.env` itself: pass another one only with `choice: 'node'`.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Headers a transport sends with every HTTP request: fixed, or computed per request (a rotating token). */
export type HeadersOption =
  | Readonly<Record<string, string>>
  | (() => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>);
