// The legacy HTTP+SSE transport: its lifecycle (start, reconnect with session replay, keep-alive, close) and sending.
//
// The stream, the awaited answers and the HTTP answers' reading live beside it.
import {
  HttpError,
  ResponseStreamClosedError,
  UnauthorizedError,
  backoffDelay,
  copyTraceHeaders,
  createHttpClient,
  refused,
  discard,
  exchange,
  header,
  ReplyQueue,
  Sends,
  sleep,
  untilAborted,
  type ExchangeSettings,
  type HttpClient,
  utf8Length,
} from '@mcpc/http';
import {
  ConnectionClosedError,
  decodeMessage,
  escapeForLog,
  safeLog,
  warningsToConsole,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type Logger,
  type Transport,
  type TransportSendOptions,
  type TransportSink,
} from '@mcpc/jsonrpc';

import { Answers } from './answers.js';
import { EndpointOriginError, EndpointTimeoutError } from './errors.js';
import { resolveOptions, type ResolvedSseOptions, type SseTransportOptions } from './options.js';
import { mediaTypeOf, requestHeaders, unauthorized } from './responses.js';
import { openStream, type Stream } from './stream.js';

let deprecationNoticeGiven = false;

/**
 * MCP's deprecated HTTP+SSE transport (2024-11-05): a GET opens an SSE stream whose `endpoint` event
 * names where to POST messages; every answer comes back on the stream. The endpoint must stay on the
 * stream's origin. A dropped stream is re-opened with backoff; since the server starts a new session on
 * it, requests still waiting fail with `ResponseStreamClosedError` and the initialize exchange is
 * replayed. Idle connections are probed with `ping`.
 */
export class SseTransport implements Transport {
  readonly #options: ResolvedSseOptions;
  readonly #settings: ExchangeSettings;
  readonly #logger: Logger;
  readonly #http: HttpClient;
  readonly #closing = new AbortController();
  /** One per message in flight, aborted on close; a request's is found by its id when it is abandoned. */
  readonly #sends = new Sends();
  readonly #answers = new Answers();
  /** Our answers to the server's requests: a few POSTs at a time, a bounded queue behind them. */
  readonly #replies: ReplyQueue;
  #sink: TransportSink | undefined;
  #state: 'new' | 'open' | 'closed' = 'new';
  #stream: Stream | undefined;
  #endpoint: Promise<URL> | undefined;
  #initialize: JsonRpcRequest | undefined;
  #initialized = false;
  #run: Promise<void> | undefined;
  #internalIds = 0;
  #lastInbound = Date.now();
  #pingOutstanding: string | undefined;
  #pingTimer: NodeJS.Timeout | undefined;

  constructor(options: SseTransportOptions) {
    this.#options = resolveOptions(options);
    this.#settings = {
      url: this.#options.url,
      retries: this.#options.retries,
      retryDelay: this.#options.retryDelay,
      readTimeout: this.#options.readTimeout,
    };
    this.#logger = options.logger ?? warningsToConsole;
    this.#http = createHttpClient({
      ...(options.httpClient !== undefined && { choice: options.httpClient }),
      dispatcher: options.dispatcher,
      fetch: options.fetch,
      connectTimeout: this.#options.connectTimeout,
      maxConnections: this.#options.maxConnections,
    });
    this.#replies = new ReplyQueue({
      maxInFlight: this.#options.maxConcurrentReplies,
      maxQueued: this.#options.maxQueuedReplies,
      warn: (w) => this.#warn(w),
    });
  }

  async start(sink: TransportSink): Promise<void> {
    if (this.#state !== 'new') throw new TypeError('an SseTransport can be started once');
    this.#sink = sink;
    const stream = this.#open();
    try {
      await stream.ready;
    } catch (error) {
      stream.abort.abort();
      await this.#http.close().catch(() => {});
      throw error;
    }
    this.#state = 'open';
    this.#stream = stream;
    this.#endpoint = stream.ready;
    this.#run = this.#keepOpen(stream);
    this.#startPings();
    if (this.#options.deprecationNotice && !deprecationNoticeGiven) {
      deprecationNoticeGiven = true;
      this.#warn('the HTTP+SSE transport is deprecated (since MCP 2025-03-26); migrate the server to Streamable HTTP');
    }
  }

  async send(message: JsonRpcMessage, options: TransportSendOptions = {}): Promise<void> {
    if (this.#state !== 'open') throw new ConnectionClosedError('method' in message ? message.method : undefined);
    // An answer to the server's request waits its turn: a flood of them must not open a socket each.
    if (!('method' in message)) return this.#replies.run(() => this.#send(message, options));
    return this.#send(message, options);
  }

  async #send(message: JsonRpcMessage, options: TransportSendOptions): Promise<void> {
    // JsonRpcEngine passes no signal: it calls abandon(id).
    const send = this.#sends.begin(message, options.signal);
    const signal = send.signal;
    const isRequest = 'method' in message && 'id' in message;
    try {
      if (isRequest && message.method === 'initialize') this.#initialize = message;
      const answered = isRequest ? this.#answers.await(message, signal) : undefined;
      try {
        await this.#post(
          message,
          signal,
          options.retryable === true && !(isRequest && message.method === 'tools/call'),
          options.headers,
        );
      } catch (error) {
        if (isRequest) this.#answers.forget(message.id);
        throw error;
      }
      if ('method' in message && message.method === 'notifications/initialized') this.#initialized = true;
      await answered;
    } finally {
      send.done();
    }
  }

  /** The engine gave up on request `id`: its POST, or the wait for its answer, is aborted. */
  abandon(id: JsonRpcId, reason: Error): void {
    this.#sends.abandon(id, reason);
  }

  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    const wasOpen = this.#state === 'open';
    this.#state = 'closed';
    const closed = new ConnectionClosedError(undefined);
    this.#closing.abort(closed);
    this.#sends.abortAll(closed);
    this.#replies.close(closed);
    if (this.#pingTimer !== undefined) clearInterval(this.#pingTimer);
    this.#answers.failAll(new ConnectionClosedError(undefined));
    await this.#run?.catch(() => {});
    await this.#http.close().catch(() => {});
    if (wasOpen) this.#sink?.close();
  }

  // ── the stream ──────────────────────────────────────────────────────────────────────────────────

  #open(): Stream {
    return openStream({
      options: this.#options,
      http: this.#http,
      settings: this.#settings,
      closing: this.#closing.signal,
      headers: (own) => this.#headers(own),
      warn: (message) => this.#warn(message),
      inbound: () => {
        this.#lastInbound = Date.now();
      },
      endpointMoved: (abort, url) => {
        if (this.#stream?.abort === abort) this.#endpoint = Promise.resolve(url);
      },
      message: (data) => this.#onMessage(data),
    });
  }

  /** Keeps a stream open: when one ends, waiting requests fail and a new one is opened with backoff. */
  async #keepOpen(stream: Stream): Promise<void> {
    for (;;) {
      const cause = await stream.done.then(
        () => new ResponseStreamClosedError(undefined, 'the server closed the SSE stream'),
        (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
      );
      if (this.#state !== 'open') return;
      this.#trace(`the SSE stream ended: ${escapeForLog(cause.message)}`);
      let settle!: (url: URL) => void;
      let fail!: (e: unknown) => void;
      this.#endpoint = new Promise<URL>((resolve, reject) => ((settle = resolve), (fail = reject)));
      this.#endpoint.catch(() => {});
      this.#answers.failAll(
        new ResponseStreamClosedError(undefined, `the SSE stream dropped before the answer (${cause.message})`),
      );
      const next = await this.#reopen(cause);
      if (next === undefined) return fail(new ConnectionClosedError(undefined, cause));
      stream = next;
      this.#stream = next;
      // A ping that went out on the old stream says nothing about this one.
      this.#pingOutstanding = undefined;
      this.#lastInbound = Date.now();
      const endpoint = await next.ready;
      // Nothing else goes out on the new session before it is initialized again.
      await this.#replayInitialize(endpoint).catch((e: unknown) =>
        this.#warn(`could not re-initialize the new session: ${escapeForLog(String(e))}`),
      );
      settle(endpoint);
    }
  }

  async #reopen(cause: Error): Promise<Stream | undefined> {
    for (let attempt = 0; attempt < this.#options.maxReconnectAttempts; attempt++) {
      try {
        await sleep(backoffDelay(attempt, this.#options.reconnectDelay), this.#closing.signal);
      } catch {
        return undefined;
      }
      const stream = this.#open();
      try {
        await stream.ready;
        return stream;
      } catch (error) {
        if (this.#state !== 'open') return undefined;
        // The server refusing us, or pointing off-origin, will not improve by asking again.
        if (
          error instanceof UnauthorizedError ||
          error instanceof EndpointOriginError ||
          (error instanceof HttpError && error.status < 500)
        ) {
          await this.#fail(error);
          return undefined;
        }
        cause = error instanceof Error ? error : cause;
      }
    }
    await this.#fail(cause);
    return undefined;
  }

  /** The server's new session knows nothing of us: replay initialize (answered here) and initialized. */
  async #replayInitialize(endpoint: URL): Promise<void> {
    if (this.#initialize === undefined) return;
    const replay: JsonRpcRequest = { ...this.#initialize, id: `mcpc-session-renewal-${++this.#internalIds}` };
    const answered = this.#answers.await(
      replay,
      AbortSignal.any([this.#closing.signal, AbortSignal.timeout(this.#options.endpointTimeoutMs)]),
    );
    await this.#post(replay, this.#closing.signal, true, undefined, endpoint);
    await answered;
    if (this.#initialized)
      await this.#post(
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        this.#closing.signal,
        true,
        undefined,
        endpoint,
      );
  }

  #onMessage(data: string): void {
    const decoded = decodeMessage(data);
    if (!decoded.ok) return this.#sink?.error(decoded.error);
    const message = decoded.message;
    if (!('method' in message) && message.id !== null) {
      if (message.id === this.#pingOutstanding) {
        this.#pingOutstanding = undefined;
        return;
      }
      const waiter = this.#answers.take(message.id);
      // A replayed initialize is the transport's own business, not the engine's.
      if (typeof message.id === 'string' && message.id.startsWith('mcpc-session-renewal-')) return waiter?.resolve();
      if (this.#state === 'open') this.#sink?.message(message, { byteLength: utf8Length(data) });
      return waiter?.resolve();
    }
    if (this.#state === 'open') this.#sink?.message(message, { byteLength: utf8Length(data) });
  }

  // ── sending ─────────────────────────────────────────────────────────────────────────────────────

  async #post(
    message: JsonRpcMessage,
    signal: AbortSignal,
    retryable: boolean,
    extra: Readonly<Record<string, string>> | undefined,
    to?: URL,
  ): Promise<void> {
    const url = to ?? (await untilAborted(this.#endpointOrTimeout(), signal));
    const headers = await this.#headers({ 'content-type': 'application/json' }, extra);
    copyTraceHeaders(message, headers);
    const method = 'method' in message ? message.method : undefined;
    const response = await exchange(this.#http, this.#settings, {
      method: 'POST',
      url,
      headers,
      body: JSON.stringify(message),
      signal,
      retryable,
      rpcMethod: method,
      auth: this.#options.auth,
    });
    await discard(response);
    const status = response.statusCode;
    if (status === 401 || status === 403)
      throw unauthorized(this.#options, status, header(response, 'www-authenticate'), url);
    if (status >= 400) {
      const type = mediaTypeOf(header(response, 'content-type'));
      throw new HttpError(status, refused(url, status, type, method), { contentType: type });
    }
  }

  /** The current endpoint; while the stream is re-opening, waits for the next one, within a bound. */
  #endpointOrTimeout(): Promise<URL> {
    const endpoint = this.#endpoint;
    if (endpoint === undefined) return Promise.reject(new ConnectionClosedError(undefined));
    const ms = this.#options.endpointTimeoutMs + this.#options.reconnectDelay.maxMs;
    return new Promise<URL>((resolve, reject) => {
      const timer = setTimeout(() => reject(new EndpointTimeoutError(ms)), ms);
      endpoint.then(
        (u) => (clearTimeout(timer), resolve(u)),
        (e: unknown) => (clearTimeout(timer), reject(e)),
      );
    });
  }

  async #fail(cause: Error): Promise<void> {
    if (this.#state !== 'open') return;
    this.#state = 'closed';
    this.#closing.abort(cause);
    this.#sends.abortAll(cause);
    this.#replies.close(new ConnectionClosedError(undefined, cause));
    if (this.#pingTimer !== undefined) clearInterval(this.#pingTimer);
    this.#answers.failAll(new ConnectionClosedError(undefined, cause));
    await this.#http.close().catch(() => {});
    this.#sink?.close(cause);
  }

  // ── keep-alive ──────────────────────────────────────────────────────────────────────────────────

  /**
   * A stream can die without the socket noticing (a proxy that drops idle connections). When nothing has
   * arrived for a while, a ping is sent; if its answer has not come back by the next check, the stream is
   * taken for dead and re-opened.
   */
  #startPings(): void {
    const every = this.#options.pingIntervalMs;
    if (every <= 0) return;
    this.#pingTimer = setInterval(() => {
      if (this.#state !== 'open' || !this.#initialized) return;
      if (this.#pingOutstanding !== undefined) {
        this.#pingOutstanding = undefined;
        this.#trace('no answer to the keep-alive ping; re-opening the stream');
        this.#stream?.abort.abort();
        return;
      }
      if (Date.now() - this.#lastInbound < every) return;
      const id = `mcpc-keepalive-${++this.#internalIds}`;
      this.#pingOutstanding = id;
      this.#post({ jsonrpc: '2.0', id, method: 'ping' }, this.#closing.signal, false, undefined).catch(() => {});
    }, every);
    // An object with unref on Node, Deno and Bun; a number in browsers and Workers.
    this.#pingTimer.unref?.();
  }

  // ── plumbing ────────────────────────────────────────────────────────────────────────────────────

  #headers(own: Record<string, string>, extra?: Readonly<Record<string, string>>): Promise<Record<string, string>> {
    return requestHeaders(this.#options.headers, own, extra);
  }

  #warn(message: string): void {
    safeLog(this.#logger, 'warn', `[mcpc] ${message}`);
  }

  #trace(message: string): void {
    if (this.#logger.isLevelEnabled?.('debug') === false) return;
    safeLog(this.#logger, 'debug', `[mcpc] ${message}`);
  }
}
