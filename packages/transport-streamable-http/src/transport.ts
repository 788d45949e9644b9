import {
  ConnectionClosedError,
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
import { createHash } from 'node:crypto';
import { AnswerStream } from './answer-stream.js';
import { ACCEPT_ENCODING } from './body.js';
import { backoffDelay, sleep } from './backoff.js';
import { noAnswer, notAnEndpoint, refused } from './diagnostics.js';
import { HttpError, ResponseStreamClosedError, ResponseTooLargeError, SessionExpiredError, UnauthorizedError } from './errors.js';
import { createHttpClient, type HttpClient, type HttpResponse } from './http-client.js';
import { discard, exchange, header, type HttpMethod } from './http.js';
import { mediaType, readEventStream, readJsonMessage, type MessageHandlers, type StreamCursor } from './messages.js';
import { resolveOptions, type ResolvedOptions, type StreamableHttpTransportOptions } from './options.js';
import { Session } from './session.js';
import { ReplyQueue } from './replies.js';
import { Sends } from './sends.js';

const ERROR_BODY_LIMIT = 1024 * 1024;

/**
 * MCP's Streamable HTTP transport (and, with `mode: 'json'`, plain request/response HTTP), on undici
 * when it is installed and on Node's `node:http` otherwise (see `httpClient`).
 *
 * Each message is one POST. A request's answer comes back as a JSON body or an SSE stream read
 * incrementally; a stream that breaks before the answer is resumed with GET and `Last-Event-ID`. After
 * `notifications/initialized`, a GET stream carries the server's own requests and notifications, and is
 * re-opened with backoff when it drops. The session id is captured from the initialize response, sent on
 * every request and DELETEd on close; an expired session is renewed transparently.
 */
export class StreamableHttpTransport implements Transport {
  readonly #options: ResolvedOptions;
  readonly #logger: Logger;
  readonly #http: HttpClient;
  /** Aborted on close: what is not tied to one message (the GET stream, session renewals). */
  readonly #closing = new AbortController();
  /** One per message in flight, aborted on close; a request's is found by its id when it is abandoned. */
  readonly #sends = new Sends();
  readonly #session = new Session();
  /** Our answers to the server's requests: a few POSTs at a time, a bounded queue behind them. */
  readonly #replies: ReplyQueue;
  #sink: TransportSink | undefined;
  #state: 'new' | 'open' | 'closed' = 'new';
  #listener: Promise<void> | undefined;
  #listenerStop: AbortController | undefined;

  constructor(options: StreamableHttpTransportOptions) {
    this.#options = resolveOptions(options);
    this.#logger = options.logger ?? warningsToConsole;
    this.#http = createHttpClient({
      choice: options.httpClient ?? 'auto',
      dispatcher: options.dispatcher,
      connectTimeout: this.#options.connectTimeout,
      maxConnections: this.#options.maxConnections,
    });
    this.#replies = new ReplyQueue({ maxInFlight: this.#options.maxConcurrentReplies, maxQueued: this.#options.maxQueuedReplies, warn: (w) => this.#warn(w) });
  }

  /** The session id the server assigned, if any. */
  get sessionId(): string | undefined {
    return this.#session.id;
  }

  /** The protocol version negotiated by the initialize exchange that passed through, if any. */
  get protocolVersion(): string | undefined {
    return this.#session.protocolVersion;
  }

  async start(sink: TransportSink): Promise<void> {
    if (this.#state !== 'new') throw new TypeError('a StreamableHttpTransport can be started once');
    this.#sink = sink;
    this.#state = 'open';
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
    try {
      if ('method' in message && 'id' in message) await this.#sendRequest(message, options, send.signal);
      else await this.#sendOther(message, options, send.signal);
    } finally {
      send.done();
    }
  }

  /** The engine gave up on request `id`: its exchange (and its response stream) is aborted. */
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
    const sessionId = this.#session.id;
    if (sessionId !== undefined) {
      // Best-effort: a server that cannot end sessions answers 405, and one that is gone must not hold
      // up the close.
      try {
        const response = await exchange(this.#http, this.#options, {
          method: 'DELETE',
          headers: await this.#headers('DELETE', undefined),
          signal: AbortSignal.timeout(2_000),
          retryable: false,
          auth: this.#options.auth,
        });
        await discard(response);
      } catch (error) {
        this.#trace(`DELETE of the session failed: ${escapeForLog(errorMessage(error))}`);
      }
    }
    await this.#listener?.catch(() => {});
    await this.#http.close().catch(() => {});
    if (wasOpen) this.#sink?.close();
  }

  /**
   * A digest of the `Authorization` a POST made now would carry (configured headers, then the auth
   * provider's), for caches that must not share private results across authorization contexts.
   * Undefined when it would carry none.
   */
  async authorizationKey(): Promise<string | undefined> {
    const headers = await this.#headers('POST', undefined, true);
    let value = headers.authorization;
    if (this.#options.auth !== undefined) {
      for (const [name, v] of Object.entries(await this.#options.auth.headers({ method: 'POST', url: this.#options.url }))) {
        if (name.toLowerCase() === 'authorization') value = v;
      }
    }
    return value === undefined ? undefined : createHash('sha256').update(value).digest('base64url');
  }

  // ── requests ────────────────────────────────────────────────────────────────────────────────────

  async #sendRequest(message: JsonRpcRequest, options: TransportSendOptions, signal: AbortSignal): Promise<void> {
    // tools/call is never re-sent, whatever the caller says: a retry could run a side effect twice.
    const retryable = options.retryable === true && message.method !== 'tools/call';
    const stateless = options.stateless === true;
    if (message.method === 'initialize' && !stateless) this.#session.beginInitialize(message);
    // A stateless request carries no session, so a 404 to it is an answer, not an expired session.
    const sentWith = stateless ? undefined : this.#session.id;
    let response = await this.#post(message, options, signal, retryable);
    if (response.statusCode === 404 && sentWith !== undefined && message.method !== 'initialize') {
      await discard(response);
      await this.#renewSession(sentWith, signal);
      if (!retryable) throw new SessionExpiredError(message.method);
      response = await this.#post(message, options, signal, retryable);
    }
    if (message.method === 'initialize' && !stateless) this.#session.adoptId(header(response, 'mcp-session-id'), (w) => this.#warn(w));
    await this.#readAnswer(message, response, signal, this.#deliver, { stateless, longLived: options.longLived === true });
  }

  /** Notifications and our replies to the server's requests: the server acknowledges with 202. */
  async #sendOther(message: JsonRpcMessage, options: TransportSendOptions, signal: AbortSignal): Promise<void> {
    const method = 'method' in message ? message.method : undefined;
    const sentWith = options.stateless === true ? undefined : this.#session.id;
    let response = await this.#post(message, options, signal, false);
    if (response.statusCode === 404 && sentWith !== undefined) {
      await discard(response);
      await this.#renewSession(sentWith, signal);
      // A reply belongs to a request of the session that is gone; a notification is still meaningful.
      if (method === undefined) return this.#trace(`dropped a reply to a request of the expired session`);
      response = await this.#post(message, options, signal, false);
    }
    if (response.statusCode === 401 || response.statusCode === 403) {
      await discard(response);
      throw this.#unauthorized(response);
    }
    if (response.statusCode >= 400) throw await this.#httpError(response, method);
    // 202 is what the spec says; a server answering 200 with a body gets it read, in case it carries messages.
    if (response.statusCode === 200) await this.#readMessages(response, { lastEventId: undefined, retryMs: undefined }, this.#deliver);
    else await discard(response);
    if (method === 'notifications/initialized') {
      this.#session.initialized = true;
      this.#startListening();
    }
  }

  #post(message: JsonRpcMessage, options: TransportSendOptions, signal: AbortSignal, retryable: boolean): Promise<HttpResponse> {
    const post = (headers: Record<string, string>): Promise<HttpResponse> =>
      exchange(this.#http, this.#options, {
        method: 'POST',
        headers,
        body: JSON.stringify(message),
        signal,
        retryable,
        rpcMethod: 'method' in message ? message.method : undefined,
        auth: this.#options.auth,
        // A subscription stream may be quiet for long: no idle timeout between its chunks, and it is
        // carried outside the connection bound.
        ...(options.longLived === true && { bodyTimeout: 0, longLived: true }),
        // Notifications and replies never queue behind calls for a connection (see HttpRequest.control).
        ...(!('id' in message && 'method' in message) && { control: true }),
      });
    const headers = this.#headers('POST', options.headers, options.stateless === true);
    return headers instanceof Promise ? headers.then(post) : post(headers);
  }

  /**
   * Reads the answer to a request: a JSON body, or an SSE stream resumed with `Last-Event-ID` when it
   * breaks before the answer. Resolves once the answer was delivered; an SSE stream is closed then (see
   * AnswerStream), and is idle, until the answer, after `readTimeout` without an event.
   */
  async #readAnswer(
    request: JsonRpcRequest,
    response: HttpResponse,
    signal: AbortSignal,
    deliver: MessageHandlers,
    { stateless = false, longLived = false }: { stateless?: boolean; longLived?: boolean } = {},
  ): Promise<void> {
    const status = response.statusCode;
    if (status === 401 || status === 403) {
      await discard(response);
      throw this.#unauthorized(response);
    }
    if (status >= 400) return this.#errorAnswer(request, response, deliver);
    const seen: Seen = { answered: false, malformed: undefined };
    const stream = new AnswerStream(longLived ? 0 : this.#options.readTimeout);
    const watch: MessageHandlers = {
      ...deliver,
      message: (m, bytes) => {
        stream.event();
        if (!('method' in m) && m.id === request.id) {
          seen.answered = true;
          stream.answered();
        }
        deliver.message(m, bytes);
      },
      malformed: (e) => {
        stream.event();
        seen.malformed ??= e.message;
        deliver.malformed(e);
      },
    };
    try {
      await this.#readAnswerStreams(request, response, signal, watch, stream, seen, stateless);
    } finally {
      stream.release();
    }
  }

  /** The reading part of #readAnswer: the POST's stream, then resumptions until the answer. */
  async #readAnswerStreams(
    request: JsonRpcRequest,
    response: HttpResponse,
    signal: AbortSignal,
    watch: MessageHandlers,
    stream: AnswerStream,
    seen: Seen,
    stateless: boolean,
  ): Promise<void> {
    const answered = (): boolean => seen.answered;
    const cursor: StreamCursor = { lastEventId: undefined, retryMs: undefined };
    let failure: unknown;
    try {
      await this.#readMessages(response, cursor, watch, stream);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (answered()) return; // The socket died after the answer: the answer stands.
      if (error instanceof ResponseTooLargeError || error instanceof HttpError) throw error;
      failure = error;
    }
    if (!answered() && stateless) {
      // MCP 2026-07-28 has no resumption: the break lost the request (and, for the server, cancelled
      // it). The caller re-issues it under a new id.
      if (failure !== undefined) throw new ResponseStreamClosedError(request.method, errorMessage(failure), { resumable: false });
      const type = mediaType(response);
      // A whole JSON body that was not the answer says so; a stream that ended without it, as before.
      const message = type === 'text/event-stream' ? undefined : noAnswer(this.#options.url, response.statusCode, type, request.method, seen.malformed);
      throw new ResponseStreamClosedError(request.method, 'the response carried no answer', { resumable: false, ...(message !== undefined && { message }) });
    }
    for (let attempt = 0; !answered(); attempt++) {
      const type = mediaType(response);
      if (type !== 'text/event-stream' || this.#options.mode === 'json') {
        if (failure !== undefined) throw new ResponseStreamClosedError(request.method, errorMessage(failure));
        // Not a stream that broke: a whole response that was not the answer. Say so, in plain words.
        const message = noAnswer(this.#options.url, response.statusCode, type, request.method, seen.malformed);
        throw new ResponseStreamClosedError(request.method, 'the response carried no answer', { message });
      }
      if (cursor.lastEventId === undefined) {
        const why = failure === undefined ? '' : `${errorMessage(failure)}, and `;
        throw new ResponseStreamClosedError(request.method, `${why}the server gave no event id to resume from`);
      }
      if (attempt >= this.#options.maxResumeAttempts) {
        throw new ResponseStreamClosedError(request.method, `resumption failed ${attempt} times`);
      }
      await sleep(this.#reconnectDelay(cursor, attempt), signal);
      try {
        const resumed = await this.#get(signal, cursor.lastEventId, this.#options.readTimeout);
        if (resumed.statusCode >= 400 || mediaType(resumed) !== 'text/event-stream') {
          await discard(resumed);
          throw new ResponseStreamClosedError(request.method, `the server refused to resume it (HTTP ${resumed.statusCode})`);
        }
        response = resumed;
        await this.#readMessages(resumed, cursor, watch, stream);
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (answered()) return;
        if (error instanceof ResponseStreamClosedError || error instanceof ResponseTooLargeError) throw error;
        failure = error;
      }
    }
  }

  /** A 4xx to a request: a JSON-RPC error in the body keeps its code and data; anything else is an HttpError. */
  async #errorAnswer(request: JsonRpcRequest, response: HttpResponse, deliver: MessageHandlers): Promise<void> {
    let delivered = false;
    if (mediaType(response) === 'application/json') {
      try {
        await readJsonMessage(response, ERROR_BODY_LIMIT, {
          ...deliver,
          message: (m, bytes) => {
            if ('error' in m && (m.id === null || m.id === request.id)) {
              // The server may not have read the id; the error is this request's all the same.
              deliver.message({ jsonrpc: '2.0', id: request.id, error: m.error }, bytes);
              delivered = true;
            }
          },
        });
      } catch {
        // Not a JSON-RPC error after all: fall through to the HTTP status.
      }
    } else {
      await discard(response);
    }
    if (!delivered) {
      const type = mediaType(response);
      throw new HttpError(response.statusCode, refused(this.#options.url, response.statusCode, type, request.method), { contentType: type });
    }
  }

  async #httpError(response: HttpResponse, method: string | undefined): Promise<HttpError> {
    await discard(response);
    const type = mediaType(response);
    return new HttpError(response.statusCode, refused(this.#options.url, response.statusCode, type, method), { contentType: type });
  }

  /** 401/403 without an auth provider that could act on it (one that could, acted in `exchange`). */
  #unauthorized(response: HttpResponse): UnauthorizedError {
    const configured = this.#options.headers;
    // Credentials in the configured headers count as "authorization was given" too.
    const fromHeaders = typeof configured === 'object' && Object.keys(configured).some((name) => name.toLowerCase() === 'authorization');
    return new UnauthorizedError(response.statusCode, header(response, 'www-authenticate'), {
      url: this.#options.url,
      authConfigured: this.#options.auth !== undefined || fromHeaders,
    });
  }

  #readMessages(response: HttpResponse, cursor: StreamCursor, on: MessageHandlers, stream?: AnswerStream): Promise<void> {
    const type = mediaType(response);
    if (type === 'application/json') return readJsonMessage(response, this.#options.maxBodyBytes, on);
    if (type === 'text/event-stream' && this.#options.mode === 'streamable') {
      stream?.follow(response.body);
      return readEventStream(response, this.#options.maxSseEventBytes, cursor, on, stream?.stop);
    }
    return discard(response).then(() => {
      if (response.statusCode !== 202 && response.statusCode !== 204) {
        const expected = this.#options.mode === 'json' ? 'application/json' : 'application/json or text/event-stream';
        throw new HttpError(response.statusCode, notAnEndpoint(this.#options.url, response.statusCode, type, expected), { contentType: type });
      }
    });
  }

  // ── sessions ────────────────────────────────────────────────────────────────────────────────────

  /**
   * The server ended the session: start a fresh one by replaying the initialize exchange that set it up
   * (under an id of the transport's own, answered here), then re-open the GET stream. Concurrent
   * requests that met the 404 share one renewal.
   */
  #renewSession(staleId: string, signal: AbortSignal): Promise<void> {
    return this.#session.renew(staleId, signal, async (initialize) => {
      this.#stopListening();
      this.#warn('the server ended the session; starting a new one');
      const replay: JsonRpcRequest = { ...initialize, id: this.#session.nextRenewalId() };
      const response = await this.#post(replay, {}, this.#closing.signal, true);
      this.#session.adoptId(header(response, 'mcp-session-id'), (w) => this.#warn(w));
      const deliver = this.#deliver;
      let refusal: string | undefined;
      await this.#readAnswer(replay, response, this.#closing.signal, {
        ...deliver,
        message: (m, bytes) => {
          if ('method' in m || m.id !== replay.id) deliver.message(m, bytes);
          else if ('error' in m) refusal = m.error.message;
          else this.#session.observeResponse(m);
        },
      });
      if (refusal !== undefined) throw new HttpError(404, `the server refused to start a new session: ${escapeForLog(refusal)}`);
      if (this.#session.initialized) {
        const ack = await this.#post({ jsonrpc: '2.0', method: 'notifications/initialized' }, {}, this.#closing.signal, true);
        await discard(ack);
        this.#startListening();
      }
    });
  }

  // ── the GET stream ──────────────────────────────────────────────────────────────────────────────

  #startListening(): void {
    if (!this.#options.listen || this.#listener !== undefined || this.#state !== 'open') return;
    const stop = new AbortController();
    this.#listenerStop = stop;
    const signal = AbortSignal.any([stop.signal, this.#closing.signal]);
    this.#listener = this.#listen(signal).finally(() => {
      if (this.#listenerStop === stop) {
        this.#listener = undefined;
        this.#listenerStop = undefined;
      }
    });
  }

  #stopListening(): void {
    this.#listenerStop?.abort();
    this.#listener = undefined;
    this.#listenerStop = undefined;
  }

  /** Keeps a GET stream open for the server's messages, re-opening it with backoff when it drops. */
  async #listen(signal: AbortSignal): Promise<void> {
    const cursor: StreamCursor = { lastEventId: undefined, retryMs: undefined };
    for (let attempt = 0; !signal.aborted; ) {
      let received = false;
      const sentWith = this.#session.id;
      try {
        const response = await this.#get(signal, cursor.lastEventId, 0);
        const status = response.statusCode;
        if (status === 405) return void (await discard(response)); // The server offers no GET stream.
        if (status === 404 && sentWith !== undefined) {
          await discard(response);
          void this.#renewSession(sentWith, this.#closing.signal).catch((e: unknown) => this.#warn(`could not renew the session: ${escapeForLog(errorMessage(e))}`));
          return;
        }
        if (status >= 400 || mediaType(response) !== 'text/event-stream') {
          await discard(response);
          return this.#warn(`the server refused the GET stream (HTTP ${status}); server-initiated messages will arrive only on request streams`);
        }
        const deliver = this.#deliver;
        await readEventStream(response, this.#options.maxSseEventBytes, cursor, {
          ...deliver,
          message: (m, bytes) => {
            received = true;
            deliver.message(m, bytes);
          },
        });
      } catch (error) {
        if (signal.aborted) return;
        this.#trace(`the GET stream dropped: ${escapeForLog(errorMessage(error))}`);
      }
      attempt = received ? 0 : attempt + 1;
      try {
        await sleep(this.#reconnectDelay(cursor, attempt), signal);
      } catch {
        return;
      }
    }
  }

  async #get(signal: AbortSignal, lastEventId: string | undefined, bodyTimeout: number): Promise<HttpResponse> {
    const headers = await this.#headers('GET', undefined);
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    return exchange(this.#http, this.#options, { method: 'GET', headers, signal, retryable: false, bodyTimeout, auth: this.#options.auth });
  }

  /** The server's `retry:` when it gave one (never below the floor), else our backoff. */
  #reconnectDelay(cursor: StreamCursor, attempt: number): number {
    const floor = this.#options.minRetryIntervalMs;
    return Math.max(floor, cursor.retryMs ?? backoffDelay(attempt, this.#options.reconnectDelay));
  }

  // ── plumbing ────────────────────────────────────────────────────────────────────────────────────

  /** The headers of a request: at once, unless the configured headers come from a function (which may be async). */
  #headers(method: HttpMethod, extra: Readonly<Record<string, string>> | undefined, stateless = false): Record<string, string> | Promise<Record<string, string>> {
    const configured = this.#options.headers;
    if (typeof configured !== 'function') return this.#headersWith(configured, method, extra, stateless);
    return Promise.resolve(configured()).then((h) => this.#headersWith(h, method, extra, stateless));
  }

  #headersWith(configured: Readonly<Record<string, string>> | undefined, method: HttpMethod, extra: Readonly<Record<string, string>> | undefined, stateless: boolean): Record<string, string> {
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
    headers.accept = method === 'GET' ? 'text/event-stream' : this.#options.mode === 'json' ? 'application/json' : 'application/json, text/event-stream';
    if (method === 'POST') headers['content-type'] = 'application/json';
    if (method !== 'DELETE') headers['accept-encoding'] = ACCEPT_ENCODING;
    if (this.#session.id !== undefined) headers['mcp-session-id'] = this.#session.id;
    if (this.#session.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.#session.protocolVersion;
    return headers;
  }

  /** Hands messages to the sink, noting the negotiated protocol version on its way past. One for every response. */
  readonly #deliver: MessageHandlers = {
      message: (m, byteLength) => {
        if (this.#state !== 'open') return;
        if (!('method' in m)) this.#session.observeResponse(m);
        this.#sink?.message(m, { byteLength });
      },
      malformed: (e) => {
        if (this.#state === 'open') this.#sink?.error(e);
      },
      warning: (w) => this.#warn(w),
  };

  #warn(message: string): void {
    safeLog(this.#logger, 'warn', `[mcpc] ${message}`);
  }

  #trace(message: string): void {
    if (this.#logger.isLevelEnabled?.('debug') === false) return;
    safeLog(this.#logger, 'debug', `[mcpc] ${message}`);
  }
}

const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** What a request's response streams have shown so far. */
interface Seen {
  answered: boolean;
  /** Why the first frame that was not JSON-RPC was not (for the message when no answer came). */
  malformed: string | undefined;
}
