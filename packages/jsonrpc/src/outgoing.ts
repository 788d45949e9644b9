// Our requests to the peer: ids, the pending map, deadlines, cancellation, answers and progress.

import { AbortError, CancelledByPeerError, ConnectionClosedError, RequestTimeoutError, ServerError } from './errors.js';
import { Deadlines } from './deadlines.js';
import { asError, bytes, type EngineLog } from './engine-log.js';
import type { RequestObservation, RequestObserver, RequestOptions } from './engine-types.js';
import { describeForLog, escapeForLog } from './logger.js';
import type { JsonRpcFailure, JsonRpcId, JsonRpcParams, JsonRpcRequest, JsonRpcResponse } from './messages.js';
import { Pending, RequestSendOptions, withProgressToken } from './pending.js';
import type { MessageInfo, Transport, TransportSendOptions } from './transport.js';

const RECENTLY_ABANDONED_LIMIT = 256;
// What `captureSettlers` last received; read right after `new Promise`, whose executor runs at once.
const noop = (): void => {};
const captured: { resolve: (value: unknown) => void; reject: (error: Error) => void } = {
  resolve: noop,
  reject: noop,
};
/** A promise executor shared by every request: a closure (and its context) per request was ~3% of scavenges. */
function captureSettlers(resolve: (value: never) => void, reject: (error: Error) => void): void {
  captured.resolve = resolve as (value: unknown) => void;
  captured.reject = reject;
}

// No send is being watched: never pushed to, as no promise equals an undefined `#sent`.
const NO_GROUP: Pending[] = [];

/** What the outgoing side needs of the engine it belongs to. */
export interface OutgoingHost {
  readonly transport: Transport;
  readonly log: EngineLog;
  /** Whether the connection is closed, and why (undefined for a requested close). */
  readonly closed: boolean;
  readonly closeCause: Error | undefined;
  /** Sends a notification (the engine's `notify`), for `notifications/cancelled`. */
  notify(method: string, params: JsonRpcParams): Promise<void>;
}

/**
 * The requests this side sends. Each is a {@link Pending} until its answer, its deadline, the caller's
 * abort, the peer's cancellation or the connection's close settles it — whichever comes first, once.
 */
export class OutgoingRequests {
  readonly #host: OutgoingHost;
  /** Whether the transport implements `abandon`: then it is told that way, and gets no signal per request. */
  readonly #abandons: boolean;
  readonly #requestTimeout: number;
  readonly #uncancellable: ReadonlySet<string>;
  readonly #observer: RequestObserver | undefined;

  #nextId = 1;
  readonly #pending = new Map<JsonRpcId, Pending>();
  // Ids we gave up on: a late answer to one is expected and logged quietly, unlike an unsolicited one.
  readonly #abandoned = new Set<JsonRpcId>();
  readonly #deadlines = new Deadlines<Pending>((pending) => this.#expire(pending));
  /** The last send promise not yet settled, and the requests waiting on it (see {@link #watchSend}). */
  #sent: Promise<void> | undefined;
  #sentGroup: Pending[] = NO_GROUP;

  constructor(
    host: OutgoingHost,
    options: {
      readonly requestTimeout: number;
      readonly uncancellableMethods: readonly string[];
      readonly observer?: RequestObserver | undefined;
    },
  ) {
    this.#host = host;
    this.#abandons = typeof host.transport.abandon === 'function';
    this.#requestTimeout = options.requestTimeout;
    this.#uncancellable = new Set(options.uncancellableMethods);
    this.#observer = options.observer;
  }

  /** Requests sent and not yet answered. */
  get size(): number {
    return this.#pending.size;
  }

  /** Sends a request and resolves with its result; rejects with a typed error (see the README). */
  request<T>(method: string, params: JsonRpcParams | undefined, options: RequestOptions): Promise<T> {
    const host = this.#host;
    if (host.closed) return Promise.reject(new ConnectionClosedError(method, host.closeCause));
    const { signal, onProgress } = options;
    if (signal?.aborted) return Promise.reject(new AbortError(method, signal.reason));

    const id = this.#nextId++;
    if (onProgress !== undefined) params = withProgressToken(params, id);
    options.onId?.(id);
    const observation = this.#observer === undefined ? undefined : this.#observe(id, method, params);
    if (observation?.params !== undefined) params = observation.params;
    const message: JsonRpcRequest =
      params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };

    // Settled through its Pending. No closure is made here (this runs on every call): the executor is
    // shared, and one capturing `id` or `method` would put them in a context allocated per call.
    const answer = new Promise<T>(captureSettlers);
    const resolve = captured.resolve as (result: T) => void;
    const reject = captured.reject;
    // Not kept past this call: they hold the promise, and the promise will hold the result.
    captured.resolve = captured.reject = noop;
    const timeoutMs = options.timeout ?? this.#requestTimeout;
    const timed = timeoutMs > 0 && Number.isFinite(timeoutMs);
    const resetOnProgress =
      timeoutMs > 0 && options.resetTimeoutOnProgress === true
        ? { startedAt: performance.now(), capMs: options.maxTotalTimeout ?? Number.POSITIVE_INFINITY }
        : undefined;
    const pending = new Pending(
      id,
      method,
      resolve as (r: unknown) => void,
      reject,
      onProgress,
      options.cancelNotification !== false,
      timeoutMs,
      resetOnProgress,
    );
    this.#pending.set(id, pending);
    if (timed) this.#deadlines.schedule(pending, timeoutMs);
    if (signal !== undefined) this.#listen(pending, signal);
    if (host.log.tracing) traceRequest(host.log, pending);

    // A transport with `abandon` hears there when the request is given up on, and gets no signal; any
    // other gets one (made only if it reads it) that fires when the request is abandoned for any reason.
    const sendOptions = this.#abandons
      ? options.send
      : (new RequestSendOptions(options.send, pending) as TransportSendOptions);
    let sent: Promise<void>;
    try {
      sent = host.transport.send(message, sendOptions);
    } catch (error) {
      // A transport that throws instead of rejecting fails the request all the same.
      sent = Promise.reject(error);
    }
    this.#watchSend(sent, pending);
    if (observation !== undefined) {
      if (observation.progress !== undefined) pending.observation = observation;
      reportEnd(this.#host.log, answer, observation);
    }
    return answer;
  }

  /** Starts watching a request; an observer that throws is logged and the request goes out unwatched. */
  #observe(id: JsonRpcId, method: string, params: JsonRpcParams | undefined): RequestObservation | undefined {
    try {
      return this.#observer!.start(id, method, params);
    } catch (error) {
      this.#host.log.log('error', `the request observer threw: ${escapeForLog(asError(error).message)}`);
      return undefined;
    }
  }

  /** Abandons `pending` when the caller's signal fires. Apart from `request`, whose locals no closure may capture. */
  #listen(pending: Pending, signal: AbortSignal): void {
    pending.callerSignal = signal;
    pending.onCallerAbort = () => this.#abandon(pending.id, new AbortError(pending.method, signal.reason));
    signal.addEventListener('abort', pending.onCallerAbort, { once: true });
  }

  /**
   * Fails `pending` if `sent` rejects. A transport that writes the frames of one turn together hands
   * them all the same promise: those requests share one reaction (a closure, a reaction and a derived
   * promise per request: ~3.5% of all scavenges in a 64-in-flight engine benchmark).
   */
  #watchSend(sent: Promise<void>, pending: Pending): void {
    if (sent === this.#sent) {
      this.#sentGroup.push(pending);
      return;
    }
    const group = [pending];
    this.#sent = sent;
    this.#sentGroup = group;
    // Once settled, the promise takes no more members: a transport returning one settled promise for
    // several sends gets a reaction each time, as the group's reaction has already run.
    const done = (): void => {
      if (this.#sent !== sent) return;
      this.#sent = undefined;
      this.#sentGroup = NO_GROUP;
    };
    sent.then(done, (error: unknown) => {
      done();
      for (const member of group) this.#sendFailed(member, error);
    });
  }

  #sendFailed(pending: Pending, error: unknown): void {
    const host = this.#host;
    this.#settle(pending.id)?.reject(
      host.closed ? new ConnectionClosedError(pending.method, host.closeCause ?? error) : asError(error),
    );
  }

  /** The peer's answer to one of our requests. */
  onResponse(message: JsonRpcResponse, info: MessageInfo | undefined): void {
    const { log } = this.#host;
    const { id } = message;
    if (id === null) {
      const { error } = message as JsonRpcFailure;
      log.peerWarnings.warn(
        'null-id-error',
        () =>
          `the server reported an error with no request id: code=${error.code} message=${describeForLog(error.message)}`,
      );
      return;
    }
    const pending = this.#settle(id);
    if (pending === undefined) {
      if (this.#abandoned.has(id))
        log.trace(() => `discarded a late response to abandoned request id=${describeForLog(id)}`);
      else
        log.peerWarnings.warn(
          'unsolicited-response',
          () => `discarded an unsolicited or duplicate response id=${describeForLog(id)}${bytes(info)}`,
        );
      return;
    }
    if (log.tracing) log.trace(() => `← response ${pending.method} id=${id}${bytes(info)}`);
    if ('error' in message) {
      const { code, message: text, data } = message.error;
      const options: { data?: unknown; method: string } = { method: pending.method };
      if (data !== undefined) options.data = data;
      pending.reject(new ServerError(code, text, options));
    } else {
      pending.resolve(message.result);
    }
  }

  /** A `notifications/progress`: routed to the request whose token it names, if it is still pending. */
  onProgress(params: JsonRpcParams | undefined): void {
    const { log } = this.#host;
    const token = params?.progressToken;
    const pending = typeof token === 'string' || typeof token === 'number' ? this.#pending.get(token) : undefined;
    if (pending?.onProgress === undefined || typeof params?.progress !== 'number') {
      log.trace(() => `dropped progress for an unknown or finished token ${describeForLog(token)}`);
      return;
    }
    const progress: { progress: number; total?: number; message?: string } = { progress: params.progress };
    if (typeof params.total === 'number') progress.total = params.total;
    if (typeof params.message === 'string') progress.message = params.message;
    if (pending.resetOnProgress !== undefined) this.#restartTimeout(pending, pending.resetOnProgress);
    try {
      pending.observation?.progress!(progress);
    } catch (error) {
      log.log('error', `the request observer threw on progress: ${escapeForLog(asError(error).message)}`);
    }
    try {
      pending.onProgress(progress);
    } catch (error) {
      log.log('error', `an onProgress callback threw for ${pending.method}: ${escapeForLog(asError(error).message)}`);
    }
  }

  /**
   * The peer's `notifications/cancelled` naming one of our requests (MCP 2026-07-28: a subscription
   * stream torn down on stdio). Ids are ours, so a match is ours; it is rejected rather than left
   * pending for ever.
   */
  cancelledByPeer(requestId: JsonRpcId, params: JsonRpcParams | undefined): void {
    const pending = this.#settle(requestId);
    if (pending === undefined) return;
    const reason = typeof params?.reason === 'string' ? params.reason : undefined;
    const error = new CancelledByPeerError(pending.method, reason);
    pending.reject(error);
    this.#release(pending, error);
  }

  /** The connection closed: every pending request rejects with `ConnectionClosedError` and its cause. */
  closeAll(cause: Error | undefined): void {
    for (const id of [...this.#pending.keys()]) {
      const pending = this.#settle(id);
      if (pending === undefined) continue;
      const error = new ConnectionClosedError(pending.method, cause);
      pending.reject(error);
      // A closing transport releases everything itself; only signals already handed out are fired.
      pending.abandonWire(error);
    }
    this.#deadlines.clear();
  }

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
    const host = this.#host;
    if (!pending.notifyCancel || this.#uncancellable.has(pending.method) || host.closed) return;
    const reason = error instanceof RequestTimeoutError ? 'timeout' : 'aborted by the client';
    host.notify('notifications/cancelled', { requestId: id, reason }).catch((e: unknown) => {
      host.log.trace(() => `could not send notifications/cancelled for id=${id}: ${escapeForLog(asError(e).message)}`);
    });
  }

  /** Tells the transport a request it carries is no longer wanted: its signal, and `abandon` where it has one. */
  #release(pending: Pending, reason: Error): void {
    pending.abandonWire(reason);
    const host = this.#host;
    if (!this.#abandons || host.closed) return;
    try {
      host.transport.abandon!(pending.id, reason);
    } catch (error) {
      host.log.log('error', `the transport's abandon() threw: ${escapeForLog(asError(error).message)}`);
    }
  }
}

/**
 * Tells the observer how a request ended (a function of its own: see the note in `request`). An observer that
 * throws is logged: left to reject, it would be an unhandled rejection, which ends a Node process.
 */
function reportEnd(log: EngineLog, answer: Promise<unknown>, observation: RequestObservation): void {
  const told = (tell: () => void): void => {
    try {
      tell();
    } catch (error) {
      log.log('error', `the request observer threw: ${escapeForLog(asError(error).message)}`);
    }
  };
  answer.then(
    (result) => told(() => observation.answered(result)),
    (error: unknown) => told(() => observation.failed(asError(error))),
  );
}

/** The debug line of a request sent (a function of its own: see the note in `request`). */
function traceRequest(log: EngineLog, pending: Pending): void {
  log.trace(() => `→ request ${pending.method} id=${pending.id}`);
}
