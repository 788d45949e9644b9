// The span store (server/timeline.ts, span-view.ts) on the real OTel SDK: bounded, nested, marked, no payloads.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SpanView } from '../contract/api.js';
import { enableTraceContext, Timeline } from '../server/timeline.js';

beforeAll(() => enableTraceContext());

/** A timeline and what it sent. */
function timeline(options?: { size?: number; maxOpen?: number }) {
  const sent: SpanView[] = [];
  return { store: new Timeline('demo', (span) => sent.push(span), options), sent };
}

describe('Timeline', () => {
  it('keeps the last `size` ended spans, and sends each span as it starts and as it ends', async () => {
    const { store, sent } = timeline({ size: 3 });
    for (const n of [1, 2, 3, 4, 5]) await store.run(`call n${n}`, {}, async () => n);
    expect(store.views().map((s) => s.name)).toEqual([
      'playground call n3',
      'playground call n4',
      'playground call n5',
    ]);
    expect(sent).toHaveLength(10);
    expect(sent[0]).toMatchObject({ name: 'playground call n1', kind: 'internal' });
    expect(sent[0]?.durationMs).toBeUndefined();
    expect(sent[1]?.durationMs).toBeGreaterThanOrEqual(0);
    await store.close();
  });

  it('holds at most `maxOpen` spans that never end', () => {
    const { store } = timeline({ maxOpen: 4 });
    for (let i = 0; i < 10; i++) store.tracer.startSpan(`open ${i}`);
    expect(store.views().map((s) => s.name)).toEqual(['open 6', 'open 7', 'open 8', 'open 9']);
  });

  it('parents the spans started inside a run on it, in a trace of its own; a failure is recorded and thrown', async () => {
    const { store } = timeline();
    await store.tracer.startActiveSpan('host', async (host) => {
      await store.run('call tools/call add', { 'playground.call.id': 'c1' }, async () => {
        store.tracer.startSpan('tools/call add').end();
      });
      host.end();
    });
    const failure = Object.assign(new Error('gone'), { code: 'MCPC_SERVER_EXITED' });
    await expect(store.run('connect', {}, () => Promise.reject(failure))).rejects.toBe(failure);

    const named = (name: string) => store.views().find((s) => s.name === name);
    const [root, request, connect] = ['playground call tools/call add', 'tools/call add', 'playground connect'].map(
      named,
    );
    expect(root).toMatchObject({
      name: 'playground call tools/call add',
      attributes: {
        'playground.server.id': 'demo',
        'playground.operation': 'call tools/call add',
        'playground.call.id': 'c1',
      },
    });
    expect(root?.parentSpanId).toBeUndefined(); // a new trace, whatever was active
    expect(request).toMatchObject({ name: 'tools/call add', traceId: root?.traceId, parentSpanId: root?.spanId });
    expect(connect).toMatchObject({
      name: 'playground connect',
      status: 'error',
      statusMessage: 'MCPC_SERVER_EXITED',
      attributes: { 'error.type': 'MCPC_SERVER_EXITED' },
    });
  });

  it('marks an input round on the active run, else on the one run in flight, else nowhere', async () => {
    const { store } = timeline();
    let release: () => void = () => {};
    const waiting = new Promise<void>((r) => (release = r));
    const other = store.run('call other', {}, () => waiting);
    // Two in flight: the active one is where a round inside it goes.
    await store.run('call first', {}, async () => store.mark('inside', {}));
    store.mark('alone', { n: 1 }); // not inside any, but one in flight
    const third = store.run('call third', {}, () => waiting);
    store.mark('ambiguous', {}); // two in flight, neither active: no guess
    release();
    await Promise.all([other, third]);
    const events = (name: string) => store.views().find((s) => s.name === `playground call ${name}`)?.events;
    expect(events('first')?.map((e) => e.name)).toEqual(['inside']);
    expect(events('other')).toEqual([expect.objectContaining({ name: 'alone', attributes: { n: 1 } })]);
    expect(events('third')).toEqual([]);
  });

  it('sends attributes bounded, primitives only, with no stack trace', async () => {
    const { store } = timeline();
    const span = store.tracer.startSpan('tools/call x', {
      attributes: { long: 'x'.repeat(1_000), list: ['a', 'b'], n: 3, ok: true },
    });
    span.recordException(Object.assign(new Error('boom'), { code: 'E_BOOM' }));
    span.end();
    const [view] = store.views();
    expect(view?.attributes).toEqual({ long: `${'x'.repeat(256)}…`, list: 'a, b', n: 3, ok: true });
    expect(view?.events[0]?.name).toBe('exception');
    expect(Object.keys(view?.events[0]?.attributes ?? {})).not.toContain('exception.stacktrace');
    expect(view?.events[0]?.attributes['exception.type']).toBe('E_BOOM');
  });
});
