// The transport's HTTP requests: POST a message, GET a stream, DELETE the session, with the headers the protocol owns.
import {
  ACCEPT_ENCODING,
  type AbortLink,
  backoffDelay,
  copyTraceHeaders,
  exchange,
  type Exchange,
  type HttpClient,
  type HttpMethod,
  type HttpResponse,
} from '@mcpc/http';
import type { AuthProvider, JsonRpcMessage, TransportSendOptions } from '@mcpc/jsonrpc';
import type { StreamCursor } from './messages.js';
import type { ResolvedOptions } from './options.js';
import type { Session } from './session.js';

/**
 * Sends the transport's HTTP requests through its client. It knows the options and the session (for
 * the headers), and nothing of what the answers mean.
 */
export class Wire {
  readonly #http: HttpClient;
  readonly #options: ResolvedOptions;
  readonly #session: Session;

  constructor(http: HttpClient, options: ResolvedOptions, session: Session) {
    this.#http = http;
    this.#options = options;
    this.#session = session;
  }

  /**
   * One message, POSTed; re-sent on a connection failure or 5xx only when `retryable`. `sessionId`: the
   * session it is sent in, as the caller saw it (the current one when not given) — not whatever the
   * session is once async configured headers resolve, which a renewal may have cleared meanwhile.
   */
  post(
    message: JsonRpcMessage,
    options: TransportSendOptions,
    abort: AbortLink,
    retryable: boolean,
    sessionId: string | undefined = this.#session.id,
  ): Promise<HttpResponse> {
    const longLived = options.longLived === true;
    const headers = this.headers('POST', options.headers, options.stateless === true, sessionId);
    if (headers instanceof Promise) return headers.then((h) => this.#post(message, h, abort, retryable, longLived));
    return this.#post(message, headers, abort, retryable, longLived);
  }

  #post(
    message: JsonRpcMessage,
    headers: Record<string, string>,
    abort: AbortLink,
    retryable: boolean,
    longLived: boolean,
  ): Promise<HttpResponse> {
    // The trace context in the message's _meta goes in the headers too, for HTTP-level tracing.
    copyTraceHeaders(message, headers);
    const post = new PostExchange(message, headers, abort, retryable, longLived, this.#options.auth);
    return exchange(this.#http, this.#options, post);
  }

  /** A GET stream: the server's own messages, or (with `lastEventId`) a resumed response stream. */
  async get(signal: AbortSignal, lastEventId: string | undefined, bodyTimeout: number): Promise<HttpResponse> {
    const headers = await this.headers('GET', undefined);
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    return exchange(this.#http, this.#options, {
      method: 'GET',
      headers,
      signal,
      retryable: false,
      bodyTimeout,
      auth: this.#options.auth,
    });
  }

  /** Ends the session at the server (best effort: bounded by `signal`). */
  async delete(signal: AbortSignal): Promise<HttpResponse> {
    return exchange(this.#http, this.#options, {
      method: 'DELETE',
      headers: await this.headers('DELETE', undefined),
      signal,
      retryable: false,
      auth: this.#options.auth,
    });
  }

  /** Releases the client's connections. */
  close(): Promise<void> {
    return this.#http.close();
  }

  /** The headers of a request: at once, unless the configured headers come from a function (which may be async). */
  headers(
    method: HttpMethod,
    extra: Readonly<Record<string, string>> | undefined,
    stateless = false,
    sessionId: string | undefined = this.#session.id,
  ): Record<string, string> | Promise<Record<string, string>> {
    const configured = this.#options.headers;
    if (typeof configured !== 'function') return this.#headersWith(configured, method, extra, stateless, sessionId);
    return Promise.resolve(configured()).then((h) => this.#headersWith(h, method, extra, stateless, sessionId));
  }

  /** The server's `retry:` when it gave one (never below the floor), else our backoff. */
  reconnectDelay(cursor: StreamCursor, attempt: number): number {
    const floor = this.#options.minRetryIntervalMs;
    return Math.max(floor, cursor.retryMs ?? backoffDelay(attempt, this.#options.reconnectDelay));
  }

  #headersWith(
    configured: Readonly<Record<string, string>> | undefined,
    method: HttpMethod,
    extra: Readonly<Record<string, string>> | undefined,
    stateless: boolean,
    sessionId: string | undefined,
  ): Record<string, string> {
    const headers: Record<string, string> = {};
    if (configured !== undefined) {
      for (const [name, value] of Object.entries(configured)) {
        const key = name.toLowerCase();
        // On a stateless request the protocol owns Mcp-Param-*: they mirror the call's own arguments,
        // and a configured one would stand in for an argument the call did not carry.
        if (stateless && key.startsWith('mcp-param-')) continue;
        headers[key] = value;
      }
    }
    if (extra !== undefined) for (const [name, value] of Object.entries(extra)) headers[name.toLowerCase()] = value;
    if (stateless) {
      headers.accept = 'application/json, text/event-stream';
      headers['content-type'] = 'application/json';
      headers['accept-encoding'] = ACCEPT_ENCODING;
      return headers;
    }
    // What the protocol owns is set last, so configured headers cannot contradict it.
    headers.accept =
      method === 'GET'
        ? 'text/event-stream'
        : this.#options.mode === 'json'
          ? 'application/json'
          : 'application/json, text/event-stream';
    if (method === 'POST') headers['content-type'] = 'application/json';
    if (method !== 'DELETE') headers['accept-encoding'] = ACCEPT_ENCODING;
    if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
    if (this.#session.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.#session.protocolVersion;
    return headers;
  }
}

/**
 * A POST's exchange. A class, its `signal` a getter on the prototype, made only if something asks for it
 * (see AbortLink): a getter in an object literal gives each object accessors of its own, a cost of
 * several µs a call.
 */
class PostExchange implements Exchange {
  readonly method = 'POST';
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly abort: AbortLink;
  readonly retryable: boolean;
  readonly rpcMethod: string | undefined;
  readonly auth: AuthProvider | undefined;
  /** A subscription stream may be quiet for long: no idle timeout between its chunks. */
  readonly bodyTimeout: number | undefined;
  /** Carried outside the connection bound (see HttpRequest.longLived). */
  readonly longLived: boolean;
  /** Notifications and replies never queue behind calls for a connection (see HttpRequest.control). */
  readonly control: boolean;

  constructor(
    message: JsonRpcMessage,
    headers: Record<string, string>,
    abort: AbortLink,
    retryable: boolean,
    longLived: boolean,
    auth: AuthProvider | undefined,
  ) {
    this.headers = headers;
    this.body = JSON.stringify(message);
    this.abort = abort;
    this.retryable = retryable;
    this.rpcMethod = 'method' in message ? message.method : undefined;
    this.auth = auth;
    this.bodyTimeout = longLived ? 0 : undefined;
    this.longLived = longLived;
    this.control = !('id' in message && 'method' in message);
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }
}
