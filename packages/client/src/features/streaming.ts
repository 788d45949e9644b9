import type { Progress } from '@mcpc/jsonrpc';
import type { CallToolResult } from '../types/entities.js';

export type ToolStreamEvent =
  | { readonly type: 'progress'; readonly progress: number; readonly total?: number; readonly message?: string }
  | { readonly type: 'result'; readonly result: CallToolResult };

/**
 * Progress beyond this many unread events is coalesced (the oldest dropped): progress is a "how far"
 * signal, so a slow consumer loses only stale values, and a server flooding progress cannot grow memory.
 */
const MAX_QUEUED = 256;

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

  const queue: Progress[] = [];
  let head = 0;
  let wake: (() => void) | undefined;
  let outcome: { ok: true; result: CallToolResult } | { ok: false; error: unknown } | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };

  start((p) => {
    queue.push(p);
    if (queue.length - head > MAX_QUEUED) head++;
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
      while (head < queue.length) {
        const p = queue[head++]!;
        yield { type: 'progress', ...p };
      }
      queue.length = head = 0;
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
