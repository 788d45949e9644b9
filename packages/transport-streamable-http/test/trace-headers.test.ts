// W3C trace context from a message's `_meta` in its POST's headers: copied when valid, skipped when not.
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectEngine,
  forEachHttpClient,
  handshake,
  initializeResult,
  json,
  result,
  rpcMethod,
  startPeer,
} from './http-peer.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A peer that answers everything, and an engine through a StreamableHttpTransport to it, handshaken. */
async function setup(options?: Parameters<typeof connectEngine>[1]) {
  const peer = await startPeer((_req, res, body) => {
    if (rpcMethod(body) === 'initialize') return json(res, 200, result(body, initializeResult));
    if (rpcMethod(body) === 'notifications/initialized') return json(res, 202, {});
    return json(res, 200, result(body, { ok: true }));
  });
  const { engine } = await connectEngine(peer.url, { listen: false, ...options });
  cleanups.push(peer.close, () => engine.close());
  await handshake(engine);
  return { peer, engine };
}

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const CONTEXT = { traceparent: TRACEPARENT, tracestate: 'congo=t61rcWkgMzE,rojo=00f067aa0ba902b7', baggage: 'k=v%201' };

forEachHttpClient(() => {
  describe('trace context from _meta in the HTTP headers', () => {
    it('a request whose _meta carries traceparent, tracestate and baggage sends them as headers too', async () => {
      const { peer, engine } = await setup();
      await engine.request('tools/call', { name: 'x', _meta: { ...CONTEXT, 'example.com/k': 'kept' } });
      const post = peer.seen.at(-1)!;
      expect(post.headers).toMatchObject(CONTEXT);
      // Only the three trace keys: other _meta keys stay in the body.
      expect(post.headers['example.com/k']).toBeUndefined();
      expect(post.body).toMatchObject({ params: { _meta: { ...CONTEXT, 'example.com/k': 'kept' } } });
    });

    it('on a stateless (2026-07-28) request too, and over a configured traceparent header', async () => {
      const { peer, engine } = await setup({ headers: { traceparent: 'configured', 'x-custom': 'kept' } });
      const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'x' };
      await engine.request(
        'tools/call',
        { name: 'x', _meta: { traceparent: TRACEPARENT } },
        { send: { stateless: true, headers } },
      );
      const post = peer.seen.at(-1)!;
      expect(post.headers.traceparent).toBe(TRACEPARENT);
      expect(post.headers['mcp-method']).toBe('tools/call');
      expect(post.headers['x-custom']).toBe('kept');
      expect(post.headers.tracestate).toBeUndefined();
    });

    it('nothing is added when _meta has no trace context, or there is no _meta', async () => {
      const { peer, engine } = await setup();
      await engine.request('tools/call', { name: 'x', _meta: { progressToken: 1 } });
      await engine.request('tools/list');
      await engine.notify('notifications/roots/list_changed');
      for (const post of peer.seen) {
        expect(post.headers.traceparent).toBeUndefined();
        expect(post.headers.tracestate).toBeUndefined();
        expect(post.headers.baggage).toBeUndefined();
      }
    });

    it('skips, silently, values that are not strings, split lines, are not ASCII or are too long — the request still goes', async () => {
      const { peer, engine } = await setup();
      const bad = [
        { traceparent: `${TRACEPARENT}\r\nx-injected: 1`, tracestate: 7, baggage: 'k=v\nx: y' },
        { traceparent: 'é', tracestate: 'a'.repeat(8193), baggage: `k=${'v'.repeat(8190)}` },
        { traceparent: '', tracestate: ['a=b'], baggage: null },
      ];
      for (const _meta of bad)
        await expect(engine.request('tools/call', { name: 'x', _meta })).resolves.toEqual({ ok: true });
      const posts = peer.seen.slice(-3);
      expect(posts.map((p) => p.headers['x-injected'])).toEqual([undefined, undefined, undefined]);
      expect(posts.map((p) => p.headers.traceparent)).toEqual([undefined, undefined, undefined]);
      expect(posts.map((p) => p.headers.tracestate)).toEqual([undefined, undefined, undefined]);
      // The one good value beside bad ones is still copied: each key stands alone.
      expect(posts.map((p) => p.headers.baggage)).toEqual([undefined, `k=${'v'.repeat(8190)}`, undefined]);
    });
  });
});
