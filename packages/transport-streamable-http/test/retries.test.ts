// Retries: what is re-sent after a 5xx or a connection failure, with backoff, and what never is.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestTimeoutError, ServerError } from '@mcpc/jsonrpc';
import { NetworkError, ResponseTooLargeError, TransientServerError } from '@mcpc/transport-streamable-http';
import { connectEngine, json, result, rpcMethod, startPeer, forEachHttpClient } from './http-peer.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Fails the first `failures` POSTs of each method with `status`, then answers. */
async function flaky(failures: number, status: number) {
  const counts = new Map<string, number>();
  const peer = await startPeer((_req, res, body) => {
    const method = rpcMethod(body) ?? 'reply';
    const n = (counts.get(method) ?? 0) + 1;
    counts.set(method, n);
    if (n <= failures) {
      res.writeHead(status);
      return res.end('try later');
    }
    json(res, 200, result(body, { attempt: n }));
  });
  cleanups.push(peer.close);
  const { engine } = await connectEngine(peer.url, { listen: false, retries: 3 });
  cleanups.push(() => engine.close());
  return { engine, counts };
}

forEachHttpClient(() => {
  describe('retries', () => {
    it('re-sends a retryable request after HTTP 5xx, with backoff, until it succeeds', async () => {
      const { engine, counts } = await flaky(2, 503);
      await expect(engine.request('tools/list', {}, { send: { retryable: true } })).resolves.toEqual({ attempt: 3 });
      expect(counts.get('tools/list')).toBe(3);
    });

    it('never re-sends a tools/call: the 5xx surfaces as TransientServerError, a ServerError', async () => {
      const { engine, counts } = await flaky(1, 502);
      const e = await engine
        .request('tools/call', { name: 'send_invoice' }, { send: { retryable: true } })
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(TransientServerError);
      expect(e).toBeInstanceOf(ServerError);
      expect((e as TransientServerError).status).toBe(502);
      expect(counts.get('tools/call')).toBe(1);
    });

    it('does not re-send what the caller did not mark retryable', async () => {
      const { engine, counts } = await flaky(1, 500);
      await expect(engine.request('prompts/list')).rejects.toBeInstanceOf(TransientServerError);
      expect(counts.get('prompts/list')).toBe(1);
    });

    it('never re-sends after a 4xx', async () => {
      const { engine, counts } = await flaky(1, 409);
      await expect(engine.request('tools/list', {}, { send: { retryable: true } })).rejects.toMatchObject({
        status: 409,
      });
      expect(counts.get('tools/list')).toBe(1);
    });

    it('gives up after `retries` re-sends', async () => {
      const { engine, counts } = await flaky(10, 503);
      await expect(engine.request('tools/list', {}, { send: { retryable: true } })).rejects.toBeInstanceOf(
        TransientServerError,
      );
      expect(counts.get('tools/list')).toBe(4);
    });

    it('re-sends after a refused connection, then reports a NetworkError naming the origin', async () => {
      const probe = createServer();
      await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
      const { port } = probe.address() as AddressInfo;
      await new Promise<void>((r) => probe.close(() => r()));
      const { engine } = await connectEngine(`http://127.0.0.1:${port}/mcp`, { listen: false, retries: 2 });
      cleanups.push(() => engine.close());
      const started = Date.now();
      const e = await engine.request('tools/list', {}, { send: { retryable: true } }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(NetworkError);
      expect((e as NetworkError).message).toContain(`127.0.0.1:${port}`);
      expect(Date.now() - started).toBeGreaterThanOrEqual(10);
    });

    it('a timeout is not retried: the engine gives up and the stream is released', async () => {
      let posts = 0;
      let closedByClient = false;
      const peer = await startPeer((req, res) => {
        posts++;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': keep waiting\n\n');
        req.socket.on('close', () => (closedByClient = true));
      });
      cleanups.push(peer.close);
      const { engine } = await connectEngine(peer.url, { listen: false, retries: 3 });
      cleanups.push(() => engine.close());
      await expect(
        engine.request('tools/list', {}, { timeout: 100, send: { retryable: true } }),
      ).rejects.toBeInstanceOf(RequestTimeoutError);
      await expect.poll(() => closedByClient).toBe(true);
      // One request, plus the best-effort notifications/cancelled.
      expect(posts).toBeLessThanOrEqual(2);
    });

    it('a too-large response is not retried', async () => {
      let posts = 0;
      const peer = await startPeer((_req, res, body) => {
        posts++;
        json(res, 200, result(body, { blob: 'x'.repeat(2048) }));
      });
      cleanups.push(peer.close);
      const { engine } = await connectEngine(peer.url, { listen: false, retries: 3, maxDecompressedBodyBytes: 1024 });
      cleanups.push(() => engine.close());
      await expect(engine.request('resources/read', {}, { send: { retryable: true } })).rejects.toBeInstanceOf(
        ResponseTooLargeError,
      );
      expect(posts).toBe(1);
    });
  });
});
