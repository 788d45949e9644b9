// The Streamable HTTP transport: the facade that turns messages into POSTs, answers and a session.
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
import {
  createHttpClient,
  discard,
  header,
  HttpError,
  linkTo,
  ReplyQueue,
  Sends,
  type AbortLink,
  type HttpResponse,
  type Send,
} from '@mcpc/http';
import { Answers } from './answers.js';
import { SessionExpiredError } from './errors.js';
import { Listener } from './listener.js';
import type { MessageHandlers } from './messages.js';
import { resolveOptions, type ResolvedOptions, type StreamableHttpTransportOptions } from './options.js';
import { Session } from './session.js';
import { Wire } from './wire.js';

/**
 * MCP's Streamable HTTP transport (and, with `mode: 'json'`, plain request/response HTTP), on undici
 * when it is installed and on Node's `node:http` otherwise (see `httpClient`).
 *
 * Each message is one POST. A request's answer comes back as a JSON body or an SSE stream read
 * incrementally; a stream that breaks before the answer is resumed with GET and `Last-Event-ID`. After
 * `notifications/initialized`, a GET stream carries the server's own requests and notifications, and is
 * re-opened with backoff when it drops. The session id is captured from the initialize response, sent on
 * every request and DELETEd on close; an expired session is renewed transparently.
 *
 * The class is the facade: what a message needs (a POST, its answer, a session renewal) is decided
 * here; the HTTP requests are the `Wire`'s, reading answers is `Answers`', the GET stream the
 * `Listener`'s, and the session's state the `Session`'s.
 */
export class StreamableHttpTransport implements Transport {
  readonly #options: ResolvedOptions;
  readonly #logger: Logger;
  readonly #wire: Wire;
  readonly #answers: Answers;
  readonly #listener: Listener;
  /** Aborted on close: what is not tied to one message (the GET stream, session renewals). */
  readonly #closing = new AbortController();
  /** The same, for what takes an AbortLink. */
  readonly #closingLink = linkTo(this.#closing.signal);
  /** One per message in flight, aborted on close; a request's is found by its id when it is abandoned. */
  readonly #sends = new Sends();
  readonly #session = new Session();
  /** Our answers to the server's requests: a few POSTs at a time, a bounded queue behind them. */
  readonly #replies: ReplyQueue;
  #sink: TransportSink | undefined;
  #state: 'new' | 'open' | 'closed' = 'new';

  constructor(options: StreamableHttpTransportOptions) {
    this.#options = resolveOptions(options);
    this.#logger = options.logger ?? warningsToConsole;
    const http = createHttpClient({
      ...(options.httpClient !== undefined && { choice: options.httpClient }),
      dispatcher: options.dispatcher,
      fetch: options.fetch,
      connectTimeout: this.#options.connectTimeout,
      maxConnections: this.#options.maxConnections,
    });
    this.#wire = new Wire(http, this.#options, this.#session);
    this.#answers = new Answers(this.#options, this.#wire, {
      enabled: () => this.#tracing(),
      line: (t) => this.#trace(t),
    });
    this.#listener = new Listener(
      this.#options,
      this.#wire,
      this.#session,
      {
        deliver: this.#deliver,
        renewSession: (staleId) => this.#renewSession(staleId, this.#closing.signal),
        warn: (w) => this.#warn(w),
        trace: (t) => this.#trace(t),
      },
      this.#closing.signal,
    );
    this.#replies = new ReplyQueue({
      maxInFlight: this.#options.maxConcurrentReplies,
      maxQueued: this.#options.maxQueuedReplies,
      warn: (w) => this.#warn(w),
    });
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

  send(message: JsonRpcMessage, options: TransportSendOptions = {}): Promise<void> {
    if (this.#state !== 'open')
      return Promise.reject(new ConnectionClosedError('method' in message ? message.method : undefined));
    // An answer to the server's request waits its turn: a flood of them must not open a socket each.
    if (!('method' in message)) return this.#replies.run(() => this.#send(message, options));
    return this.#send(message, options);
  }

  /** Registers the message's send (JsonRpcEngine passes no signal: it calls abandon(id)), then sends it. */
  #send(message: JsonRpcMessage, options: TransportSendOptions): Promise<void> {
    const send = this.#sends.begin(message, options.signal);
    if ('method' in message && 'id' in message) return this.#sendRequest(message, options, send);
    return this.#sendOther(message, options, send);
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
        await discard(await this.#wire.delete(AbortSignal.timeout(2_000)));
      } catch (error) {
        this.#trace(`DELETE of the session failed: ${escapeForLog(errorMessage(error))}`);
      }
    }
    await this.#listener.ended();
    await this.#wire.close().catch(() => {});
    if (wasOpen) this.#sink?.close();
  }

  /**
   * A digest of the `Authorization` a POST made now would carry (configured headers, then the auth
   * provider's), for caches that must not share private results across authorization contexts.
   * Undefined when it would carry none.
   */
  async authorizationKey(): Promise<string | undefined> {
    const headers = await this.#wire.headers('POST', undefined, true);
    let value = headers.authorization;
    if (this.#options.auth !== undefined) {
      for (const [name, v] of Object.entries(
        await this.#options.auth.headers({ method: 'POST', url: this.#options.url }),
      )) {
        if (name.toLowerCase() === 'authorization') value = v;
      }
    }
    return value === undefined ? undefined : sha256Base64url(value);
  }

  // ── requests ────────────────────────────────────────────────────────────────────────────────────

  /** A request: its POST, then its answer. Done (its send released) once the answer is read or it failed. */
  async #sendRequest(message: JsonRpcRequest, options: TransportSendOptions, send: Send): Promise<void> {
    const abort = send.abort;
    try {
      // tools/call is never re-sent, whatever the caller says: a retry could run a side effect twice.
      const retryable = options.retryable === true && message.method !== 'tools/call';
      const stateless = options.stateless === true;
      if (message.method === 'initialize' && !stateless) this.#session.beginInitialize(message);
      // Sent while the session is being renewed, it waits for the new id rather than going out with none.
      else if (!stateless && this.#session.renewing) await this.#session.renewed(abort.signal);
      // A stateless request carries no session, so a 404 to it is an answer, not an expired session.
      const sentWith = stateless ? undefined : this.#session.id;
      let response = await this.#post(message, options, abort, retryable, sentWith);
      if (response.statusCode === 404 && sentWith !== undefined && message.method !== 'initialize')
        response = await this.#expired(response, sentWith, message, options, abort, retryable);
      if (message.method === 'initialize' && !stateless)
        this.#session.adoptId(header(response, 'mcp-session-id'), (w) => this.#warn(w));
      await this.#answers.read(message, response, abort, this.#deliver, stateless, options.longLived === true);
    } finally {
      send.done();
    }
  }

  /** A request met the session's end (404): a new session, then the request again if it may be re-sent. */
  async #expired(
    response: HttpResponse,
    sentWith: string,
    message: JsonRpcRequest,
    options: TransportSendOptions,
    abort: AbortLink,
    retryable: boolean,
  ): Promise<HttpResponse> {
    await discard(response);
    await this.#renewSession(sentWith, abort.signal);
    if (!retryable) throw new SessionExpiredError(message.method);
    return this.#post(message, options, abort, retryable);
  }

  /** Notifications and our replies to the server's requests: the server acknowledges with 202. */
  async #sendOther(message: JsonRpcMessage, options: TransportSendOptions, send: Send): Promise<void> {
    const abort = send.abort;
    try {
      const method = 'method' in message ? message.method : undefined;
      // A notification waits out a renewal (see #sendRequest); a reply does not: it may be to a request the
      // server made on the renewal's own initialize stream, which would then wait for the reply.
      if (method !== undefined && options.stateless !== true && this.#session.renewing)
        await this.#session.renewed(abort.signal);
      const sentWith = options.stateless === true ? undefined : this.#session.id;
      let response = await this.#post(message, options, abort, false, sentWith);
      if (response.statusCode === 404 && sentWith !== undefined) {
        await discard(response);
        await this.#renewSession(sentWith, abort.signal);
        // A reply belongs to a request of the session that is gone; a notification is still meaningful.
        if (method === undefined) return this.#trace(`dropped a reply to a request of the expired session`);
        response = await this.#post(message, options, abort, false);
      }
      if (response.statusCode === 401 || response.statusCode === 403) {
        await discard(response);
        throw this.#answers.unauthorized(response);
      }
      if (response.statusCode >= 400) throw await this.#answers.httpError(response, method);
      // 202 is what the spec says; a server answering 200 with a body gets it read, in case it carries messages.
      if (response.statusCode === 200)
        await this.#answers.messages(response, { lastEventId: undefined, retryMs: undefined }, this.#deliver);
      else await discard(response);
      if (method === 'notifications/initialized') {
        this.#session.initialized = true;
        this.#listener.start();
      }
    } finally {
      send.done();
    }
  }

  #post(
    message: JsonRpcMessage,
    options: TransportSendOptions,
    abort: AbortLink,
    retryable: boolean,
    sessionId?: string,
  ): Promise<HttpResponse> {
    // An absent `sessionId` is the wire's default: the session's id now.
    return this.#wire.post(message, options, abort, retryable, sessionId);
  }

  // ── sessions ────────────────────────────────────────────────────────────────────────────────────

  /**
   * The server ended the session: start a fresh one by replaying the initialize exchange that set it up
   * (under an id of the transport's own, answered here), then re-open the GET stream. Concurrent
   * requests that met the 404 share one renewal.
   */
  #renewSession(staleId: string, signal: AbortSignal): Promise<void> {
    return this.#session.renew(staleId, signal, async (initialize) => {
      this.#listener.stop();
      this.#warn('the server ended the session; starting a new one');
      const replay: JsonRpcRequest = { ...initialize, id: this.#session.nextRenewalId() };
      const response = await this.#post(replay, {}, this.#closingLink, true);
      this.#session.adoptId(header(response, 'mcp-session-id'), (w) => this.#warn(w));
      const deliver = this.#deliver;
      let refusal: string | undefined;
      await this.#answers.read(replay, response, this.#closingLink, {
        ...deliver,
        message: (m, bytes) => {
          if ('method' in m || m.id !== replay.id) deliver.message(m, bytes);
          else if ('error' in m) refusal = m.error.message;
          else this.#session.observeResponse(m);
        },
      });
      if (refusal !== undefined)
        throw new HttpError(404, `the server refused to start a new session: ${escapeForLog(refusal)}`);
      if (this.#session.initialized) {
        const ack = await this.#post(
          { jsonrpc: '2.0', method: 'notifications/initialized' },
          {},
          this.#closingLink,
          true,
        );
        await discard(ack);
        this.#listener.start();
      }
    });
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

  #tracing(): boolean {
    return this.#logger.isLevelEnabled?.('debug') !== false;
  }

  #trace(message: string): void {
    if (!this.#tracing()) return;
    safeLog(this.#logger, 'debug', `[mcpc] ${message}`);
  }
}

const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** SHA-256 of `text` (UTF-8), base64url, with the Web Crypto every runtime has (Node's `crypto` module is Node's). */
async function sha256Base64url(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
