// The messages a transport is sending, each abortable by request id, by signal, or all at once.
import type { JsonRpcId, JsonRpcMessage } from '@mcpc/jsonrpc';
import { Abort, type AbortLink } from './abort.js';

/** One message on its way: its signal, and the release to call once it is done (in a `finally`). */
export interface Send {
  /** Made on first use: prefer `abort` where an AbortLink will do. */
  readonly signal: AbortSignal;
  /** The same abort, without an AbortSignal unless one is asked for. */
  readonly abort: AbortLink;
  readonly done: () => void;
}

/**
 * The messages a transport is sending, each under an abort of its own, so that one can be aborted by
 * request id (`Transport.abandon`), by a signal the caller passed, or all at once on close — without
 * `AbortSignal.any` and its listeners on a shared signal for every message, and without an
 * AbortController per message either (see AbortLink): the signal is made only if something asks.
 */
export class Sends {
  readonly #all = new Set<Abort>();
  readonly #requests = new Map<JsonRpcId, Abort>();

  /** Registers `message`; `signal` (if any) aborts it too. */
  begin(message: JsonRpcMessage, signal: AbortSignal | undefined): Send {
    const abort = new Abort();
    const id = 'method' in message && 'id' in message ? message.id : undefined;
    this.#all.add(abort);
    if (id !== undefined) this.#requests.set(id, abort);
    const unlink = signal === undefined ? undefined : follow(signal, abort);
    return new OneSend(abort, () => {
      unlink?.();
      this.#all.delete(abort);
      // A retried id may have been registered again by a later send: only our own entry goes.
      if (id !== undefined && this.#requests.get(id) === abort) this.#requests.delete(id);
    });
  }

  /** Aborts the send of request `id`, if it is still going. */
  abandon(id: JsonRpcId, reason: Error): void {
    this.#requests.get(id)?.abort(reason);
  }

  /** Aborts every send (the transport is closing or failed). */
  abortAll(reason: Error): void {
    for (const abort of this.#all) abort.abort(reason);
  }
}

/**
 * A {@link Send}. A class, its `signal` a getter on the prototype: a getter in an object literal gives
 * each object accessors of its own, and the three such literals a POST went through (this, its exchange
 * and its request) cost 8–18 µs of CPU a call at 64 in flight, more than the HTTP client's own work.
 */
class OneSend implements Send {
  readonly abort: Abort;
  readonly done: () => void;

  constructor(abort: Abort, done: () => void) {
    this.abort = abort;
    this.done = done;
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }
}

/** Aborts `abort` when `signal` fires; returns the unlink. */
function follow(signal: AbortSignal, abort: Abort): (() => void) | undefined {
  if (signal.aborted) {
    abort.abort(signal.reason);
    return undefined;
  }
  const onAbort = (): void => abort.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
