// Stateless (MCP 2026-07-28) requests: per-request headers, no GET stream, no resumption, cancellation.
import { afterEach, describe, expect, it } from 'vitest';
import { ServerError } from '@mcpc/jsonrpc';
import { ResponseStreamClosedError } from '@mcpc/transport-streamable-http';
import {
  connectEngine,
  handshake,
  initializeResult,
  json,
  result,
  rpcMethod,
  sseEvent,
  sseHead,
  startPeer,
  forEachHttpClient,
} from './http-peer.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(handler: Parameters<typeof startPeer>[0], options?: Parameters<typeof connectEngine>[1]) {
  const peer = await startPeer(handler);
  const { engine, transport, logger } = await connectEngine(peer.url, options);
  cleanups.push(peer.close, () => engine.close());
  return { peer, engine, transport, logger };
}

const STATELESS = { stateless: true } as const;

forEachHttpClient(() => {
  describe('stateless (MCP 2026-07-28) requests', () => {
    it('carry the per-request protocol headers, no session id, and drop configured Mcp-Param-* headers', async () => {
      const { peer, engine } = await setup(
        (_req, res, body) => {
          if (rpcMethod(body) === 'initialize')
            return json(res, 200, result(body, initializeResult), { 'mcp-session-id': 'sess-1' });
          if (rpcMethod(body) === 'notifications/initialized') return json(res, 202, {});
          return json(res, 200, result(body, { ok: true }));
        },
        { headers: { 'Mcp-Param-Region': 'forged', 'X-Custom': 'kept' }, listen: false },
      );
      await handshake(engine);
      const headers = {
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'echo',
        'mcp-param-region': 'eu',
      };
      await engine.request('tools/call', { name: 'echo' }, { send: { ...STATELESS, headers } });
      const post = peer.seen.at(-1)!;
      expect(post.headers['mcp-session-id']).toBeUndefined();
      expect(post.headers['mcp-protocol-version']).toBe('2026-07-28');
      expect(post.headers['mcp-method']).toBe('tools/call');
      expect(post.headers['mcp-name']).toBe('echo');
      expect(post.headers['mcp-param-region']).toBe('eu');
      expect(post.headers['x-custom']).toBe('kept');
      expect(post.headers.accept).toBe('application/json, text/event-stream');
      // A classic request on the same transport still sends what the session set, and the configured header.
      await engine.request('tools/list');
      expect(peer.seen.at(-1)!.headers['mcp-session-id']).toBe('sess-1');
      expect(peer.seen.at(-1)!.headers['mcp-param-region']).toBe('forged');
    });

    it('open no GET stream and never resume: a stream that ends without the answer fails with a non-resumable ResponseStreamClosedError', async () => {
      const { peer, engine } = await setup((_req, res, body) => {
        sseHead(res);
        sseEvent(
          res,
          { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } },
          'ev-1',
        );
        void body;
        res.end();
      });
      const error = await engine.request('tools/call', { name: 'x' }, { send: STATELESS }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseStreamClosedError);
      expect((error as ResponseStreamClosedError).resumable).toBe(false);
      expect(peer.seen.map((s) => s.method)).toEqual(['POST']);
    });

    it('a 404 is an answer (no session renewal): a JSON-RPC error in the body keeps its code', async () => {
      const { peer, engine } = await setup((_req, res, body) =>
        json(res, 404, {
          jsonrpc: '2.0',
          id: (body as { id: number }).id,
          error: { code: -32601, message: 'Method not found' },
        }),
      );
      const error = await engine.request('vendor/x', undefined, { send: STATELESS }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServerError);
      expect((error as ServerError).rpcCode).toBe(-32601);
      expect(peer.seen).toHaveLength(1);
    });

    it('cancelling closes the response stream; longLived streams have no idle timeout', async () => {
      let closed = false;
      const { engine } = await setup(
        (_req, res) => {
          sseHead(res);
          res.write(': open\n\n');
          res.on('close', () => (closed = true));
        },
        { readTimeout: 100 },
      );
      const controller = new AbortController();
      const pending = engine.request(
        'subscriptions/listen',
        {},
        { timeout: 0, signal: controller.signal, cancelNotification: false, send: { ...STATELESS, longLived: true } },
      );
      await new Promise((r) => setTimeout(r, 300));
      expect(closed).toBe(false);
      controller.abort();
      await expect(pending).rejects.toMatchObject({ code: 'ABORT_ERR' });
      await new Promise((r) => setTimeout(r, 100));
      expect(closed).toBe(true);
    });
  });
});
