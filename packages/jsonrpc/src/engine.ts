import {
  AbortError,
  CancelledByPeerError,
  ConnectionClosedError,
  ErrorReply,
  JsonRpcProtocolError,
  McpError,
  RequestTimeoutError,
  ServerError,
} from './errors.js';
import { Deadlines, type Timed } from './deadlines.js';
import { describeForLog, escapeForLog, safeLog, warningsToConsole, type Logger } from './logger.js';
import {
  ErrorCode,
  type JsonRpcFailure,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcParams,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from './messages.js';
import type { MessageInfo, Transport, TransportSendOptions } from './transport.js';
import { WarningLimiter } from './warning-limiter.js';

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

export interface EngineOptions {
  readonly logger?: Logger;
  /** Default per-request timeout in milliseconds (60 000). `0` waits for ever. */
  readonly requestTimeout?: number;
  /** Peer-initiated requests handled at once; more are answered with an error at once (16). */
  readonly maxConcurrentHandlers?: number;
  /** Methods never followed by `notifications/cancelled` when abandoned (`['initialize']`, as MCP requires). */
  readonly uncancellableMethods?: readonly string[];
}

/** A request sent and not yet settled. */
class Pending implements Timed {
  timerDeadline = 0;
  timerSlot: Timed['timerSlot'] = undefined;
  /** The transport's signal, made only if the transport asks for it (most never do). */
  #wire: AbortController | undefined;
  /** Why it was given up on, for a signal asked for after the fact. */
  #abandonedWith: Error | undefined;

  constructor(
    readonly id: JsonRpcId,
    readonly method: string,
    readonly resolve: (result: unknown) => void,
    readonly reject: (error: Error) => void,
    readonly onProgress: ((p: Progress) => void) | undefined,
    /** Whether abandoning it sends `notifications/cancelled`. */
    readonly notifyCancel: boolean,
    /** The timeout in ms (0: none), and, where progress restarts it, the cap on the whole request. */
    readonly timeoutMs: number,
    readonly resetOnProgress: { readonly startedAt: number; readonly capMs: number } | undefined,
  ) {}

  /** The caller's signal and its listener, released on settling. */
  callerSignal: AbortSignal | undefined;
  onCallerAbort: (() => void) | undefined;

  /**
   * The signal the transport gets: fires when the request is abandoned (the caller's abort, a timeout,
   * the peer's cancellation, the connection closing), so it can release a stream. Made on demand.
   */
  wireSignal(): AbortSignal {
    if (this.#wire === undefined) {
      this.#wire = new AbortController();
      if (this.#abandonedWith !== undefined) this.#wire.abort(this.#abandonedWith);
    }
    return this.#wire.signal;
  }

  /** Stops listening to the caller's signal. */
  detachCaller(): void {
    if (this.onCallerAbort !== undefined) this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }

  /** Fires the transport's signal, if there is one (or once one is asked for). */
  abandonWire(reason: Error): void {
    this.#abandonedWith = reason;
    this.#wire?.abort(reason);
  }
}

/**
 * The send options of one request. `signal` is an own, enumerable accessor, so a transport that spreads
 * the options keeps it; the `AbortController` behind it is made the first time it is read.
 */
class RequestSendOptions {
  readonly #pending: Pending;

  constructor(send: Omit<TransportSendOptions, 'signal' | 'relatedRequestId'> | undefined, pending: Pending) {
    if (send !== undefined) Object.assign(this, send);
    this.#pending = pending;
    Object.defineProperty(this, 'signal', signalProperty);
  }

  static signalOf(options: RequestSendOptions): AbortSignal {
    return options.#pending.wireSignal();
  }
}

// One descriptor for every request: defining it costs no closure per request.
const signalProperty: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: RequestSendOptions) {
    return RequestSendOptions.signalOf(this);
  },
};

const RECENTLY_ABANDONED_LIMIT = 256;

/**
 * The JSON-RPC request/response engine over one {@link Transport}: id allocation, the pending map,
 * timeouts, cancellation, progress routing, and peer-initiated requests under a concurrency budget.
 */
export class JsonRpcEngine {
  readonly #transport: Transport;
  /** Whether the transport implements `abandon`: then it is told that way, and gets no signal per request. */
  readonly #abandons: boolean;
  readonly #logger: Logger;
  readonly #requestTimeout: number;
  readonly #maxHandlers: number;
  readonly #uncancellable: ReadonlySet<string>;

  #nextId = 1;
  readonly #pending = new Map<JsonRpcId, Pending>();
  // Ids we gave up on: a late answer to one is expected and logged quietly, unlike an unsolicited one.
  readonly #abandoned = new Set<JsonRpcId>();
  readonly #handlers = new Map<string, RequestHandler>();
  readonly #inFlight = new Map<JsonRpcId, AbortController>();
  readonly #listeners = new Set<NotificationListener>();
  readonly #closeListeners = new Set<(cause: Error | undefined) => void>();
  readonly #deadlines = new Deadlines<Pending>((pending) => this.#expire(pending));
  // Warnings the peer decides the rate of (junk frames, unsolicited responses): rate-limited per kind.
  readonly #peerWarnings = new WarningLimiter((message) => this.#log('warn', message));
  #state: 'new' | 'starting' | 'open' | 'closed' = 'new';
  #closeCause: Error | undefined;
  #framesRejected = 0;
  #lastRejected: JsonRpcProtocolError | undefined;

  constructor(transport: Transport, options: EngineOptions = {}) {
    this.#transport = transport;
    this.#abandons = typeof transport.abandon === 'function';
    this.#logger = options.logger ?? warningsToConsole;
    this.#requestTimeout = options.requestTimeout ?? 60_000;
    this.#maxHandlers = options.maxConcurrentHandlers ?? 16;
    this.#uncancellable = new Set(options.uncancellableMethods ?? ['initialize']);
  }

  /** Starts the transport. Rejects with the transport's error when it cannot connect. */
  async start(): Promise<void> {
    if (this.#state !== 'new') throw new McpError('the engine was already started', { code: 'MCPC_ALREADY_STARTED' });
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
    return this.#pending.size;
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
    if (this.#state === 'closed') return Promise.reject(new ConnectionClosedError(method, this.#closeCause));
    const { signal, onProgress } = options;
    if (signal?.aborted) return Promise.reject(new AbortError(method, signal.reason));

    const id = this.#nextId++;
    if (onProgress !== undefined) params = withProgressToken(params, id);
    options.onId?.(id);
    const message: JsonRpcRequest = params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };

    // Settled through its Pending; the executor captures nothing else (this runs on every call).
    let resolve!: (result: T) => void;
    let reject!: (error: Error) => void;
    const answer = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const timeoutMs = options.timeout ?? this.#requestTimeout;
    const timed = timeoutMs > 0 && Number.isFinite(timeoutMs);
    const resetOnProgress =
      timeoutMs > 0 && options.resetTimeoutOnProgress === true ? { startedAt: performance.now(), capMs: options.maxTotalTimeout ?? Number.POSITIVE_INFINITY } : undefined;
    const pending = new Pending(id, method, resolve as (r: unknown) => void, reject, onProgress, options.cancelNotification !== false, timeoutMs, resetOnProgress);
    this.#pending.set(id, pending);
    if (timed) this.#deadlines.schedule(pending, timeoutMs);
    if (signal !== undefined) {
      pending.callerSignal = signal;
      pending.onCallerAbort = () => this.#abandon(id, new AbortError(method, signal.reason));
      signal.addEventListener('abort', pending.onCallerAbort, { once: true });
    }
    if (this.#tracing) this.#trace(() => `→ request ${method} id=${id}`);

    // A transport with `abandon` hears there when the request is given up on, and gets no signal; any
    // other gets one (made only if it reads it) that fires when the request is abandoned for any reason.
    const sendOptions = this.#abandons ? options.send : (new RequestSendOptions(options.send, pending) as TransportSendOptions);
    let sent: Promise<void>;
    try {
      sent = this.#transport.send(message, sendOptions);
    } catch (error) {
      // A transport that throws instead of rejecting fails the request all the same.
      sent = Promise.reject(error);
    }
    sent.then(undefined, (error: unknown) => this.#sendFailed(pending, error));
    return answer;
  }

  #sendFailed(pending: Pending, error: unknown): void {
    this.#settle(pending.id)?.reject(this.#closed ? new ConnectionClosedError(pending.method, this.#closeCause ?? error) : asError(error));
  }

  /** Sends a notification. Rejects when the transport cannot send it. */
  async notify(method: string, params?: JsonRpcParams, options?: TransportSendOptions): Promise<void> {
    if (this.#state === 'closed') throw new ConnectionClosedError(method, this.#closeCause);
    const message: JsonRpcNotification = params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    this.#trace(() => `→ notification ${method}`);
    await this.#transport.send(message, options);
  }

  /** Answers the peer's requests for `method`. Returns a function that removes the handler. */
  setRequestHandler(method: string, handler: RequestHandler): () => void {
    this.#handlers.set(method, handler);
    return () => {
      if (this.#handlers.get(method) === handler) this.#handlers.delete(method);
    };
  }

  /**
   * Listens to the peer's notifications (all but progress and cancellation, which the engine routes
   * itself). A listener that throws is logged; it stops neither the others nor the connection.
   */
  onNotification(listener: NotificationListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
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

  get #closed(): boolean {
    return this.#state === 'closed';
  }

  // ── incoming ────────────────────────────────────────────────────────────────────────────────────

  #receive(message: JsonRpcMessage, info: MessageInfo | undefined): void {
    if (this.#state === 'closed') return;
    if ('method' in message) {
      if ('id' in message) this.#onRequest(message, info);
      else this.#onNotification(message, info);
    } else {
      this.#onResponse(message, info);
    }
  }

  #onResponse(message: JsonRpcResponse, info: MessageInfo | undefined): void {
    const { id } = message;
    if (id === null) {
      const { error } = message as JsonRpcFailure;
      this.#peerWarnings.warn('null-id-error', () => `the server reported an error with no request id: code=${error.code} message=${describeForLog(error.message)}`);
      return;
    }
    const pending = this.#settle(id);
    if (pending === undefined) {
      if (this.#abandoned.has(id)) this.#trace(() => `discarded a late response to abandoned request id=${describeForLog(id)}`);
      else this.#peerWarnings.warn('unsolicited-response', () => `discarded an unsolicited or duplicate response id=${describeForLog(id)}${bytes(info)}`);
      return;
    }
    if (this.#tracing) this.#trace(() => `← response ${pending.method} id=${id}${bytes(info)}`);
    if ('error' in message) {
      const { code, message: text, data } = message.error;
      const options: { data?: unknown; method: string } = { method: pending.method };
      if (data !== undefined) options.data = data;
      pending.reject(new ServerError(code, text, options));
    } else {
      pending.resolve(message.result);
    }
  }

  #onNotification(message: JsonRpcNotification, info: MessageInfo | undefined): void {
    const { method, params } = message;
    this.#trace(() => `← notification ${escapeForLog(method, 100)}${bytes(info)}`);
    if (method === 'notifications/progress') return this.#onProgress(params);
    if (method === 'notifications/cancelled') {
      const requestId = params?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') {
        const handler = this.#inFlight.get(requestId);
        if (handler !== undefined) return handler.abort(new AbortError(undefined, 'cancelled by the server'));
        // A request of ours the peer ended (MCP 2026-07-28: a subscription stream torn down on stdio).
        // Ids are ours, so a match is ours; it is rejected rather than left pending for ever.
        const pending = this.#settle(requestId);
        if (pending !== undefined) {
          const reason = typeof params?.reason === 'string' ? params.reason : undefined;
          const error = new CancelledByPeerError(pending.method, reason);
          pending.reject(error);
          this.#release(pending, error);
        }
      }
      return;
    }
    for (const listener of this.#listeners) {
      try {
        listener(method, params);
      } catch (error) {
        this.#log('error', `a notification listener threw on ${escapeForLog(method, 100)}: ${escapeForLog(asError(error).message)}`);
      }
    }
  }

  #onProgress(params: JsonRpcParams | undefined): void {
    const token = params?.progressToken;
    const pending = typeof token === 'string' || typeof token === 'number' ? this.#pending.get(token) : undefined;
    if (pending?.onProgress === undefined || typeof params?.progress !== 'number') {
      this.#trace(() => `dropped progress for an unknown or finished token ${describeForLog(token)}`);
      return;
    }
    const progress: { progress: number; total?: number; message?: string } = { progress: params.progress };
    if (typeof params.total === 'number') progress.total = params.total;
    if (typeof params.message === 'string') progress.message = params.message;
    if (pending.resetOnProgress !== undefined) this.#restartTimeout(pending, pending.resetOnProgress);
    try {
      pending.onProgress(progress);
    } catch (error) {
      this.#log('error', `an onProgress callback threw for ${pending.method}: ${escapeForLog(asError(error).message)}`);
    }
  }

  #onRequest(request: JsonRpcRequest, info: MessageInfo | undefined): void {
    const { id, method, params } = request;
    this.#trace(() => `← request ${escapeForLog(method, 100)} id=${describeForLog(id)}${bytes(info)}`);
    const handler = this.#handlers.get(method);
    if (handler === undefined) {
      return this.#reply(id, { code: ErrorCode.MethodNotFound, message: 'Method not found' });
    }
    if (this.#inFlight.has(id)) {
      this.#peerWarnings.warn('duplicate-request-id', () => `the server reused the id of a request still being handled: id=${describeForLog(id)}`);
      return this.#reply(id, { code: ErrorCode.InvalidRequest, message: 'Duplicate request id' });
    }
    if (this.#inFlight.size >= this.#maxHandlers) {
      this.#peerWarnings.warn('too-many-requests', () => `refused ${escapeForLog(method, 100)}: ${this.#maxHandlers} server requests already in progress`);
      return this.#reply(id, { code: ErrorCode.InternalError, message: 'Too many concurrent requests' });
    }
    const controller = new AbortController();
    this.#inFlight.set(id, controller);
    const context: RequestContext = { id, method, signal: controller.signal };
    // Off the transport's reader: the handler may itself make requests and await their answers.
    Promise.resolve()
      .then(() => handler(params, context))
      .then(
        (result) => {
          if (!controller.signal.aborted) this.#reply(id, undefined, result ?? {});
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          if (error instanceof ErrorReply) {
            const e: { code: number; message: string; data?: unknown } = { code: error.rpcCode, message: error.message };
            if (error.data !== undefined) e.data = error.data;
            return this.#reply(id, e);
          }
          this.#log('error', `the handler for ${escapeForLog(method, 100)} failed: ${escapeForLog(asError(error).message)}`);
          this.#reply(id, { code: ErrorCode.InternalError, message: 'Internal error' });
        },
      )
      .finally(() => this.#inFlight.delete(id));
  }

  #reply(id: JsonRpcId, error: { code: number; message: string; data?: unknown } | undefined, result?: unknown): void {
    if (this.#state === 'closed') return;
    const message: JsonRpcResponse = error === undefined ? { jsonrpc: '2.0', id, result } : { jsonrpc: '2.0', id, error };
    this.#transport.send(message, { relatedRequestId: id }).catch((e: unknown) => {
      this.#peerWarnings.warn('reply-failed', () => `could not answer server request id=${describeForLog(id)}: ${escapeForLog(asError(e).message)}`);
    });
  }

  // ── bookkeeping ─────────────────────────────────────────────────────────────────────────────────

  /** Removes a pending request and releases its timer and listener; undefined when it is not pending. */
  #settle(id: JsonRpcId): Pending | undefined {
    const pending = this.#pending.get(id);
    if (pending === undefined) return undefined;
    this.#pending.delete(id);
    pending.detachCaller();
    this.#deadlines.cancel(pending);
    return pending;
  }

  /** Progress arrived for a request that restarts its timeout on progress (within its total cap). */
  #restartTimeout(pending: Pending, reset: { readonly startedAt: number; readonly capMs: number }): void {
    const left = reset.capMs - (performance.now() - reset.startedAt);
    if (left <= 0) return this.#abandon(pending.id, new RequestTimeoutError(pending.method, reset.capMs));
    const ms = Math.min(pending.timeoutMs, Math.ceil(left));
    if (Number.isFinite(ms)) this.#deadlines.schedule(pending, ms);
  }

  #expire(pending: Pending): void {
    // Past its total cap, a request that restarts on progress reports the cap as its timeout.
    const reset = pending.resetOnProgress;
    const capped = reset !== undefined && performance.now() - reset.startedAt >= reset.capMs;
    this.#abandon(pending.id, new RequestTimeoutError(pending.method, capped ? reset.capMs : pending.timeoutMs));
  }

  /** Gives up on a request (timeout, abort): rejects it, releases its stream, and tells the peer, best-effort. */
  #abandon(id: JsonRpcId, error: Error): void {
    const pending = this.#settle(id);
    if (pending === undefined) return;
    pending.reject(error);
    this.#release(pending, error);
    this.#abandoned.add(id);
    if (this.#abandoned.size > RECENTLY_ABANDONED_LIMIT) this.#abandoned.delete(this.#abandoned.values().next().value!);
    if (!pending.notifyCancel || this.#uncancellable.has(pending.method) || this.#state === 'closed') return;
    const reason = error instanceof RequestTimeoutError ? 'timeout' : 'aborted by the client';
    this.notify('notifications/cancelled', { requestId: id, reason }).catch((e: unknown) => {
      this.#trace(() => `could not send notifications/cancelled for id=${id}: ${escapeForLog(asError(e).message)}`);
    });
  }

  /** Tells the transport a request it carries is no longer wanted: its signal, and `abandon` where it has one. */
  #release(pending: Pending, reason: Error): void {
    pending.abandonWire(reason);
    if (!this.#abandons || this.#state === 'closed') return;
    try {
      this.#transport.abandon!(pending.id, reason);
    } catch (error) {
      this.#log('error', `the transport's abandon() threw: ${escapeForLog(asError(error).message)}`);
    }
  }

  #finish(cause: Error | undefined): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#closeCause = cause;
    this.#peerWarnings.flush();
    for (const id of [...this.#pending.keys()]) {
      const pending = this.#settle(id);
      if (pending === undefined) continue;
      const error = new ConnectionClosedError(pending.method, cause);
      pending.reject(error);
      // A closing transport releases everything itself; only signals already handed out are fired.
      pending.abandonWire(error);
    }
    this.#deadlines.clear();
    for (const controller of this.#inFlight.values()) controller.abort(new ConnectionClosedError(undefined, cause));
    this.#inFlight.clear();
    this.#trace(() => `connection closed${cause ? `: ${escapeForLog(cause.message)}` : ''}`);
    for (const listener of this.#closeListeners) {
      try {
        listener(cause);
      } catch (error) {
        this.#log('error', `a close listener threw: ${escapeForLog(asError(error).message)}`);
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
    this.#peerWarnings.warn(kind, () => `transport reported: ${escapeForLog(error.message, 300)}`);
  }

  #log(level: 'warn' | 'error', message: string): void {
    safeLog(this.#logger, level, `[mcpc] ${message}`);
  }

  /** Whether debug lines are wanted: checked first on the hot paths, so no message closure is made for nothing. */
  get #tracing(): boolean {
    return this.#logger.isLevelEnabled?.('debug') !== false;
  }

  #trace(build: () => string): void {
    if (!this.#tracing) return;
    safeLog(this.#logger, 'debug', `[mcpc] ${build()}`);
  }
}

function withProgressToken(params: JsonRpcParams | undefined, token: JsonRpcId): JsonRpcParams {
  const meta = params?._meta;
  const base = typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? meta : {};
  return { ...params, _meta: { ...base, progressToken: token } };
}

const bytes = (info: MessageInfo | undefined): string => (info?.byteLength === undefined ? '' : ` (${info.byteLength} bytes)`);
const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));
