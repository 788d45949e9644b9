// connect() and close() through a proxy that accepts the connection and never answers, on undici and Node's client.
//
// The handshake timeout ends connect(), and close() returns at once; undici is installed here.
import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, streamableHttp } from '@mcpc/client';

let silent: ReturnType<typeof createServer>;
let proxyUrl: string;
const sockets = new Set<Socket>();
const saved = { ...process.env };

beforeAll(async () => {
  silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.resume();
  });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
  for (const key of ['NO_PROXY', 'no_proxy', 'ALL_PROXY', 'all_proxy']) delete process.env[key];
  process.env.HTTP_PROXY = proxyUrl;
  process.env.HTTPS_PROXY = proxyUrl;
});

afterAll(async () => {
  process.env = { ...saved };
  for (const s of sockets) s.destroy();
  await new Promise((r) => silent.close(r));
});

describe.each(['undici', 'node'] as const)('a silent proxy, on %s', (httpClient) => {
  it.each(['http', 'https'])(
    '%s: connect() fails at the handshake timeout and close() returns',
    async (scheme) => {
      const client = new Client({
        handshakeTimeout: 1_000,
        servers: [streamableHttp({ name: 's', url: `${scheme}://127.0.0.1:9/mcp`, httpClient, retries: 0 })],
      });
      const started = performance.now();
      await expect(client.connect()).rejects.toThrow();
      // Pending past 90 s before: the timeout and abort never reached undici's proxy step.
      expect(performance.now() - started).toBeLessThan(10_000);
      const closing = performance.now();
      await client.close();
      expect(performance.now() - closing).toBeLessThan(5_000);
      await expect.poll(() => sockets.size, { timeout: 5_000 }).toBe(0);
    },
    30_000,
  );
});
