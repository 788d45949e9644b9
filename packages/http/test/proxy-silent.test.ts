// Proxies that accept and then say nothing (or open a tunnel and stall): every wait is bounded.
//
// The abort reaches the proxy step, and close() returns at once with no connection left, on undici and on Node's
// client.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient, type HttpClient } from '@mcpc/http';

/** `silent`: takes the connection, reads, never answers. `stall`: answers CONNECT with 200, then nothing. */
interface Hostile {
  readonly url: string;
  open(): Promise<number>;
  close(): Promise<void>;
}

function hostileProxy(mode: 'silent' | 'stall'): Promise<Hostile> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.on('data', (data) => {
      if (mode === 'stall' && data.toString('latin1').startsWith('CONNECT '))
        socket.write('HTTP/1.1 200 Connection established\r\n\r\n');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}`,
        open: () => new Promise((r) => server.getConnections((_, n) => r(n))),
        close: () =>
          new Promise((r) => {
            for (const s of sockets) s.destroy();
            server.close(() => r());
          }),
      });
    }),
  );
}

const saved = { ...process.env };
let silent: Hostile;
let stall: Hostile;
const clients: HttpClient[] = [];

beforeAll(async () => {
  [silent, stall] = await Promise.all([hostileProxy('silent'), hostileProxy('stall')]);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  process.env = { ...saved };
});
afterAll(async () => {
  await Promise.all([silent.close(), stall.close()]);
});

/** A client whose proxy is `proxy` (undici's agent reads process.env, Node's the env it is given). */
function through(proxy: Hostile, choice: 'undici' | 'node', connectTimeout: number): HttpClient {
  for (const key of ['NO_PROXY', 'no_proxy', 'ALL_PROXY', 'all_proxy']) delete process.env[key];
  process.env.HTTP_PROXY = proxy.url;
  process.env.HTTPS_PROXY = proxy.url;
  const client = createHttpClient({ choice, env: process.env, connectTimeout });
  clients.push(client);
  return client;
}

/** How long a request took to fail, and with what. */
async function attempt(
  client: HttpClient,
  url: string,
  { abortAfter, headersTimeout }: { abortAfter?: number; headersTimeout: number },
): Promise<{ ms: number; error: { code?: unknown; message: string } }> {
  const controller = new AbortController();
  const timer =
    abortAfter === undefined ? undefined : setTimeout(() => controller.abort(new Error('gave up')), abortAfter);
  const started = performance.now();
  try {
    const response = await client.request({
      url: new URL(url),
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      signal: controller.signal,
      headersTimeout,
      bodyTimeout: headersTimeout,
    });
    response.body.destroy();
    throw new Error(`answered ${response.statusCode}`);
  } catch (error) {
    return { ms: performance.now() - started, error: error as { code?: unknown; message: string } };
  } finally {
    clearTimeout(timer);
  }
}

// http: targets go through the proxy as plain requests, https: ones through a CONNECT tunnel.
const CASES = [
  { proxy: 'silent', target: 'http://127.0.0.1:9/mcp' },
  { proxy: 'silent', target: 'https://127.0.0.1:9/mcp' },
  { proxy: 'stall', target: 'https://127.0.0.1:9/mcp' },
] as const;

describe.each(['undici', 'node'] as const)('a proxy that stops answering, on %s', (choice) => {
  for (const { proxy, target } of CASES) {
    it(`${proxy} proxy, ${target.slice(0, 5)}: the abort ends the request at once, close() leaves no connection`, async () => {
      const hostile = proxy === 'silent' ? silent : stall;
      const client = through(hostile, choice, 30_000);
      const { ms, error } = await attempt(client, target, { abortAfter: 500, headersTimeout: 60_000 });
      // undici rejects with the abort's reason, Node's client with its own AbortError.
      expect(error.message === 'gave up' || error.code === 'ABORT_ERR', error.message).toBe(true);
      expect(ms).toBeLessThan(5_000);
      const closing = performance.now();
      await client.close();
      expect(performance.now() - closing).toBeLessThan(5_000);
      await expect.poll(() => hostile.open(), { timeout: 5_000 }).toBe(0);
    }, 20_000);

    it(`${proxy} proxy, ${target.slice(0, 5)}: without an abort, the connect and headers bounds end it`, async () => {
      const hostile = proxy === 'silent' ? silent : stall;
      const client = through(hostile, choice, 1_000);
      const { ms, error } = await attempt(client, target, { headersTimeout: 1_000 });
      expect(String(error.code)).toMatch(/TIMEOUT/);
      // The connect bound (1 s) and the headers bound (1 s) at most, never undici's own 10 s or 300 s.
      expect(ms).toBeLessThan(5_000);
    }, 20_000);
  }
});
