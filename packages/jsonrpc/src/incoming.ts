// The peer's requests to us: handlers by method, the concurrency budget, replies, and the peer's cancellation.

import { AbortError, ConnectionClosedError, ErrorReply } from './errors.js';
import { asError, bytes, type EngineLog } from './engine-log.js';
import type { IncomingObservation, IncomingObserver, RequestContext, RequestHandler } from './engine-types.js';
import { describeForLog, escapeForLog } from './logger.js';
import {
  ErrorCode,
  type JsonRpcId,
  type JsonRpcParams,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from './messages.js';
import type { MessageInfo, Transport } from './transport.js';

/** What the incoming side needs of the engine it belongs to. */
export interface IncomingHost {
  readonly transport: Transport;
  readonly log: EngineLog;
  readonly closed: boolean;
}

type ErrorObject = { code: number; message: string; data?: unknown };

/**
 * The requests the peer sends this side. Each goes to the handler registered for its method, off the
 * transport's reader, under a budget of `maxConcurrentHandlers`; it is answered exactly once, unless the
 * peer cancelled it or the connection closed.
 */
export class IncomingRequests {
  readonly #host: IncomingHost;
  readonly #maxHandlers: number;
  readonly #handlers = new Map<string, RequestHandler>();
  readonly #inFlight = new Map<JsonRpcId, AbortController>();
  readonly #observer: IncomingObserver | undefined;

  constructor(host: IncomingHost, maxConcurrentHandlers: number, observer?: IncomingObserver) {
    this.#host = host;
    this.#maxHandlers = maxConcurrentHandlers;
    this.#observer = observer;
  }

  /** Answers the peer's requests for `method`. Returns a function that removes the handler. */
  setHandler(method: string, handler: RequestHandler): () => void {
    this.#handlers.set(method, handler);
    return () => {
      if (this.#handlers.get(method) === handler) this.#handlers.delete(method);
    };
  }

  onRequest(request: JsonRpcRequest, info: MessageInfo | undefined): void {
    const { log } = this.#host;
    const { id, method, params } = request;
    log.trace(() => `← request ${escapeForLog(method, 100)} id=${describeForLog(id)}${bytes(info)}`);
    const handler = this.#handlers.get(method);
    if (handler === undefined) {
      return this.#reply(id, { code: ErrorCode.MethodNotFound, message: 'Method not found' });
    }
    if (this.#inFlight.has(id)) {
      log.peerWarnings.warn(
        'duplicate-request-id',
        () => `the server reused the id of a request still being handled: id=${describeForLog(id)}`,
      );
      return this.#reply(id, { code: ErrorCode.InvalidRequest, message: 'Duplicate request id' });
    }
    if (this.#inFlight.size >= this.#maxHandlers) {
      log.peerWarnings.warn(
        'too-many-requests',
        () => `refused ${escapeForLog(method, 100)}: ${this.#maxHandlers} server requests already in progress`,
      );
      return this.#reply(id, { code: ErrorCode.InternalError, message: 'Too many concurrent requests' });
    }
    const controller = new AbortController();
    this.#inFlight.set(id, controller);
    const context: RequestContext = { id, method, signal: controller.signal };
    const observation = this.#observer === undefined ? undefined : this.#observe(id, method, params);
    const run =
      observation === undefined
        ? () => handler(params, context)
        : () => observation.run(() => handler(params, context));
    // Off the transport's reader: the handler may itself make requests and await their answers.
    Promise.resolve()
      .then(run)
      .then(
        (result) => {
          if (observation !== undefined) this.#report(observation, controller.signal, result, undefined);
          if (!controller.signal.aborted) this.#reply(id, undefined, result ?? {});
        },
        (error: unknown) => {
          if (observation !== undefined) this.#report(observation, controller.signal, undefined, asError(error));
          if (controller.signal.aborted) return;
          if (error instanceof ErrorReply) {
            const e: ErrorObject = { code: error.rpcCode, message: error.message };
            if (error.data !== undefined) e.data = error.data;
            return this.#reply(id, e);
          }
          log.log(
            'error',
            `the handler for ${escapeForLog(method, 100)} failed: ${escapeForLog(asError(error).message)}`,
          );
          this.#reply(id, { code: ErrorCode.InternalError, message: 'Internal error' });
        },
      )
      .finally(() => this.#inFlight.delete(id));
  }

  /** Starts watching a peer request; an observer that throws is logged and the handler runs unwatched. */
  #observe(id: JsonRpcId, method: string, params: JsonRpcParams | undefined): IncomingObservation | undefined {
    try {
      return this.#observer!.start(id, method, params);
    } catch (error) {
      this.#host.log.log('error', `the incoming observer threw: ${escapeForLog(asError(error).message)}`);
      return undefined;
    }
  }

  /** Tells the observer how the handler ended (a cancel by the peer is a failure); an observer that throws is logged. */
  #report(observation: IncomingObservation, signal: AbortSignal, result: unknown, error: Error | undefined): void {
    try {
      if (signal.aborted) observation.failed(asError(signal.reason));
      else if (error !== undefined) observation.failed(error);
      else observation.answered(result);
    } catch (e) {
      this.#host.log.log('error', `the incoming observer threw: ${escapeForLog(asError(e).message)}`);
    }
  }

  /** The peer's `notifications/cancelled` for `id`: aborts its handler (no answer follows). False if none runs. */
  cancel(id: JsonRpcId): boolean {
    const handler = this.#inFlight.get(id);
    if (handler === undefined) return false;
    handler.abort(new AbortError(undefined, 'cancelled by the server'));
    return true;
  }

  /** The connection closed: every running handler's signal aborts with `ConnectionClosedError`. */
  abortAll(cause: Error | undefined): void {
    for (const controller of this.#inFlight.values()) controller.abort(new ConnectionClosedError(undefined, cause));
    this.#inFlight.clear();
  }

  #reply(id: JsonRpcId, error: ErrorObject | undefined, result?: unknown): void {
    const host = this.#host;
    if (host.closed) return;
    const message: JsonRpcResponse =
      error === undefined ? { jsonrpc: '2.0', id, result } : { jsonrpc: '2.0', id, error };
    host.transport.send(message, { relatedRequestId: id }).catch((e: unknown) => {
      host.log.peerWarnings.warn(
        'reply-failed',
        () => `could not answer server request id=${describeForLog(id)}: ${escapeForLog(asError(e).message)}`,
      );
    });
  }
}
