// The Transport contract every transport implements: start with a sink, send, close, and what they report.
import type { JsonRpcId, JsonRpcMessage } from './messages.js';

/** Facts the transport may report about an incoming message (for logging and diagnostics). */
export interface MessageInfo {
  /** Size of the frame on the wire, in bytes. */
  readonly byteLength?: number;
}

/**
 * Where a transport delivers what it receives. Passed once, to {@link Transport.start}, so nothing can
 * arrive before a consumer is in place.
 */
export interface TransportSink {
  /** A decoded, valid JSON-RPC message from the peer. */
  message(message: JsonRpcMessage, info?: MessageInfo): void;
  /**
   * A problem that does not end the connection: a malformed frame (a `JsonRpcProtocolError`), a stray
   * write failure. The consumer logs it.
   */
  error(error: Error): void;
  /**
   * The connection has ended, for whatever reason; called exactly once. `cause` says why when it was
   * not a requested close (a process exit, a fatal transport error). Nothing is delivered after it.
   */
  close(cause?: Error): void;
}

/** Per-message options. Transports ignore what does not apply to them. */
export interface TransportSendOptions {
  /**
   * For a response or notification: the id of the peer's request it belongs to. HTTP transports use it
   * to route the message on that request's stream.
   */
  readonly relatedRequestId?: JsonRpcId;
  /**
   * Fires when the message is no longer wanted: for a request, when the engine gives up on it (the
   * caller's abort, a timeout, the peer's cancellation, the connection closing). A transport releases
   * what it holds for the message (an HTTP response stream, a pending retry); the engine has already
   * rejected the request.
   *
   * `JsonRpcEngine` passes no signal to a transport that implements {@link Transport.abandon} (it calls
   * that instead, which costs nothing per request). To any other it passes one that is made the first
   * time this property is read (an `AbortController` per request is a measurable share of a fast call):
   * a transport that does not need it should not read it, and one that needs it only sometimes (a frame
   * held back by backpressure) should read it then. A signal read after the request was abandoned is
   * already aborted. A signal given by another caller is honoured either way.
   */
  readonly signal?: AbortSignal;
  /** Extra headers for this message, on transports that have headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Whether re-sending this request is safe should the transport be unsure it arrived (idempotent
   * methods). Transports must not re-send a request without it. Defaults to false.
   */
  readonly retryable?: boolean;
  /**
   * The message belongs to the stateless protocol (MCP 2026-07-28 and later): each request stands
   * alone. HTTP transports then send no session id, open no standalone stream, never resume a broken
   * response stream (a request whose stream ends without its answer fails with a typed error, so the
   * caller can re-issue it under a new id), and let the per-message `headers` carry the protocol
   * headers. Defaults to false (the classic, session-based protocol).
   */
  readonly stateless?: boolean;
  /**
   * The answer may be a long time coming, with quiet periods in between (a `subscriptions/listen`
   * stream): transports apply no idle timeout to it. The request's own timeout still applies.
   */
  readonly longLived?: boolean;
}

/**
 * A bidirectional channel of JSON-RPC messages to one MCP server.
 *
 * The contract:
 * - `start(sink)` is called once. It resolves when messages can be sent, and rejects with a
 *   `TransportError` when the connection cannot be made (the process could not be spawned, …); a
 *   transport whose start rejected calls no sink method.
 * - `send(message, options)` resolves when the message has been handed to the wire. It rejects with a
 *   `TransportError` when it could not be, and with a `ConnectionClosedError` once the transport is closed.
 *   It never throws synchronously. A failure that means nothing sent later can arrive either (the peer
 *   stopped reading: a broken pipe) also ends the connection: `sink.close(cause)`, so that what is
 *   pending fails with the cause at once rather than each request waiting out its timeout.
 * - `close()` is idempotent and resolves once every resource (process, socket, timer) is released.
 * - `sink.close` is called exactly once, whether the close was asked for or the peer went away; after
 *   it, no sink method is called again. Incoming frames that are not valid JSON-RPC go to `sink.error`.
 */
export interface Transport {
  start(sink: TransportSink): Promise<void>;
  send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void>;
  close(): Promise<void>;
  /**
   * Optional. `JsonRpcEngine` calls it when it gives up on request `id` that it sent through this
   * transport — the caller's abort, a timeout, the peer's `notifications/cancelled` — after rejecting
   * the request. The transport releases what it holds for that request (a queued frame, an HTTP
   * response stream). A transport that has it gets no per-request `signal` from the engine. Not called
   * when the connection closes: `close()` releases everything. It must not throw; an id it does not
   * know is ignored.
   */
  abandon?(id: JsonRpcId, reason: Error): void;
  /**
   * Optional. A key for the authorization context the next request would carry (a digest of its
   * `Authorization` header; `undefined` when it carries none). Caches use it so a result marked
   * `private` is never served to another context. A transport without it is treated as unable to say.
   */
  authorizationKey?(): Promise<string | undefined>;
  /**
   * Optional. `false` when the peer has no way to send this side a request (plain JSON
   * request/response HTTP: no SSE response, no standalone stream), so a client declares no capability
   * that is served through one (roots, sampling, elicitation in MCP's initialize-handshake revisions).
   * Undefined means it can.
   */
  readonly serverRequests?: boolean;
}
