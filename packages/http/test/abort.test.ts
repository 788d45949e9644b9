// Abort and Sends: listeners without an EventTarget, the AbortSignal made only when asked, and kept in step.
import { describe, expect, it } from 'vitest';
import { Abort, linkTo } from '../src/abort.js';
import { Sends } from '../src/sends.js';

describe('Abort', () => {
  it('calls its listeners once, minus the unlinked ones, and keeps the first reason', () => {
    const abort = new Abort();
    const calls: string[] = [];
    abort.onAbort(() => calls.push('a'));
    const unlink = abort.onAbort(() => calls.push('b'));
    unlink();
    abort.abort(new Error('first'));
    abort.abort(new Error('second'));
    expect(calls).toEqual(['a']);
    expect(abort.aborted).toBe(true);
    expect((abort.reason as Error).message).toBe('first');
  });

  it('makes its AbortSignal on first use, in step before and after the abort', () => {
    const early = new Abort();
    const signal = early.signal;
    expect(signal.aborted).toBe(false);
    early.abort(new Error('now'));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('now');
    const late = new Abort();
    late.abort();
    expect(late.signal.aborted).toBe(true);
    expect(late.reason).toBeInstanceOf(DOMException);
    expect((late.reason as DOMException).name).toBe('AbortError');
  });

  it('linkTo: an AbortSignal as a link', () => {
    const controller = new AbortController();
    const link = linkTo(controller.signal);
    let heard = 0;
    link.onAbort(() => heard++);
    const unlink = link.onAbort(() => heard++);
    unlink();
    controller.abort(new Error('x'));
    expect(heard).toBe(1);
    expect(link.aborted).toBe(true);
    expect(link.signal).toBe(controller.signal);
  });
});

describe('Sends', () => {
  it('aborts a request by id, follows the caller signal, aborts all, and forgets what is done', () => {
    const sends = new Sends();
    const caller = new AbortController();
    const a = sends.begin({ jsonrpc: '2.0', id: 1, method: 'x' }, undefined);
    const b = sends.begin({ jsonrpc: '2.0', id: 2, method: 'y' }, caller.signal);
    const c = sends.begin({ jsonrpc: '2.0', method: 'notifications/z' }, undefined);
    sends.abandon(1, new Error('gave up'));
    expect(a.abort.aborted).toBe(true);
    expect(a.signal.aborted).toBe(true);
    caller.abort(new Error('caller'));
    expect((b.abort.reason as Error).message).toBe('caller');
    b.done();
    c.done();
    sends.abortAll(new Error('closing'));
    expect(c.abort.aborted).toBe(false); // done: no longer tracked
    const d = sends.begin({ jsonrpc: '2.0', id: 3, method: 'w' }, undefined);
    sends.abortAll(new Error('closing'));
    expect((d.abort.reason as Error).message).toBe('closing');
  });
});
