// Runs one pattern match on a worker thread under a deadline, synchronously: the calling thread posts
// the job, then blocks on `Atomics.wait` for at most the budget. A match still running then is abandoned
// and its worker terminated (V8 interrupts a running regular expression, outside nested lookarounds —
// `pattern.ts` sends no lookaround here), so a slow match costs the caller the budget, not minutes.
// Validation stays synchronous.

import type { Worker } from 'node:worker_threads';

/** The worker's code, run as a CommonJS script (`eval: true`): the package ships no separate file. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const state = new Int32Array(workerData);
const cache = new Map();
parentPort.on('message', (job) => {
  Atomics.store(state, 0, 1);
  Atomics.notify(state, 0);
  let re = cache.get(job.source);
  if (re === undefined) {
    if (cache.size > 256) cache.clear();
    re = new RegExp(job.source, 'u');
    cache.set(job.source, re);
  }
  let result;
  try {
    result = re.test(job.input) ? 1 : 0;
  } catch (e) {
    // V8's backtracking stack has a fixed size: a long enough string overflows it. Say so, and stay usable.
    result = e instanceof RangeError ? 2 : 3;
  }
  Atomics.store(state, 1, result);
  Atomics.store(state, 0, 2);
  Atomics.notify(state, 0);
});
`;

// state[0]: 0 idle, 1 running, 2 done; state[1]: 1 matched, 0 did not, 2 stack overflow, 3 other error.
const IDLE = 0;
const RUNNING = 1;
/** How long a fresh worker may take to pick up its first job (thread start), before the budget runs. */
const STARTUP_MS = 10_000;

interface Runner {
  readonly worker: Worker;
  readonly state: Int32Array;
}

let runner: Runner | undefined;

function start(): Runner {
  // Loaded here, not imported: the package must load where worker threads do not exist (a check that
  // needs one then fails as 'unavailable'), and importing it costs every user who never needs one.
  const threads = process.getBuiltinModule('node:worker_threads');
  const shared = new SharedArrayBuffer(8);
  const worker = new threads.Worker(WORKER_SOURCE, { eval: true, workerData: shared });
  // Never keep the host process alive for a pattern check.
  worker.unref();
  worker.on('error', () => {
    if (runner?.worker === worker) runner = undefined;
  });
  return { worker, state: new Int32Array(shared) };
}

export type DeadlineOutcome = boolean | 'timeout' | 'overflow' | 'unavailable';

/**
 * Blocks while `state[0]` holds `value`, until `deadline` (a `performance.now()` time); true when it
 * changed. One wake-up is not a change: a notify sent for an earlier transition (the worker's "running"
 * arriving after the caller already saw it) wakes a later wait too, so the value is read again.
 */
export function waitWhile(state: Int32Array, value: number, deadline: number): boolean {
  for (;;) {
    if (Atomics.load(state, 0) !== value) return true;
    const left = deadline - performance.now();
    if (left <= 0) return false;
    Atomics.wait(state, 0, value, left);
  }
}

/** `new RegExp(source, 'u').test(input)`, on a worker, within `budgetMs`. */
export function testWithDeadline(source: string, input: string, budgetMs: number): DeadlineOutcome {
  let r: Runner;
  try {
    r = runner ??= start();
  } catch {
    return 'unavailable';
  }
  Atomics.store(r.state, 0, IDLE);
  r.worker.postMessage({ source, input });
  if (!waitWhile(r.state, IDLE, performance.now() + STARTUP_MS)) {
    abandon(r);
    return 'unavailable';
  }
  if (!waitWhile(r.state, RUNNING, performance.now() + budgetMs)) {
    abandon(r);
    return 'timeout';
  }
  const result = Atomics.load(r.state, 1);
  if (result === 0 || result === 1) return result === 1;
  if (result === 2) return 'overflow';
  // Not a RegExp error (V8 compiled the pattern before): treat the worker as broken.
  abandon(r);
  return 'unavailable';
}

/** Workers told to stop whose thread has not ended yet. */
const stopping = new Set<Promise<unknown>>();

function abandon(r: Runner): void {
  if (runner === r) runner = undefined;
  const ended = r.worker.terminate().catch(() => undefined);
  stopping.add(ended);
  void ended.finally(() => stopping.delete(ended));
}

/**
 * Stops the pattern worker, if one is running, and waits for every worker abandoned after a timeout to
 * end (tests; a host that wants a clean exit).
 */
export async function stopPatternWorker(): Promise<void> {
  const r = runner;
  runner = undefined;
  if (r !== undefined) await r.worker.terminate();
  await Promise.all(stopping);
}
