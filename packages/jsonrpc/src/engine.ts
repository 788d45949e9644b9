// The engine's facade: one connection's lifecycle over a Transport.
//
// It delegates to the engine's outgoing, incoming and notification parts.

import { ConnectionClosedError, EngineStateError, JsonRpcProtocolError } from './errors.js';
import { asError, EngineLog } from './engine-log.js';
import type { EngineOptions, NotificationListener, RequestHandler, RequestOptions } from './engine-types.js';
import { IncomingRequests } from './incoming.js';
import { escapeForLog, warningsToConsole } from './logger.js';
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcParams } from './messages.js';
import { NotificationDispatch } from './notifications.js';
import { OutgoingRequests, type OutgoingHost } from './outgoing.js';
import type { MessageInfo, Transport, TransportSendOptions } from './transport.js';

export type {
  EngineOptions,
  IncomingObservation,
  IncomingObserver,
  NotificationListener,
  Progress,
  RequestContext,
  RequestHandler,
  RequestObservation,
  RequestObserver,
  RequestOptions,
} from './engine-types.js';

/**
 * The JSON-RPC request/response engine over one {@link Transport}: id allocation, the pending map,
 * timeouts, cancellation, progress routing, and peer-initiated requests under a concurrency budget.
 *
 * The work is done by its parts — {@link OutgoingRequests} (our requests, their deadlines and
 * cancellation, progress), {@link IncomingRequests} (the peer's requests and the handler budget),
 * {@link NotificationDispatch} (the peer's notifications) — and this class owns what they share: the
 * transport, the log, and the connection's state.
 */
export class JsonRpcEngine {
  readonly #transport: Transport;
  readonly #log: EngineLog;
  readonly #outgoing: OutgoingRequests;
  readonly #incoming: IncomingRequests;
  readonly #notifications: NotificationDispatch;
  readonly #closeListeners = new Set<(cause: Error | undefined) => void>();
  #state: 'new' | 'starting' | 'open' | 'closed' = 'new';
  #closeCause: Error | undefined;
  #framesRejected = 0;
  #lastRejected: JsonRpcProtocolError | undefined;

  constructor(transport: Transport, options: EngineOptions = {}) {
    this.#transport = transport;
    const log = (this.#log = new EngineLog(options.logger ?? warningsToConsole));
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the parts read the state through it
    const engine = this;
    const host: OutgoingHost = {
      transport,
      log,
      get closed() {
        return engine.#state === 'closed';
      },
      get closeCause() {
        return engine.#closeCause;
      },
      notify: (method, params) => this.notify(method, params),
    };
    this.#outgoing = new OutgoingRequests(host, {
      requestTimeout: options.requestTimeout ?? 60_000,
      uncancellableMethods: options.uncancellableMethods ?? ['initialize'],
      observer: options.observer,
    });
    this.#incoming = new IncomingRequests(host, options.maxConcurrentHandlers ?? 16, options.incomingObserver);
    this.#notifications = new NotificationDispatch(log, this.#outgoing, this.#incoming);
  }

  /** Starts the transport. Rejects with the transport's error when it cannot connect. */
  async start(): Promise<void> {
    if (this.#state !== 'new') throw new EngineStateError('the engine was already started');
    this.#state = 'starting';
    try {
      await this.#transport.start({
        message: (m, info) => this.#receive(m, info),
        error: (e) => this.#transportError(e),
        close: (cause) => this.#finish(cause),
      });
    } catch (error) {
      this.#finish(error instanceof Error ? error : undefined);
      throw error;
    }
    if (this.#state === 'starting') this.#state = 'open';
  }

  get closed(): boolean {
    return this.#state === 'closed';
  }

  /** Why the connection closed, once it has (undefined for a requested close). */
  get closeCause(): Error | undefined {
    return this.#closeCause;
  }

  /** Requests sent and not yet answered. */
  get pendingCount(): number {
    return this.#outgoing.size;
  }

  /**
   * What the transport reported it could not decode so far: how many frames, and the last of them (its
   * `excerpt` quotes text that was not JSON), so a failed handshake can say the server printed a banner.
   */
  get rejectedFrames(): { readonly count: number; readonly last: JsonRpcProtocolError | undefined } {
    return { count: this.#framesRejected, last: this.#lastRejected };
  }

  /** Sends a request and resolves with its result; rejects with a typed error (see the README). */
  request<T = unknown>(method: string, params?: JsonRpcParams, options: RequestOptions = {}): Promise<T> {
    return this.#outgoing.request<T>(method, params, options);
  }

  /** Sends a notification. Rejects when the transport cannot send it. */
  async notify(method: string, params?: JsonRpcParams, options?: TransportSendOptions): Promise<void> {
    if (this.#state === 'closed') throw new ConnectionClosedError(method, this.#closeCause);
    const message: JsonRpcNotification =
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    this.#log.trace(() => `→ notification ${method}`);
    await this.#transport.send(message, options);
  }

  /** Answers the peer's requests for `method`. Returns a function that removes the handler. */
  setRequestHandler(method: string, handler: RequestHandler): () => void {
    return this.#incoming.setHandler(method, handler);
  }

  /**
   * Listens to the peer's notifications (all but progress and cancellation, which the engine routes
   * itself). A listener that throws is logged; it stops neither the others nor the connection.
   */
  onNotification(listener: NotificationListener): () => void {
    return this.#notifications.listen(listener);
  }

  /** Called once when the connection closes, with the cause when it was not requested. */
  onClose(listener: (cause: Error | undefined) => void): () => void {
    if (this.#state === 'closed') {
      queueMicrotask(() => listener(this.#closeCause));
      return () => {};
    }
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  /** Closes the transport; every pending request rejects with `ConnectionClosedError`. */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    try {
      await this.#transport.close();
    } finally {
      this.#finish(undefined);
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #receive(message: JsonRpcMessage, info: MessageInfo | undefined): void {
    if (this.#state === 'closed') return;
    if ('method' in message) {
      if ('id' in message) this.#incoming.onRequest(message, info);
      else this.#notifications.dispatch(message, info);
    } else {
      this.#outgoing.onResponse(message, info);
    }
  }

  #finish(cause: Error | undefined): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#closeCause = cause;
    this.#log.peerWarnings.flush();
    this.#outgoing.closeAll(cause);
    this.#incoming.abortAll(cause);
    this.#log.trace(() => `connection closed${cause ? `: ${escapeForLog(cause.message)}` : ''}`);
    for (const listener of this.#closeListeners) {
      try {
        listener(cause);
      } catch (error) {
        this.#log.log('error', `a close listener threw: ${escapeForLog(asError(error).message)}`);
      }
    }
    this.#closeListeners.clear();
  }

  /** A frame the transport could not decode, or another problem that does not end the connection. */
  #transportError(error: Error): void {
    if (this.#state === 'closed') return;
    // The kind is a closed set (a protocol error's reason), so the limiter's memory stays bounded.
    const kind = error instanceof JsonRpcProtocolError ? `frame:${error.reason}` : 'transport';
    if (error instanceof JsonRpcProtocolError) {
      this.#framesRejected++;
      this.#lastRejected = error;
    }
    this.#log.peerWarnings.warn(kind, () => `transport reported: ${escapeForLog(error.message, 300)}`);
  }
}
