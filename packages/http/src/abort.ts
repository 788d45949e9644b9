// A cheap abort handle for one message in flight: listeners without an EventTarget, an AbortSignal only when asked.

/**
 * What a request needs of its abort: whether and why it was aborted, and a hook. An AbortSignal does
 * this too, but making one (with its AbortController) and listening on it cost ~6 µs per message in
 * Node 20 — a fifth of the transport's own work per call; most messages are never aborted.
 */
export interface AbortLink {
  readonly aborted: boolean;
  readonly reason: unknown;
  /** The equivalent AbortSignal, made on first use (for APIs that take one). */
  readonly signal: AbortSignal;
  /** Calls `listener` once, when aborted (not if it already was: check `aborted` first); returns the unlink. */
  onAbort(listener: () => void): () => void;
}

/** An {@link AbortLink} aborted by whoever holds it. */
export class Abort implements AbortLink {
  #aborted = false;
  #reason: unknown;
  #controller: AbortController | undefined;
  #listeners: (() => void)[] | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  onAbort(listener: () => void): () => void {
    (this.#listeners ??= []).push(listener);
    return () => {
      const listeners = this.#listeners;
      const at = listeners === undefined ? -1 : listeners.indexOf(listener);
      if (at === -1) return;
      // Not splice: it makes an array of what it removed, once per message.
      for (let i = at + 1; i < listeners!.length; i++) listeners![i - 1] = listeners![i]!;
      listeners!.pop();
    };
  }

  /** Aborts with `reason` (as AbortController does: an AbortError DOMException when none); once. */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener();
    this.#controller?.abort(this.#reason);
  }
}

/** An AbortSignal seen as an {@link AbortLink} (for the rare paths that are handed a signal). */
export function linkTo(signal: AbortSignal): AbortLink {
  return {
    get aborted() {
      return signal.aborted;
    },
    get reason() {
      return signal.reason as unknown;
    },
    signal,
    onAbort(listener) {
      signal.addEventListener('abort', listener, { once: true });
      return () => signal.removeEventListener('abort', listener);
    },
  };
}
