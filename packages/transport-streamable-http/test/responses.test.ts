// Answers as JSON bodies and as SSE streams: incremental reads, broken streams, errors carried by 4xx.
import { afterEach, describe, expect, it } from 'vitest';
import { ServerError } from '@mcpc/jsonrpc';
import {
  HttpError,
  ResponseStreamClosedError,
  StreamableHttpTransport,
  UnauthorizedError,
} from '@mcpc/transport-streamable-http';
import {
  connectEngine,
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

forEachHttpClient(() => {
  describe('answers as JSON bodies and as SSE streams', () => {
    it('POSTs each message with both Accept types and reads a JSON answer', async () => {
      const { peer, engine } = await setup((_req, res, body) => json(res, 200, result(body, { ok: 1 })));
      await expect(engine.request('tools/list')).resolves.toEqual({ ok: 1 });
      const post = peer.seen[0]!;
      expect(post.method).toBe('POST');
      expect(post.headers.accept).toBe('application/json, text/event-stream');
      expect(post.headers['content-type']).toBe('application/json');
      expect(post.body).toMatchObject({ method: 'tools/list', id: 1 });
    });

    it('reads an SSE answer incrementally: notifications, progress and server requests before the result', async () => {
      const { engine } = await setup((_req, res, body) => {
        if (rpcMethod(body) !== 'tools/call') return json(res, 202, {});
        sseHead(res);
        const token = (body as unknown as { params: { _meta: { progressToken: number } } }).params._meta.progressToken;
        sseEvent(res, {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: token, progress: 1, total: 2 },
        });
        sseEvent(res, { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } });
        sseEvent(res, result(body, { content: [] }), 'e2');
        res.end();
      });
      const progress: number[] = [];
      const notes: string[] = [];
      engine.onNotification((m) => notes.push(m));
      await expect(
        engine.request('tools/call', { name: 'x' }, { onProgress: (p) => progress.push(p.progress) }),
      ).resolves.toEqual({ content: [] });
      expect(progress).toEqual([1]);
      expect(notes).toEqual(['notifications/message']);
    });

    it('keeps a result that arrived even if the connection dies right after it', async () => {
      const { engine, peer } = await setup((_req, res, body) => {
        if (rpcMethod(body) !== 'tools/call') return json(res, 202, {});
        sseHead(res);
        sseEvent(res, result(body, { content: [{ type: 'text', text: 'done' }] }));
        // No end of stream: the socket is destroyed after the final event.
        setTimeout(() => res.socket?.destroy(), 20);
      });
      await expect(engine.request('tools/call', { name: 'x' })).resolves.toEqual({
        content: [{ type: 'text', text: 'done' }],
      });
      await new Promise((r) => setTimeout(r, 50));
      expect(peer.seen.filter((s) => rpcMethod(s.body) === 'tools/call')).toHaveLength(1);
    });

    it('a stream that ends without the answer and without an event id fails the request with ResponseStreamClosedError', async () => {
      const { engine } = await setup((_req, res, body) => {
        sseHead(res);
        sseEvent(res, { jsonrpc: '2.0', method: 'notifications/message', params: {} });
        res.end();
        void body;
      });
      await expect(engine.request('tools/list')).rejects.toBeInstanceOf(ResponseStreamClosedError);
    });

    it('a JSON-RPC error carried by an HTTP 4xx keeps its code and data as a ServerError', async () => {
      const { engine } = await setup((_req, res) =>
        json(res, 400, {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32602, message: 'Unsupported protocol version', data: { supported: ['2025-06-18'] } },
        }),
      );
      const e = await engine.request('tools/list').catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ServerError);
      expect(e).toMatchObject({ rpcCode: -32602, data: { supported: ['2025-06-18'] } });
    });

    it('a 4xx without a JSON-RPC body is an HttpError with the status; 401 is an UnauthorizedError with the challenge', async () => {
      let status = 400;
      const { engine } = await setup((_req, res) => {
        res.writeHead(
          status,
          status === 401 ? { 'www-authenticate': 'Bearer resource_metadata="http://127.0.0.1/x"' } : {},
        );
        res.end('nope');
      });
      await expect(engine.request('tools/list')).rejects.toMatchObject({ status: 400 });
      await expect(engine.request('tools/list')).rejects.toBeInstanceOf(HttpError);
      status = 401;
      const e = await engine.request('tools/list').catch((x: unknown) => x);
      expect(e).toBeInstanceOf(UnauthorizedError);
      expect((e as UnauthorizedError).wwwAuthenticate).toContain('resource_metadata');
    });

    it('notifications expect 202; a 4xx to one rejects notify', async () => {
      let accept = true;
      const { engine } = await setup((_req, res) => {
        res.writeHead(accept ? 202 : 400);
        res.end();
      });
      await expect(engine.notify('notifications/initialized')).resolves.toBeUndefined();
      accept = false;
      await expect(engine.notify('notifications/roots/list_changed')).rejects.toMatchObject({ status: 400 });
    });

    it('an unexpected content type is an error, not a hang', async () => {
      const { engine } = await setup((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>');
      });
      await expect(engine.request('tools/list')).rejects.toBeInstanceOf(HttpError);
    });

    it('plain JSON mode accepts only JSON and never opens a GET stream', async () => {
      const { peer, engine } = await setup(
        (req, res, body) => {
          if (req.method === 'GET') return json(res, 500, {});
          if (rpcMethod(body) === 'initialize') return json(res, 200, result(body, initializeResult));
          if (body !== undefined && !('id' in body)) return json(res, 202, {});
          json(res, 200, result(body, {}));
        },
        { mode: 'json' },
      );
      await engine.request('initialize', {});
      await engine.notify('notifications/initialized');
      await engine.request('ping');
      await new Promise((r) => setTimeout(r, 100));
      expect(peer.seen.every((s) => s.method === 'POST')).toBe(true);
      expect(peer.seen[0]!.headers.accept).toBe('application/json');
    });
  });

  describe('configuration', () => {
    it('sends configured headers (static or computed per request) and per-message ones; the protocol owns its own', async () => {
      let n = 0;
      const { peer, engine } = await setup((_req, res, body) => json(res, 200, result(body, {})), {
        headers: () => ({ authorization: `Bearer t${++n}`, accept: 'text/plain', 'X-Static': 'yes' }),
      });
      await engine.request('ping');
      await engine.request('ping', {}, { send: { headers: { 'x-per-call': '1' } } });
      expect(peer.seen[0]!.headers.authorization).toBe('Bearer t1');
      expect(peer.seen[1]!.headers.authorization).toBe('Bearer t2');
      expect(peer.seen[1]!.headers['x-per-call']).toBe('1');
      expect(peer.seen[0]!.headers['x-static']).toBe('yes');
      expect(peer.seen[0]!.headers.accept).toBe('application/json, text/event-stream');
    });

    it('sends MCP-Protocol-Version once initialize negotiated one', async () => {
      const { peer, engine } = await setup(
        (_req, res, body) => {
          if (rpcMethod(body) === 'initialize')
            return json(res, 200, result(body, { ...initializeResult, protocolVersion: '2025-06-18' }));
          if (body !== undefined && !('id' in body)) return json(res, 202, {});
          json(res, 200, result(body, {}));
        },
        { listen: false },
      );
      await engine.request('initialize', {});
      await engine.request('tools/list');
      expect(peer.seen[0]!.headers['mcp-protocol-version']).toBeUndefined();
      expect(peer.seen[1]!.headers['mcp-protocol-version']).toBe('2025-06-18');
    });

    it('refuses URLs that are not http or https', () => {
      expect(() => new StreamableHttpTransport({ url: 'file:///etc/passwd' })).toThrow(TypeError);
    });
  });

  describe('the auth hook', () => {
    it('asks for headers on every request; a 401 challenge it answers with retry re-sends once with fresh headers', async () => {
      let token = 'stale';
      const challenges: unknown[] = [];
      const nonces: unknown[] = [];
      const peer = await startPeer((req, res, body) => {
        if (req.headers.authorization !== 'Bearer fresh') {
          res.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"', 'dpop-nonce': 'n-1' });
          return res.end();
        }
        json(res, 200, result(body, { ok: true }), { 'dpop-nonce': 'n-2' });
      });
      cleanups.push(peer.close);
      const { engine } = await connectEngine(peer.url, {
        listen: false,
        auth: {
          headers: ({ method, url }) => ({ Authorization: `Bearer ${token}`, 'x-htm': method, 'x-htu': url.pathname }),
          challenge: (c) => {
            challenges.push({ status: c.status, www: c.wwwAuthenticate, nonce: c.headers['dpop-nonce'] });
            token = 'fresh';
            return 'retry';
          },
          responded: (r) => nonces.push(r.headers['dpop-nonce']),
        },
      });
      cleanups.push(() => engine.close());
      await expect(engine.request('tools/call', { name: 'x' })).resolves.toEqual({ ok: true });
      expect(challenges).toEqual([{ status: 401, www: 'Bearer error="invalid_token"', nonce: 'n-1' }]);
      expect(nonces).toEqual(['n-1', 'n-2']);
      expect(peer.seen.map((s) => s.headers.authorization)).toEqual(['Bearer stale', 'Bearer fresh']);
      expect(peer.seen[1]!.headers['x-htm']).toBe('POST');
      expect(peer.seen[1]!.headers['x-htu']).toBe('/mcp');
    });

    it('retries at most twice per request (DPoP: token, then nonce), a failed challenge raises UnauthorizedError, a throwing hook raises its own error', async () => {
      const peer = await startPeer((_req, res) => {
        res.writeHead(403, { 'www-authenticate': 'Bearer error="insufficient_scope", scope="files:write"' });
        res.end();
      });
      cleanups.push(peer.close);
      let verdict: 'retry' | 'fail' | 'throw' = 'retry';
      let consulted = 0;
      const { engine } = await connectEngine(peer.url, {
        listen: false,
        auth: {
          headers: () => ({ authorization: 'Bearer t' }),
          challenge: () => {
            consulted++;
            if (verdict === 'throw') throw new RangeError('insufficient scope: files:write');
            return verdict;
          },
        },
      });
      cleanups.push(() => engine.close());
      await expect(engine.request('tools/list')).rejects.toBeInstanceOf(UnauthorizedError);
      // The first send and two retries; the third refusal is final without asking the hook again.
      expect(peer.seen).toHaveLength(3);
      expect(consulted).toBe(2);
      verdict = 'fail';
      await expect(engine.request('tools/list')).rejects.toMatchObject({ status: 403 });
      expect(peer.seen).toHaveLength(4);
      expect(consulted).toBe(3);
      verdict = 'throw';
      await expect(engine.request('tools/list')).rejects.toBeInstanceOf(RangeError);
    });
  });
});
