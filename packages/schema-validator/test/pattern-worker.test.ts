// Waiting on the pattern worker: spurious wake-ups, the deadline, no thread left behind.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { compile } from '../src/index.js';
import { stopPatternWorker, waitWhile } from '../src/pattern-worker.js';

describe('waiting on the pattern worker', () => {
  it('keeps waiting through wake-ups that change nothing', async () => {
    // The race it fixes: the worker's "running" notify can arrive after the caller saw "running" and
    // began waiting for "done"; one wake-up was taken as the deadline, and a valid value was refused.
    const shared = new SharedArrayBuffer(8);
    const state = new Int32Array(shared);
    Atomics.store(state, 0, 1);
    const notifier = new Worker(
      `const { workerData } = require('node:worker_threads');
      const state = new Int32Array(workerData);
      const end = Date.now() + 200;
      while (Date.now() < end) Atomics.notify(state, 0);
      Atomics.store(state, 0, 2);
      Atomics.notify(state, 0);`,
      { eval: true, workerData: shared },
    );
    try {
      expect(waitWhile(state, 1, performance.now() + 10_000)).toBe(true);
      expect(Atomics.load(state, 0)).toBe(2);
    } finally {
      await notifier.terminate();
    }
  });

  it('gives up at the deadline when nothing changes', () => {
    const state = new Int32Array(new SharedArrayBuffer(8));
    Atomics.store(state, 0, 1);
    expect(waitWhile(state, 1, performance.now() + 30)).toBe(false);
    expect(Atomics.load(state, 0)).toBe(1);
  });

  it('leaves no thread running once a timed-out match is abandoned', async () => {
    // A counted repetition too large for the linear-time matcher: the worker runs it, V8 is interrupted.
    const v = compile({ type: 'string', pattern: '(?:a{1000}){1000}b' });
    expect(v.validate('a'.repeat(50_000)).errors[0]?.message).toMatch(/did not finish within 100 ms/);
    // Resolves once every worker thread, the abandoned one included, has ended (a hang fails the test).
    await stopPatternWorker();
    expect(v.isValid('a'.repeat(1000))).toBe(false);
    await stopPatternWorker();
  });
});
