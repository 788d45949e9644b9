// One request in flight to the peer: how it settles, its deadline, and the signal its transport may ask for.

import type { Timed } from './deadlines.js';
import type { Progress, RequestObservation } from './engine-types.js';
import type { JsonRpcId, JsonRpcParams } from './messages.js';
import type { TransportSendOptions } from './transport.js';

/** A request sent and not yet settled. */
export class Pending implements Timed {
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

  /** The observation that hears its progress, when one does (tracing). */
  observation: RequestObservation | undefined;

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
export class RequestSendOptions {
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

/** The request's params with `_meta.progressToken` set, keeping any `_meta` the caller gave. */
export function withProgressToken(params: JsonRpcParams | undefined, token: JsonRpcId): JsonRpcParams {
  const meta = params?._meta;
  const base = typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? meta : {};
  return { ...params, _meta: { ...base, progressToken: token } };
}
