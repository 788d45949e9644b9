// The public shapes of the engine's options, requests, handlers and listeners.

import type { JsonRpcId, JsonRpcParams } from './messages.js';
import type { Logger } from './logger.js';
import type { TransportSendOptions } from './transport.js';

export interface Progress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

export interface RequestOptions {
  /** Milliseconds to wait for the answer; overrides the engine's `requestTimeout`. `0` waits for ever. */
  readonly timeout?: number;
  readonly signal?: AbortSignal;
  /** Receives this request's `notifications/progress`; giving it adds a unique `progressToken`. */
  readonly onProgress?: (progress: Progress) => void;
  /** Restart the timeout whenever progress arrives (bounded by `maxTotalTimeout`). */
  readonly resetTimeoutOnProgress?: boolean;
  /** With `resetTimeoutOnProgress`: the most the whole request may take, in milliseconds. */
  readonly maxTotalTimeout?: number;
  /** Passed to the transport with the request (headers, retryability). */
  readonly send?: Omit<TransportSendOptions, 'signal' | 'relatedRequestId'>;
  /**
   * Follow an abandoned request with `notifications/cancelled` (true, best-effort). False where
   * cancellation is signalled otherwise: on MCP 2026-07-28 Streamable HTTP, closing the request's
   * response stream is the cancellation, and no notification is sent.
   */
  readonly cancelNotification?: boolean;
  /**
   * Called synchronously with the request's id once it is assigned, before it is sent: for a
   * long-lived request whose notifications the peer tags with that id (MCP's `subscriptions/listen`).
   */
  readonly onId?: (id: JsonRpcId) => void;
}

export interface RequestContext {
  readonly id: JsonRpcId;
  readonly method: string;
  /** Aborted when the peer cancels the request or the connection closes. */
  readonly signal: AbortSignal;
}

export type RequestHandler = (params: JsonRpcParams | undefined, context: RequestContext) => unknown;
export type NotificationListener = (method: string, params: JsonRpcParams | undefined) => void;

/**
 * Watches each request this side sends (tracing): it may replace the request's params (trace context in
 * its `_meta`) and hears how the request ended. The engine knows nothing of what it does with them.
 */
export interface RequestObserver {
  /** Called once the request's id is assigned, before it is sent. Undefined: this request is not watched. */
  start(id: JsonRpcId, method: string, params: JsonRpcParams | undefined): RequestObservation | undefined;
}

/** One watched request: the params to send instead, if any, and where its end is reported (once). */
export interface RequestObservation {
  readonly params?: JsonRpcParams | undefined;
  /** The answer arrived (its result, which the observer must not keep). */
  answered(result: unknown): void;
  /** The request failed: the server's error, a timeout, an abort, the connection's close. */
  failed(error: Error): void;
  /** A `notifications/progress` for this request arrived (before the caller's `onProgress` hears it). */
  readonly progress?: ((progress: Progress) => void) | undefined;
}

/**
 * Watches each request the peer sends this side that a handler answers (tracing), symmetric to
 * {@link RequestObserver}: it may run the handler within a scope of its own and hears how it ended.
 */
export interface IncomingObserver {
  /** Called before the handler runs. Undefined: this request is not watched. */
  start(id: JsonRpcId, method: string, params: JsonRpcParams | undefined): IncomingObservation | undefined;
}

/** One watched peer request: how its handler is run, and where its end is reported (once). */
export interface IncomingObservation {
  /** Runs the handler (for instance with a span made current); must return what `handler` returns. */
  run<T>(handler: () => T): T;
  /** The handler answered (its result, which the observer must not keep). */
  answered(result: unknown): void;
  /** The handler failed (an `ErrorReply`, another error), or the peer cancelled it, or the connection closed. */
  failed(error: Error): void;
}

export interface EngineOptions {
  readonly logger?: Logger;
  /** Default per-request timeout in milliseconds (60 000). `0` waits for ever. */
  readonly requestTimeout?: number;
  /** Peer-initiated requests handled at once; more are answered with an error at once (16). */
  readonly maxConcurrentHandlers?: number;
  /** Methods never followed by `notifications/cancelled` when abandoned (`['initialize']`, as MCP requires). */
  readonly uncancellableMethods?: readonly string[];
  /** Watches every request sent (tracing); when absent, a request costs nothing more. */
  readonly observer?: RequestObserver;
  /** Watches every peer request a handler answers (tracing); when absent, it costs nothing more. */
  readonly incomingObserver?: IncomingObserver;
}
