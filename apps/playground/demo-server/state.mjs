// The demo server's shared state and small helpers: one process serves every connection, so one counter, one table.
//
// The limits every feature table reads, the connection-long instances (add-tool and the counter reach them), and the
// counter's tick, which sends resource updates to 2025-11-25 subscribers and 2026-07-28 listen streams.
export const COUNTER_URI = 'demo://counter';
export const COUNTER_MS = 2000;
export const TASK_TTL_MS = 5 * 60_000;
export const TASK_POLL_MS = 250;
export const TASK_STEP_MS = 400;
export const MAX_STEPS = 50;
export const MAX_EXTRA_TOOLS = 50;
export const state = {
  counter: 0,
  extraTools: 0,
  /** Connection-long McpServer instances (stdio, legacy HTTP sessions) → { era, subscriptions:Set<uri> }. */
  live: new Map(),
  /** The modern HTTP handler's notifier (subscriptions/listen streams). */
  notifier: undefined,
};
export const text = (value) => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }],
});
export const now = () => new Date().toISOString();
export const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** A connection-long instance: tracked for add-tool and the counter's updates. */
export function track(server, serving) {
  state.live.set(server, { era: serving });
  return server;
}

/** The counter ticks every COUNTER_MS; updates go to 2025-11-25 subscribers and 2026-07-28 listen streams. */
export function startCounter() {
  setInterval(() => {
    state.counter++;
    for (const [instance, info] of state.live) {
      if (!instance.isConnected()) {
        state.live.delete(instance);
        continue;
      }
      const wanted = info.era === 'modern' || instance.subscriptions?.has(COUNTER_URI);
      if (wanted) instance.server.sendResourceUpdated({ uri: COUNTER_URI }).catch(() => {});
    }
    state.notifier?.resourceUpdated(COUNTER_URI);
  }, COUNTER_MS).unref();
}
