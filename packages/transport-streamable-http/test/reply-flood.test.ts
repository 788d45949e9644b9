// Request floods: sockets bounded, the reply queue bounded, long-lived requests outside the bound.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectEngine,
  forEachHttpClient,
  handshake,
  httpClientUnderTest,
  initializeResult,
  json,
  result,
  rpcMethod,
  sseHead,
  startPeer,
} from './http-peer.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Counts the sockets a server has open at once, from its own `connection` events. */
function socketCounter(server: Server): { readonly open: number; readonly peak: number; readonly total: number } {
  const counts = { open: 0, peak: 0, total: 0 };
  server.on('connection', (socket: Socket) => {
    counts.total++;
    counts.open++;
    counts.peak = Math.max(counts.peak, counts.open);
    socket.once('close', () => void counts.open--);
  });
  return counts;
}

const PINGS = 2_000;

forEachHttpClient(() => {
  describe('a server flooding the GET stream with requests, and slow to accept the answers', () => {
    it('keeps the sockets it opens under a bound, drops (and counts) what overflows the reply queue, and its own calls still succeed', async () => {
      let replies = 0;
      let flood: (() => void) | undefined;
      const peer = await startPeer(async (req, res, body) => {
        if (req.method === 'GET') {
          sseHead(res);
          res.flushHeaders();
          flood = () => {
            let frames = '';
            for (let i = 0; i < PINGS; i++)
              frames += `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: `p${i}`, method: 'ping' })}\n\n`;
            res.write(frames);
          };
          return;
        }
        if (req.method === 'DELETE') return json(res, 405, {});
        const method = rpcMethod(body);
        if (method === 'initialize') return json(res, 200, result(body, initializeResult));
        if (method === 'tools/call') return json(res, 200, result(body, { content: [] }));
        if (method === undefined) {
          // An answer to one of its pings: accepted, slowly.
          replies++;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        return json(res, 202, {});
      });
      cleanups.push(peer.close);
      const sockets = socketCounter(peer.server);
      const { engine, logger } = await connectEngine(peer.url);
      cleanups.push(() => engine.close());
      engine.setRequestHandler('ping', () => ({}));
      await handshake(engine);
      await expect.poll(() => flood !== undefined).toBe(true);
      flood!();
      // The host's own call goes through while the answers are queued.
      await expect(engine.request('tools/call', { name: 'x', arguments: {} })).resolves.toEqual({ content: [] });
      const dropped = (): number => {
        let n = 0;
        for (const line of logger.lines) {
          const m = /dropped (\d+) (?:more )?repl/.exec(line);
          if (m !== null) n += Number(m[1]);
        }
        return n;
      };
      await expect.poll(() => replies + dropped(), { timeout: 20_000 }).toBe(PINGS);
      expect(replies).toBeGreaterThan(0);
      // Before: one socket per answer, all at once (1,463 on undici, 354 on node:http). Now: 4 replies
      // at a time (maxConcurrentReplies), the GET stream, the host's own calls, and what undici opens
      // before it knows an earlier socket is free again: a bound that does not grow with the flood.
      expect(sockets.peak).toBeLessThanOrEqual(12);
      const summary = logger.lines.filter((l) => /dropped \d+/.test(l));
      expect(summary.length).toBeGreaterThan(0);
      expect(summary.length).toBeLessThan(20); // counted, not one line per reply
    });
  });

  describe('many requests of the host at once', () => {
    it('share at most maxConnections sockets (fetch: requests in flight), and all succeed', async () => {
      let inFlight = 0;
      let peakInFlight = 0;
      const peer = await startPeer(async (_req, res, body) => {
        peakInFlight = Math.max(peakInFlight, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight--;
        json(res, 200, result(body, {}));
      });
      cleanups.push(peer.close);
      const sockets = socketCounter(peer.server);
      const { engine } = await connectEngine(peer.url, { listen: false, maxConnections: 3 });
      cleanups.push(() => engine.close());
      const calls = Array.from({ length: 60 }, () => engine.request('tools/list', {}));
      await expect(Promise.all(calls)).resolves.toHaveLength(60);
      // Before: one socket per request in flight (60). fetch's connections are the runtime's: it bounds
      // the requests in flight, and the runtime may open a socket before the last one is back in its pool.
      expect(peakInFlight).toBeLessThanOrEqual(3);
      if (httpClientUnderTest() !== 'fetch') expect(sockets.peak).toBeLessThanOrEqual(3);
      else expect(sockets.peak).toBeLessThanOrEqual(12);
    });

    it('long-lived requests (subscriptions) are outside the bound: held open, they cannot starve other requests', async () => {
      const peer = await startPeer((req, res, body) => {
        if (req.method === 'GET' || rpcMethod(body) === 'subscriptions/listen') {
          // Held open for as long as the client wants it.
          sseHead(res);
          res.flushHeaders();
          return;
        }
        if (req.method === 'DELETE') return json(res, 405, {});
        if (rpcMethod(body) === 'initialize') return json(res, 200, result(body, initializeResult));
        if (body !== undefined && !('id' in body)) return json(res, 202, {});
        json(res, 200, result(body, {}));
      });
      cleanups.push(peer.close);
      const { engine } = await connectEngine(peer.url, { maxConnections: 2 });
      cleanups.push(() => engine.close());
      await handshake(engine);
      const listens = Array.from({ length: 3 }, () =>
        engine.request('subscriptions/listen', {}, { timeout: 0, send: { longLived: true } }).catch(() => {}),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      // With one bounded pool, the GET stream and three subscriptions would hold both connections, and this would wait for ever.
      await expect(engine.request('tools/list', {}, { timeout: 5_000 })).resolves.toEqual({});
      await engine.close();
      await Promise.all(listens);
    });

    it('calls holding every connection while they wait for the answer to a request the server asked on their stream still get it sent', async () => {
      // Each call's stream asks the client something (a ping here, an elicitation in life) and answers
      // the call only once the reply has arrived: the reply must not queue behind the calls for a socket.
      const waiting = new Map<string, () => void>();
      const peer = await startPeer(async (req, res, body) => {
        if (req.method === 'GET') return json(res, 405, {});
        if (req.method === 'DELETE') return json(res, 405, {});
        const method = rpcMethod(body);
        if (method === 'initialize') return json(res, 200, result(body, initializeResult));
        if (method === 'tools/call') {
          const asked = `ask-${body !== undefined && 'id' in body ? String(body.id) : '?'}`;
          sseHead(res);
          res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: asked, method: 'ping' })}\n\n`);
          await new Promise<void>((resolve) => waiting.set(asked, resolve));
          res.end(`event: message\ndata: ${JSON.stringify(result(body, { content: [] }))}\n\n`);
          return;
        }
        if (method === undefined && body !== undefined && 'id' in body) waiting.get(String(body.id))?.();
        return json(res, 202, {});
      });
      cleanups.push(async () => {
        for (const release of waiting.values()) release();
        await peer.close();
      });
      const { engine } = await connectEngine(peer.url, { listen: false, maxConnections: 2 });
      cleanups.push(() => engine.close());
      engine.setRequestHandler('ping', () => ({}));
      await handshake(engine);
      const calls = Array.from({ length: 4 }, () =>
        engine.request('tools/call', { name: 'x', arguments: {} }, { timeout: 5_000 }),
      );
      // Before: both connections held by waiting calls, every reply queued behind them, each call timed out.
      await expect(Promise.all(calls)).resolves.toHaveLength(4);
    });
  });
});
