// A hostile server: decompression bombs, endless events and streams, unsolicited responses, all bounded.
import { brotliCompressSync, constants, createGzip, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestTimeoutError } from '@mcpc/jsonrpc';
import { ResponseTooLargeError } from '@mcpc/transport-streamable-http';
import {
  connectEngine,
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

const MiB = 1024 * 1024;

// A JSON-RPC answer whose body is one gigantic string: 1 GiB of spaces compresses to about 1 MiB.
// Compressed a chunk at a time, so the test itself never holds the gigabyte.
async function gzipBomb(): Promise<Buffer> {
  const gzip = createGzip({ level: constants.Z_BEST_COMPRESSION });
  const out: Buffer[] = [];
  gzip.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  gzip.write('{"jsonrpc":"2.0","id":1,"result":{"pad":"');
  const chunk = Buffer.alloc(16 * MiB, 0x20);
  for (let i = 0; i < 64; i++) if (!gzip.write(chunk)) await new Promise((r) => gzip.once('drain', r));
  gzip.end('"}}');
  await done;
  return Buffer.concat(out);
}

forEachHttpClient(() => {
  describe('a hostile server', () => {
    it('a gzip bomb is abandoned past maxDecompressedBodyBytes, and memory stays bounded', async () => {
      const bomb = await gzipBomb();
      expect(bomb.length).toBeLessThan(4 * MiB);
      const peer = await startPeer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(bomb);
      });
      cleanups.push(peer.close);
      const { engine } = await connectEngine(peer.url, { listen: false, maxDecompressedBodyBytes: 8 * MiB });
      cleanups.push(() => engine.close());
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
      const e = await engine.request('resources/read').catch((x: unknown) => x);
      clearInterval(sampler);
      expect(e).toBeInstanceOf(ResponseTooLargeError);
      expect((e as ResponseTooLargeError).limitBytes).toBe(8 * MiB);
      // 1 GiB decompressed would show; the cap plus buffers must not. Loose on purpose: GC is lazy.
      expect(peak - before).toBeLessThan(200 * MiB);
    });

    it('decompresses gzip, deflate and brotli bodies that are within the limit', async () => {
      const encodings = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync } as const;
      const peer = await startPeer((req, res, body) => {
        const encoding = String(req.headers['x-want'] ?? 'gzip') as keyof typeof encodings;
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
        res.end(encodings[encoding](Buffer.from(JSON.stringify(result(body, { encoding })))));
      });
      cleanups.push(peer.close);
      const { engine } = await connectEngine(peer.url, { listen: false });
      cleanups.push(() => engine.close());
      for (const encoding of Object.keys(encodings)) {
        await expect(engine.request('ping', {}, { send: { headers: { 'x-want': encoding } } })).resolves.toEqual({
          encoding,
        });
      }
      expect(peer.seen[0]!.headers['accept-encoding']).toBe('gzip, deflate, br');
    });

    it('an SSE event that never ends costs bounded memory and fails the request with ResponseTooLargeError', async () => {
      const peer = await startPeer((_req, res) => {
        sseHead(res);
        res.write('data: ');
        const piece = 'x'.repeat(64 * 1024);
        const pump = setInterval(() => {
          if (!res.write(piece)) return;
        }, 1);
        res.on('close', () => clearInterval(pump));
      });
      cleanups.push(peer.close);
      const { engine } = await connectEngine(peer.url, { listen: false, maxSseEventBytes: 2 * MiB });
      cleanups.push(() => engine.close());
      const before = process.memoryUsage().rss;
      await expect(engine.request('tools/call', { name: 'x' })).rejects.toBeInstanceOf(ResponseTooLargeError);
      expect(process.memoryUsage().rss - before).toBeLessThan(100 * MiB);
    });

    it('an endless stream of events without the answer ends at the request timeout, and the stream is closed', async () => {
      let closed = false;
      const peer = await startPeer((req, res, body) => {
        if (rpcMethod(body) !== 'tools/call') return json(res, 202, {});
        sseHead(res);
        let n = 0;
        const pump = setInterval(
          () => sseEvent(res, { jsonrpc: '2.0', method: 'notifications/message', params: { n: n++ } }),
          2,
        );
        req.socket.on('close', () => {
          closed = true;
          clearInterval(pump);
        });
      });
      cleanups.push(peer.close);
      const { engine } = await connectEngine(peer.url, { listen: false });
      cleanups.push(() => engine.close());
      let notes = 0;
      engine.onNotification(() => notes++);
      await expect(engine.request('tools/call', { name: 'x' }, { timeout: 300 })).rejects.toBeInstanceOf(
        RequestTimeoutError,
      );
      await expect.poll(() => closed).toBe(true);
      expect(notes).toBeGreaterThan(0);
    });

    it('unsolicited responses on a stream are discarded and the real answer still arrives', async () => {
      const peer = await startPeer((_req, res, body) => {
        if (rpcMethod(body) !== 'tools/list') return json(res, 202, {});
        sseHead(res);
        sseEvent(res, { jsonrpc: '2.0', id: 999, result: { forged: true } });
        sseEvent(res, { jsonrpc: '2.0', id: 'other', error: { code: 1, message: 'forged' } });
        sseEvent(res, result(body, { tools: [] }));
        res.end();
      });
      cleanups.push(peer.close);
      const { engine, logger } = await connectEngine(peer.url, { listen: false });
      cleanups.push(() => engine.close());
      await expect(engine.request('tools/list')).resolves.toEqual({ tools: [] });
      expect(logger.lines.filter((l) => l.includes('unsolicited'))).toHaveLength(2);
    });

    it('malformed frames on a stream are reported and skipped', async () => {
      const peer = await startPeer((_req, res, body) => {
        sseHead(res);
        res.write('data: {not json\n\n');
        res.write('data: {"jsonrpc":"1.0","id":1}\n\n');
        sseEvent(res, result(body, 'fine'));
        res.end();
      });
      cleanups.push(peer.close);
      const { engine, logger } = await connectEngine(peer.url, { listen: false });
      cleanups.push(() => engine.close());
      await expect(engine.request('ping')).resolves.toBe('fine');
      expect(logger.lines.filter((l) => l.includes('transport reported'))).toHaveLength(2);
    });
  });
});
