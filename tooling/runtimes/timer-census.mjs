// Counts the timers left scheduled, where a runtime has no list of its handles (a page, a Worker).
//
// It is installed before the libraries load (web-smoke.mjs imports it first), so every timer they set goes through it.
const live = new Map();
const { setTimeout: set, clearTimeout: clear, setInterval: every, clearInterval: stop } = globalThis;
const origin = () => (new Error().stack ?? '').split('\n').slice(2, 4).join(' | ').trim();

globalThis.setTimeout = (fn, ms, ...args) => {
  const handle = set(
    (...a) => {
      live.delete(handle);
      if (typeof fn === 'function') fn(...a);
    },
    ms,
    ...args,
  );
  live.set(handle, `timeout ${ms ?? 0} ms ${origin()}`);
  return handle;
};
globalThis.clearTimeout = (handle) => {
  live.delete(handle);
  clear(handle);
};
globalThis.setInterval = (fn, ms, ...args) => {
  const handle = every(fn, ms, ...args);
  live.set(handle, `interval ${ms ?? 0} ms ${origin()}`);
  return handle;
};
globalThis.clearInterval = (handle) => {
  live.delete(handle);
  stop(handle);
};

/** Where each timer still scheduled was set. */
export const openTimers = () => [...live.values()];
