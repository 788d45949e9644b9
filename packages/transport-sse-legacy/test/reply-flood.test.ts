// A server flooding the SSE stream with requests and slow to accept answers: sockets and queues stay bounded.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonRpcEngine, type JsonRpcMessage, type Logger } from '@mcpc/jsonrpc';
import { SseTransport } from '@mcpc/transport-sse-legacy';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const PINGS = 2_000;

/**
 * An HTTP+SSE server that, once initialized, sends PINGS pings on its stream at once and accepts the
 * answers slowly (5 ms each); it counts the sockets it has open at once.
 */
async function floodingServer() {
  let stream: ServerResponse | undefined;
  const counts = { replies: 0, open: 0, peak: 0 };
  const server = createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: endpoint\ndata: /messages\n\n');
      stream = res;
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString()) as JsonRpcMessage;
      const accept = (): void => {
        res.writeHead(202);
        res.end();
      };
      if (!('method' in message)) {
        counts.replies++;
        return void setTimeout(accept, 5);
      }
      accept();
      if ('id' in message) {
        const result =
          message.method === 'initialize'
            ? { protocolVersion: '2024-11-05', capabilities: {}, serverInfo: { name: 'flood', version: '1' } }
            : {};
        stream?.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n\n`);
      } else if (message.method === 'notifications/initialized') {
        let frames = '';
        for (let i = 0; i < PINGS; i++)
          frames += `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: `p${i}`, method: 'ping' })}\n\n`;
        stream?.write(frames);
      }
    });
  });
  server.on('connection', (socket: Socket) => {
    counts.open++;
    counts.peak = Math.max(counts.peak, counts.open);
    socket.once('close', () => void counts.open--);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  cleanups.push(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));
  return { url: `http://127.0.0.1:${port}/sse`, counts };
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (m: string): void => void lines.push(m);
  return { lines, debug: push, info: push, warn: push, error: push };
}

describe.each(['undici', 'node'] as const)('over %s', (httpClient) => {
  it('a server flooding its stream with requests and slow to accept the answers: sockets stay bounded, overflow is dropped and counted, calls still succeed', async () => {
    const server = await floodingServer();
    const logger = recordingLogger();
    const engine = new JsonRpcEngine(
      new SseTransport({ url: server.url, httpClient, logger, deprecationNotice: false }),
      { logger, requestTimeout: 10_000 },
    );
    cleanups.push(() => engine.close());
    engine.setRequestHandler('ping', () => ({}));
    await engine.start();
    await engine.request('initialize', {
      protocolVersion: '2024-11-05',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    });
    await engine.notify('notifications/initialized');
    await expect(engine.request('tools/list', {})).resolves.toEqual({});
    const dropped = (): number => {
      let n = 0;
      for (const line of logger.lines) {
        const m = /dropped (\d+) (?:more )?repl/.exec(line);
        if (m !== null) n += Number(m[1]);
      }
      return n;
    };
    await expect.poll(() => server.counts.replies + dropped(), { timeout: 20_000 }).toBe(PINGS);
    expect(server.counts.replies).toBeGreaterThan(0);
    // Before: one socket per answer, all at once. Now: 4 answers at a time, the stream, our own calls.
    expect(server.counts.peak).toBeLessThanOrEqual(12);
  });
});
