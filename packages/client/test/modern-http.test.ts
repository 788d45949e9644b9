// Modern servers over Streamable HTTP: per-request headers, no session, and era detection over HTTP.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client, ConnectionError, UnsupportedProtocolVersionError, streamableHttp, textOf } from '@mcpc/client';
import { getJson, startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { MODERN_SDK_SERVER, recordingLogger } from './helpers.js';

interface Stats {
  methods: Record<string, number>;
  headers: { method: string; headers: Record<string, string> }[];
}

describe('a modern server over Streamable HTTP (SDK v2)', () => {
  let server: Fixture;
  let client: Client;
  beforeAll(async () => {
    server = await startFixture(MODERN_SDK_SERVER, ['http']);
    client = new Client({
      servers: [streamableHttp({ name: 'm', url: server.url, headers: { 'Mcp-Param-Region': 'forged' } })],
      logger: recordingLogger(),
    });
    await client.connect();
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });
  const stats = (): Promise<Stats> => getJson(new URL('/_stats', server.url)) as Promise<Stats>;

  it('is detected as modern, and every POST carries MCP-Protocol-Version and Mcp-Method, with Mcp-Name where the method names something', async () => {
    expect(client.server('m').protocolEra).toBe('modern');
    await client.callTool('add', { a: 1, b: 2 });
    await client.readResource('config://app', { server: 'm' });
    await client.getPrompt('greet', { name: 'x' }, { server: 'm' });
    const seen = (await stats()).headers;
    for (const { method, headers } of seen) {
      expect(headers['mcp-protocol-version']).toBe('2026-07-28');
      expect(headers['mcp-method']).toBe(method);
      expect(headers['mcp-session-id']).toBeUndefined();
    }
    const name = (method: string): string | undefined => seen.find((s) => s.method === method)?.headers['mcp-name'];
    expect(name('tools/call')).toBe('add');
    expect(name('resources/read')).toBe('config://app');
    expect(name('prompts/get')).toBe('greet');
    expect(name('tools/list')).toBeUndefined();
    expect(seen.some((s) => s.headers['mcp-param-region'] === 'forged')).toBe(false);
  });

  it('no initialize, no GET stream, and a cancelled call sends no notifications/cancelled', async () => {
    const controller = new AbortController();
    const call = client.callTool('slow', { ms: 3000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(call).rejects.toMatchObject({ code: 'ABORT_ERR' });
    await new Promise((r) => setTimeout(r, 100));
    const { methods } = await stats();
    expect(methods.initialize).toBeUndefined();
    expect(methods['notifications/cancelled']).toBeUndefined();
    expect(textOf(await client.callTool('add', { a: 1, b: 1 }))).toBe('2');
  });
});

// A loopback server that answers the probe as the test says, and the classic handshake like a 2025 server.
async function probeServer(discover: (req: IncomingMessage, res: ServerResponse, id: unknown) => void) {
  const methods: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
      methods.push(body?.method ?? req.method);
      if (body?.method === 'server/discover') return discover(req, res, body.id);
      if (body?.method === 'initialize') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: body.id,
            result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'classic', version: '1' } },
          }),
        );
      }
      if (req.method === 'GET') {
        res.writeHead(405);
        return res.end();
      }
      res.writeHead(202);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return { url, methods, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function attempt(discover: Parameters<typeof probeServer>[0]) {
  const peer = await probeServer(discover);
  closers.push(peer.close);
  const client = new Client({
    servers: [streamableHttp({ name: 'p', url: peer.url, retries: 0 })],
    logger: recordingLogger(),
  });
  closers.unshift(() => client.close());
  const error = await client.connect().then(
    () => undefined,
    (e: unknown) => e,
  );
  return { client, error, methods: peer.methods };
}

const reply = (res: ServerResponse, status: number, body?: unknown): void => {
  res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
  res.end(body === undefined ? undefined : JSON.stringify(body));
};

describe('a minimal modern HTTP server', () => {
  it('results without resultType count as complete; after an auth failure the stale copy is never served', async () => {
    let refuse = false;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (refuse) return reply(res, 401);
        if (body.method === 'server/discover')
          return reply(res, 200, {
            jsonrpc: '2.0',
            id: body.id,
            result: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } },
          });
        if (body.method === 'tools/list')
          return reply(res, 200, {
            jsonrpc: '2.0',
            id: body.id,
            result: { tools: [{ name: 't', inputSchema: { type: 'object' } }], ttlMs: 100, cacheScope: 'public' },
          });
        reply(res, 200, { jsonrpc: '2.0', id: body.id, result: { content: [{ type: 'text', text: 'ok' }] } });
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const client = new Client({ servers: [streamableHttp({ name: 'm', url, retries: 0 })], logger: recordingLogger() });
    try {
      expect(textOf(await client.callTool('t'))).toBe('ok');
      expect(client.server('m').protocolEra).toBe('modern');
      expect((await client.listTools()).map((t) => t.name)).toEqual(['t']);
      refuse = true;
      await new Promise((r) => setTimeout(r, 150));
      await expect(client.listTools()).rejects.toMatchObject({ code: 'MCPC_UNAUTHORIZED' });
    } finally {
      await client.close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('era detection over HTTP', () => {
  it.each([
    ['a 400 with no body', (res: ServerResponse) => reply(res, 400)],
    ['a 404 with no body', (res: ServerResponse) => reply(res, 404)],
    ['a 405', (res: ServerResponse) => reply(res, 405)],
    [
      'a 400 whose body is a classic JSON-RPC error',
      (res: ServerResponse) =>
        reply(res, 400, {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32000, message: 'Bad Request: Server not initialized' },
        }),
    ],
    [
      'method not found',
      (res: ServerResponse, id: unknown) =>
        reply(res, 200, { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } }),
    ],
    [
      'a result that is no discovery result',
      (res: ServerResponse, id: unknown) => reply(res, 200, { jsonrpc: '2.0', id, result: {} }),
    ],
  ])('falls back to initialize on %s', async (_what, answer) => {
    const { client, error, methods } = await attempt((_req, res, id) => answer(res, id));
    expect(error).toBeUndefined();
    expect(methods.slice(0, 2)).toEqual(['server/discover', 'initialize']);
    expect(client.server('p').protocolEra).toBe('legacy');
  });

  it.each([
    ['an auth wall (401)', (res: ServerResponse) => reply(res, 401)],
    ['a 403', (res: ServerResponse) => reply(res, 403)],
    ['a 5xx', (res: ServerResponse) => reply(res, 503)],
    [
      'a modern error (-32021) in a 400',
      (res: ServerResponse, id: unknown) =>
        reply(res, 400, { jsonrpc: '2.0', id, error: { code: -32021, message: 'Missing capability' } }),
    ],
  ])('never falls back on %s', async (_what, answer) => {
    const { error, methods } = await attempt((_req, res, id) => answer(res, id));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(methods).not.toContain('initialize');
  });

  it('never falls back on a timeout over HTTP', async () => {
    const peer = await probeServer(() => {});
    closers.push(peer.close);
    const client = new Client({
      servers: [streamableHttp({ name: 'p', url: peer.url, retries: 0, discoverTimeout: 300 })],
      logger: recordingLogger(),
    });
    try {
      const error = await client.connect().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionError);
      expect(peer.methods).toEqual(['server/discover']);
    } finally {
      await client.close();
    }
  });

  it('never falls back on an outage', async () => {
    const client = new Client({
      servers: [streamableHttp({ name: 'down', url: 'http://127.0.0.1:9/mcp', retries: 0 })],
      logger: recordingLogger(),
    });
    try {
      const error = await client.connect().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as Error).message).toContain('server/discover');
    } finally {
      await client.close();
    }
  });

  it('-32022 naming only revisions this client does not speak disconnects with UnsupportedProtocolVersionError', async () => {
    const { error, methods } = await attempt((_req, res, id) =>
      reply(res, 400, {
        jsonrpc: '2.0',
        id,
        error: {
          code: -32022,
          message: 'Unsupported protocol version',
          data: { supported: ['2099-01-01'], requested: '2026-07-28' },
        },
      }),
    );
    expect(error).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect((error as UnsupportedProtocolVersionError).serverSupported).toEqual(['2099-01-01']);
    expect(methods).toEqual(['server/discover']);
  });

  it('-32022 naming a revision this client speaks is retried once with it, not taken as a classic server', async () => {
    let n = 0;
    const { client, error, methods } = await attempt((_req, res, id) =>
      n++ === 0
        ? reply(res, 400, {
            jsonrpc: '2.0',
            id,
            error: {
              code: -32022,
              message: 'Unsupported protocol version',
              data: { supported: ['2026-07-28'], requested: '2026-07-28' },
            },
          })
        : reply(res, 200, {
            jsonrpc: '2.0',
            id,
            result: {
              resultType: 'complete',
              supportedVersions: ['2026-07-28'],
              capabilities: {},
              ttlMs: 0,
              cacheScope: 'public',
            },
          }),
    );
    expect(error).toBeUndefined();
    expect(methods).toEqual(['server/discover', 'server/discover']);
    expect(client.server('p').protocolEra).toBe('modern');
  });

  it('a discovery result listing only revisions this client does not speak disconnects with UnsupportedProtocolVersionError', async () => {
    const { error } = await attempt((_req, res, id) =>
      reply(res, 200, {
        jsonrpc: '2.0',
        id,
        result: { resultType: 'complete', supportedVersions: ['2099-01-01'], capabilities: {} },
      }),
    );
    expect(error).toBeInstanceOf(UnsupportedProtocolVersionError);
  });
});
