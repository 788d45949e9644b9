// The messages a transport is sending, each abortable by request id, by signal, or all at once.
import type { JsonRpcId, JsonRpcMessage } from '@mcpc/jsonrpc';

/** One message on its way: its signal, and the release to call once it is done (in a `finally`). */
export interface Send {
  readonly signal: AbortSignal;
  readonly done: () => void;
}

/**
 * The messages a transport is sending, each under an AbortController of its own, so that one can be
 * aborted by request id (`Transport.abandon`), by a signal the caller passed, or all at once on close —
 * without `AbortSignal.any` and its listeners on a shared signal for every message.
 */
export class Sends {
  readonly #all = new Set<AbortController>();
  readonly #requests = new Map<JsonRpcId, AbortController>();

  /** Registers `message`; `signal` (if any) aborts it too. */
  begin(message: JsonRpcMessage, signal: AbortSignal | undefined): Send {
    const controller = new AbortController();
    const id = 'method' in message && 'id' in message ? message.id : undefined;
    this.#all.add(controller);
    if (id !== undefined) this.#requests.set(id, controller);
    const unlink = signal === undefined ? undefined : follow(signal, controller);
    return {
      signal: controller.signal,
      done: () => {
        unlink?.();
        this.#all.delete(controller);
        // A retried id may have been registered again by a later send: only our own entry goes.
        if (id !== undefined && this.#requests.get(id) === controller) this.#requests.delete(id);
      },
    };
  }

  /** Aborts the send of request `id`, if it is still going. */
  abandon(id: JsonRpcId, reason: Error): void {
    this.#requests.get(id)?.abort(reason);
  }

  /** Aborts every send (the transport is closing or failed). */
  abortAll(reason: Error): void {
    for (const controller of this.#all) controller.abort(reason);
  }
}

/** Aborts `controller` when `signal` fires; returns the unlink. */
function follow(signal: AbortSignal, controller: AbortController): (() => void) | undefined {
  if (signal.aborted) {
    controller.abort(signal.reason);
    return undefined;
  }
  const onAbort = (): void => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
