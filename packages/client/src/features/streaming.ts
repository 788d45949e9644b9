// `streamCall`: a tool call as an async stream of progress events and its result, with a bounded backlog.
import type { Progress } from '@mcpc/jsonrpc';
import type { CallToolResult } from '../types/entities.js';

export type ToolStreamEvent =
  | { readonly type: 'progress'; readonly progress: number; readonly total?: number; readonly message?: string }
  | { readonly type: 'result'; readonly result: CallToolResult };

/**
 * The most progress events waiting for a consumer. Past it the oldest waiting one is overwritten in
 * place: progress is a "how far" signal, so a slow consumer loses only stale values, and a server
 * flooding progress at a stalled consumer costs at most this many events of memory.
 */
export const MAX_PENDING_PROGRESS = 256;

/** A fixed ring of the latest progress events: pushing onto a full ring overwrites the oldest. */
class ProgressRing {
  readonly #slots: (Progress | undefined)[] = [];
  #head = 0;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  push(p: Progress): void {
    const at = (this.#head + this.#size) % MAX_PENDING_PROGRESS;
    this.#slots[at] = p;
    if (this.#size < MAX_PENDING_PROGRESS) this.#size++;
    else this.#head = (this.#head + 1) % MAX_PENDING_PROGRESS;
  }

  shift(): Progress | undefined {
    if (this.#size === 0) return undefined;
    const p = this.#slots[this.#head];
    this.#slots[this.#head] = undefined;
    this.#head = (this.#head + 1) % MAX_PENDING_PROGRESS;
    this.#size--;
    return p;
  }
}

/**
 * Runs a call as an async iterator: its progress notifications as they arrive, then its result. The call
 * starts when iteration does; leaving the loop early (`break`, `return`, a throw) aborts it, which sends
 * `notifications/cancelled`.
 */
export async function* streamCall(
  start: (onProgress: (p: Progress) => void, signal: AbortSignal) => Promise<CallToolResult>,
  signal: AbortSignal | undefined,
): AsyncGenerator<ToolStreamEvent, void, undefined> {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });

  const queue = new ProgressRing();
  let wake: (() => void) | undefined;
  let outcome: { ok: true; result: CallToolResult } | { ok: false; error: unknown } | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };

  start((p) => {
    queue.push(p);
    notify();
  }, controller.signal).then(
    (result) => {
      outcome = { ok: true, result };
      notify();
    },
    (error: unknown) => {
      outcome = { ok: false, error };
      notify();
    },
  );

  try {
    for (;;) {
      for (let p = queue.shift(); p !== undefined; p = queue.shift()) yield { type: 'progress', ...p };
      if (outcome !== undefined) {
        if (!outcome.ok) throw outcome.error;
        yield { type: 'result', result: outcome.result };
        return;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (outcome === undefined) controller.abort(new Error('the caller stopped iterating'));
  }
}
