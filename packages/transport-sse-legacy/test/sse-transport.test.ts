// HTTP+SSE over undici and node:http: the endpoint event, POSTs, answers from the stream, dropped streams.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionClosedError, JsonRpcEngine, type JsonRpcMessage, type Logger } from '@mcpc/jsonrpc';
import {
  EndpointOriginError,
  EndpointTimeoutError,
  HttpError,
  ResponseStreamClosedError,
  SseTransport,
  type SseTransportOptions,
} from '@mcpc/transport-sse-legacy';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Behaviour {
  /** What the endpoint event says (default: /messages?sessionId=<n>). */
  endpoint?: (session: number) => string | undefined;
  /** Answers a POSTed request; undefined sends nothing back. */
  answer?: (message: JsonRpcMessage, session: number) => unknown;
  getStatus?: number;
}

/** A scripted HTTP+SSE server on 127.0.0.1: one stream per GET, answers written to the stream. */
async function sseServer(behaviour: Behaviour = {}) {
  const streams = new Map<number, ServerResponse>();
  const posts: { session: number; message: JsonRpcMessage; headers: Record<string, unknown> }[] = [];
  let sessions = 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/sse') {
      if (behaviour.getStatus !== undefined) {
        res.writeHead(behaviour.getStatus);
        return res.end();
      }
      const session = ++sessions;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      streams.set(session, res);
      const endpoint = (behaviour.endpoint ?? ((s) => `/messages?sessionId=${s}`))(session);
      if (endpoint !== undefined) res.write(`event: endpoint\ndata: ${endpoint}\n\n`);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const session = Number(url.searchParams.get('sessionId'));
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const message = JSON.parse(Buffer.concat(chunks).toString()) as JsonRpcMessage;
        posts.push({ session, message, headers: req.headers });
        const stream = streams.get(session);
        if (stream === undefined) {
          res.writeHead(404);
          return res.end();
        }
        res.writeHead(202);
        res.end('Accepted');
        if ('method' in message && 'id' in message) {
          const answer = (
            behaviour.answer ?? ((m) => ({ jsonrpc: '2.0', id: (m as { id: unknown }).id, result: { session } }))
          )(message, session);
          if (answer !== undefined) stream.write(`event: message\ndata: ${JSON.stringify(answer)}\n\n`);
        }
      });
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  cleanups.push(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));
  return {
    url: `http://127.0.0.1:${port}/sse`,
    port,
    streams,
    posts,
    drop: (s: number) => streams.get(s)?.socket?.destroy(),
  };
}

function quietLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (m: string): void => void lines.push(m);
  return { lines, debug: push, info: push, warn: push, error: push };
}

async function connect(url: string, options: Partial<SseTransportOptions> = {}) {
  const logger = quietLogger();
  const transport = new SseTransport({
    httpClient: underTest,
    url,
    logger,
    reconnectDelay: { initialMs: 10, maxMs: 50 },
    endpointTimeoutMs: 1000,
    ...options,
  });
  const engine = new JsonRpcEngine(transport, { logger, requestTimeout: 5000 });
  cleanups.push(() => engine.close());
  await engine.start();
  return { engine, logger };
}

// Both HTTP clients (undici, and Node's own when undici is not installed) must behave the same.
let underTest: 'undici' | 'node' = 'undici';
describe.each(['undici', 'node'] as const)('over %s', (client) => {
  beforeAll(() => {
    underTest = client;
  });

  describe('HTTP+SSE', () => {
    it('waits for the endpoint event, POSTs there, and reads answers from the stream', async () => {
      const server = await sseServer();
      const { engine, logger } = await connect(server.url, { headers: { authorization: 'Bearer t' } });
      await expect(engine.request('initialize', {})).resolves.toEqual({ session: 1 });
      await engine.notify('notifications/initialized');
      await expect(engine.request('tools/list')).resolves.toEqual({ session: 1 });
      expect(server.posts.map((p) => ('method' in p.message ? p.message.method : 'reply'))).toEqual([
        'initialize',
        'notifications/initialized',
        'tools/list',
      ]);
      expect(server.posts[0]!.headers.authorization).toBe('Bearer t');
      // The notice is given once per process: by the first suite's first transport.
      expect(logger.lines.some((l) => l.includes('deprecated'))).toBe(client === 'undici');
    });

    it('refuses an endpoint on another origin, so credentials never reach another host', async () => {
      const other = await sseServer();
      const server = await sseServer({ endpoint: () => `http://127.0.0.1:${other.port}/messages?sessionId=1` });
      const transport = new SseTransport({
        httpClient: underTest,
        url: server.url,
        headers: { authorization: 'Bearer secret' },
        logger: quietLogger(),
      });
      await expect(transport.start({ message() {}, error() {}, close() {} })).rejects.toBeInstanceOf(
        EndpointOriginError,
      );
      expect(other.posts).toHaveLength(0);
    });

    it('a stream without an endpoint event fails start with EndpointTimeoutError', async () => {
      const server = await sseServer({ endpoint: () => undefined });
      const transport = new SseTransport({
        httpClient: underTest,
        url: server.url,
        endpointTimeoutMs: 100,
        logger: quietLogger(),
      });
      await expect(transport.start({ message() {}, error() {}, close() {} })).rejects.toBeInstanceOf(
        EndpointTimeoutError,
      );
    });

    it('a URL that is not an SSE endpoint fails start with an HttpError carrying the status', async () => {
      const server = await sseServer({ getStatus: 405 });
      const transport = new SseTransport({ httpClient: underTest, url: server.url, logger: quietLogger() });
      await expect(transport.start({ message() {}, error() {}, close() {} })).rejects.toMatchObject({ status: 405 });
      await expect(
        new SseTransport({ httpClient: underTest, url: server.url }).start({ message() {}, error() {}, close() {} }),
      ).rejects.toBeInstanceOf(HttpError);
    });

    it('a dropped stream fails the waiting request, re-opens, and replays initialize on the new session', async () => {
      const server = await sseServer({
        answer: (m, session) =>
          'method' in m && m.method === 'tools/call'
            ? undefined
            : { jsonrpc: '2.0', id: (m as { id: unknown }).id, result: { session } },
      });
      const { engine } = await connect(server.url);
      await engine.request('initialize', { protocolVersion: '2024-11-05' });
      await engine.notify('notifications/initialized');
      const waiting = engine.request('tools/call', { name: 'slow' });
      await expect.poll(() => server.posts.length).toBe(3);
      server.drop(1);
      const e = await waiting.catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ResponseStreamClosedError);
      await expect(engine.request('tools/list')).resolves.toEqual({ session: 2 });
      const second = server.posts
        .filter((p) => p.session === 2)
        .map((p) => ('method' in p.message ? p.message.method : 'reply'));
      expect(second).toEqual(['initialize', 'notifications/initialized', 'tools/list']);
      expect(server.posts.filter((p) => 'method' in p.message && p.message.method === 'tools/call')).toHaveLength(1);
    });

    it('a stream that goes silent is probed with ping and re-opened when the ping is not answered', async () => {
      let silent = false;
      const server = await sseServer({
        answer: (m, session) =>
          silent ? undefined : { jsonrpc: '2.0', id: (m as { id: unknown }).id, result: { session } },
      });
      const { engine } = await connect(server.url, { pingIntervalMs: 150 });
      await engine.request('initialize', {});
      await engine.notify('notifications/initialized');
      silent = true;
      await expect.poll(() => server.streams.size, { timeout: 3000 }).toBeGreaterThanOrEqual(2);
      expect(server.posts.some((p) => 'method' in p.message && p.message.method === 'ping')).toBe(true);
      silent = false;
      // Once the server answers again, the stream settles: pings are answered and requests go through. Settled is
      // a second (near seven ping intervals) with no new stream; a ping sent while silent may still time out first.
      let settled = -1;
      for (const deadline = Date.now() + 15_000; settled !== server.streams.size && Date.now() < deadline;) {
        settled = server.streams.size;
        await new Promise((r) => setTimeout(r, 1_000));
      }
      await expect(engine.request('tools/list')).resolves.toMatchObject({ session: settled });
    });

    it('an SSE event that never ends fails the stream within the buffer cap', async () => {
      const server = await sseServer({ answer: () => undefined });
      const { engine } = await connect(server.url, { maxSseEventBytes: 64 * 1024, maxReconnectAttempts: 1 });
      const closed = new Promise<Error | undefined>((resolve) => engine.onClose(resolve));
      const waiting = engine.request('tools/list', {}, { timeout: 0 });
      await expect.poll(() => server.posts.length).toBe(1);
      const stream = server.streams.get(1)!;
      stream.write('data: ');
      for (let i = 0; i < 20; i++) stream.write('x'.repeat(8 * 1024));
      const e = await waiting.catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ResponseStreamClosedError);
      expect((e as Error).message).toMatch(/exceeded/);
      void closed;
    });

    it('after close, sends reject with ConnectionClosedError', async () => {
      const server = await sseServer();
      const { engine } = await connect(server.url);
      await engine.close();
      await expect(engine.request('ping')).rejects.toBeInstanceOf(ConnectionClosedError);
    });

    it("a POST carries the message's _meta trace context as headers too, and never a value that splits a line", async () => {
      const server = await sseServer();
      const { engine } = await connect(server.url);
      const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
      await engine.request('tools/call', { name: 'x', _meta: { traceparent, tracestate: 'r=1', baggage: 'k=v' } });
      await engine.request('tools/call', { name: 'x', _meta: { traceparent: `${traceparent}\r\nx-injected: 1` } });
      await engine.request('tools/list');
      const [traced, refused, plain] = server.posts.map((p) => p.headers);
      expect(traced).toMatchObject({ traceparent, tracestate: 'r=1', baggage: 'k=v' });
      expect([refused!.traceparent, refused!['x-injected'], plain!.traceparent]).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
    });
  });
});
