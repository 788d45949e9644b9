// Response streams that outlive their answer: closed once answered, idle ones failed at readTimeout.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ResponseStreamClosedError } from '@mcpc/transport-streamable-http';
import {
  connectEngine,
  forEachHttpClient,
  json,
  result,
  rpcMethod,
  sseEvent,
  sseHead,
  startPeer,
} from './http-peer.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The sockets a server has open now, counted from its own `connection` events. */
function openSockets(server: Server): { readonly open: number; readonly peak: number; readonly total: number } {
  const live = new Set<Socket>();
  const counts = { open: 0, peak: 0, total: 0 };
  server.on('connection', (socket: Socket) => {
    live.add(socket);
    counts.total++;
    counts.peak = Math.max(counts.peak, live.size);
    counts.open = live.size;
    socket.once('close', () => {
      live.delete(socket);
      counts.open = live.size;
    });
  });
  return counts;
}

forEachHttpClient(() => {
  describe('response streams that outlive their answer', () => {
    it('closes a POST stream once its answer has arrived, though the server keeps it open with comments: 200 calls leave few sockets open', async () => {
      const timers = new Set<NodeJS.Timeout>();
      const peer = await startPeer((req, res, body) => {
        if (rpcMethod(body) === undefined || !('id' in body!)) return json(res, 202, {});
        sseHead(res);
        sseEvent(res, result(body, {}));
        // The answer is out, and the stream stays open: a keep-alive comment now and then, for ever.
        res.write(': keep-alive\n\n');
        const pump = setInterval(() => res.write(': keep-alive\n\n'), 200);
        timers.add(pump);
        req.socket.once('close', () => (clearInterval(pump), timers.delete(pump)));
      });
      cleanups.push(async () => {
        for (const t of timers) clearInterval(t);
        await peer.close();
      });
      const sockets = openSockets(peer.server);
      const { engine } = await connectEngine(peer.url, { listen: false });
      cleanups.push(() => engine.close());
      for (let i = 0; i < 200; i++) await engine.request('ping', {});
      // Before: every stream stayed open until close(), one socket per call (200).
      await expect.poll(() => sockets.open, { timeout: 5_000 }).toBeLessThanOrEqual(4);
    });

    it('a POST stream that carries only comments and no event is idle: it fails at readTimeout, not at the request timeout', async () => {
      const timers = new Set<NodeJS.Timeout>();
      const peer = await startPeer((req, res, body) => {
        if (rpcMethod(body) !== 'tools/call') return json(res, 202, {});
        sseHead(res);
        const pump = setInterval(() => res.write(': still working\n\n'), 20);
        timers.add(pump);
        req.socket.once('close', () => (clearInterval(pump), timers.delete(pump)));
      });
      cleanups.push(async () => {
        for (const t of timers) clearInterval(t);
        await peer.close();
      });
      const sockets = openSockets(peer.server);
      const { engine } = await connectEngine(peer.url, { listen: false, readTimeout: 300 });
      cleanups.push(() => engine.close());
      const error = await engine.request('tools/call', { name: 'x' }, { timeout: 25_000 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseStreamClosedError);
      expect((error as Error).message).toMatch(/no event for 300 ms/);
      await expect.poll(() => sockets.open, { timeout: 5_000 }).toBe(0);
    });
  });
});
