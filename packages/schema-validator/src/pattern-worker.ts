// Runs one pattern match on a worker thread under a deadline, synchronously: the calling thread posts
// the job, then blocks on `Atomics.wait` for at most the budget. A match still running then is abandoned
// and its worker terminated (V8 interrupts a running regular expression), so a catastrophic pattern
// costs the caller the budget, not minutes. Validation stays synchronous.

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
  Atomics.store(state, 1, re.test(job.input) ? 1 : 0);
  Atomics.store(state, 0, 2);
  Atomics.notify(state, 0);
});
`;

const IDLE = 0;
const RUNNING = 1;
const DONE = 2;
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

export type DeadlineOutcome = boolean | 'timeout' | 'unavailable';

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
  if (Atomics.wait(r.state, 0, IDLE, STARTUP_MS) === 'timed-out') {
    abandon(r);
    return 'unavailable';
  }
  Atomics.wait(r.state, 0, RUNNING, budgetMs);
  if (Atomics.load(r.state, 0) !== DONE) {
    abandon(r);
    return 'timeout';
  }
  return Atomics.load(r.state, 1) === 1;
}

function abandon(r: Runner): void {
  if (runner === r) runner = undefined;
  void r.worker.terminate();
}

/** Stops the pattern worker, if one is running (tests; a host that wants a clean exit). */
export async function stopPatternWorker(): Promise<void> {
  const r = runner;
  runner = undefined;
  if (r !== undefined) await r.worker.terminate();
}
