// The client over Streamable HTTP and the deprecated HTTP+SSE transport, against server-everything.
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  ConnectionError,
  connect,
  sse,
  streamableHttp,
  textOf,
  type ElicitationHandler,
  type SamplingHandler,
} from '@mcpc/client';
import { getJson, startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { recordingLogger } from './helpers.js';

const clientInfo = { name: 'mcpc-http-test', version: '0.0.0' };
const onSampling: SamplingHandler = async () => ({
  role: 'assistant',
  model: 'test-model',
  content: { type: 'text', text: 'sampled over http' },
});
const onElicitation: ElicitationHandler = async () => ({ action: 'accept', content: { name: 'Ada' } });

async function loopback(
  handler: Parameters<typeof createServer>[1],
): Promise<{ url: string; server: HttpServer; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.headers.accept ?? ''}`);
    handler!(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, requests };
}

describe('the client over Streamable HTTP (server-everything)', () => {
  let everything: Fixture;
  let client: Client;
  beforeAll(async () => {
    everything = await startFixture('everything.mjs', ['streamableHttp']);
    client = await connect(everything.url, {
      clientInfo,
      onSampling,
      onElicitation,
      roots: [{ uri: 'file:///tmp', name: 'tmp' }],
      logger: recordingLogger(),
    });
  });
  afterAll(async () => {
    await client?.close();
    await everything?.stop();
  });

  it('detects Streamable HTTP from a /mcp URL and completes the handshake', () => {
    const server = client.server(client.servers[0]!.name);
    expect(server.transportKind).toBe('streamable-http');
    expect(server.protocolVersion).toBe('2025-11-25');
  });

  it('lists and calls tools, with progress', async () => {
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('echo');
    expect(textOf(await client.callTool('echo', { message: 'over http' }))).toContain('over http');
    const progress: number[] = [];
    await client.callTool(
      'trigger-long-running-operation',
      { duration: 0.2, steps: 2 },
      { onProgress: (p) => progress.push(p.progress) },
    );
    expect(progress.length).toBeGreaterThanOrEqual(2);
  });

  it('reads prompts and resources', async () => {
    const prompts = await client.listPrompts();
    expect(prompts.length).toBeGreaterThan(0);
    const resources = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const contents = await client.readResource(resources[0]!.uri);
    expect(contents.length).toBeGreaterThan(0);
  });

  it("answers the server's sampling and elicitation requests", async () => {
    const tools = (await client.listTools()).map((t) => t.name);
    const sampling = tools.find((n) => n.includes('sampling'))!;
    const elicitation = tools.find((n) => n.includes('elicitation'))!;
    expect(JSON.stringify(await client.callTool(sampling, { prompt: 'hi', maxTokens: 10 }))).toContain(
      'sampled over http',
    );
    expect(JSON.stringify(await client.callTool(elicitation, {}))).toContain('Ada');
  });
});

describe('the client over the deprecated HTTP+SSE transport', () => {
  let server: Fixture;
  beforeAll(async () => {
    server = await startFixture('sdk-sse-server.mjs');
  });
  afterAll(() => server?.stop());

  it('detects it from a /sse URL, works, and gives its deprecation notice once', async () => {
    const logger = recordingLogger();
    await using client = await connect(server.url, { clientInfo, onSampling, logger });
    const only = client.server(client.servers[0]!.name);
    expect(only.transportKind).toBe('sse');
    expect(textOf(await client.callTool('echo', { message: 'legacy' }))).toBe('Echo: legacy');
    expect(textOf(await client.callTool('ask_sampling', {}))).toContain('sampled over http');
    expect(logger.text('warn')).toMatch(/HTTP\+SSE/);
  });

  it('an sse() config works the same', async () => {
    await using client = new Client({
      servers: [sse({ name: 'old', url: server.url })],
      clientInfo,
      logger: recordingLogger(),
    });
    await client.connect();
    expect(textOf(await client.callTool('echo', { message: 'x' }))).toBe('Echo: x');
  });
});

describe('transport detection for other URLs', () => {
  let streamable: Fixture;
  let legacy: Fixture;
  beforeAll(async () => {
    [streamable, legacy] = await Promise.all([
      startFixture('sdk-server.mjs', ['--mode', 'session', '--path', '/api/v1']),
      startFixture('sdk-sse-server.mjs', ['--path', '/events']),
    ]);
  });
  afterAll(async () => {
    await Promise.all([streamable?.stop(), legacy?.stop()]);
  });

  it('tries Streamable HTTP first', async () => {
    await using client = await connect(streamable.url, { clientInfo, logger: recordingLogger() });
    expect(client.servers[0]!.transportKind).toBe('streamable-http');
  });

  it('falls back to HTTP+SSE when the server does not speak Streamable HTTP', async () => {
    await using client = await connect(legacy.url, { clientInfo, logger: recordingLogger() });
    expect(client.servers[0]!.transportKind).toBe('sse');
    expect(textOf(await client.callTool('echo', { message: 'detected' }))).toBe('Echo: detected');
  });

  it('falls back to plain HTTP last', async () => {
    // A JSON-only JSON-RPC server: refuses SSE in Accept and has no GET stream.
    const plain = await loopback((req, res) => {
      if (req.method !== 'POST' || String(req.headers.accept).includes('text/event-stream')) {
        res.writeHead(406);
        return res.end();
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const m = JSON.parse(Buffer.concat(chunks).toString()) as { id?: number; method: string };
        if (m.id === undefined) {
          res.writeHead(202);
          return res.end();
        }
        const result =
          m.method === 'initialize'
            ? {
                protocolVersion: '2025-06-18',
                capabilities: { tools: {} },
                serverInfo: { name: 'plain', version: '1' },
              }
            : m.method === 'tools/list'
              ? { tools: [{ name: 'hello', inputSchema: { type: 'object' } }] }
              : { content: [{ type: 'text', text: 'hello back' }] };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }));
      });
    });
    try {
      await using client = await connect(`${plain.url}/rpc`, { clientInfo, logger: recordingLogger() });
      expect(client.servers[0]!.transportKind).toBe('http');
      expect(textOf(await client.callTool('hello', {}))).toBe('hello back');
      expect(plain.requests[0]).toMatch(/^POST application\/json, text\/event-stream/);
      expect(plain.requests.some((r) => r.startsWith('GET text/event-stream'))).toBe(true);
    } finally {
      plain.server.closeAllConnections();
      plain.server.close();
    }
  });

  it('an auth wall is not mistaken for an older transport: 401 ends the attempt', async () => {
    const wall = await loopback((_req, res) => {
      res.writeHead(401, { 'www-authenticate': 'Bearer realm="mcp"' });
      res.end();
    });
    try {
      const error = await connect(`${wall.url}/api`, { clientInfo, logger: recordingLogger() }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ConnectionError);
      expect(JSON.stringify(causes(error))).toContain('MCPC_UNAUTHORIZED');
      expect(wall.requests.every((r) => r.startsWith('POST'))).toBe(true);
    } finally {
      wall.server.close();
    }
  });

  it('an outage is not mistaken for an older transport: 503 and a refused connection end the attempt', async () => {
    const down = await loopback((_req, res) => {
      res.writeHead(503);
      res.end();
    });
    try {
      const error = await connect(`${down.url}/api`, { clientInfo, retries: 0, logger: recordingLogger() }).catch(
        (e: unknown) => e,
      );
      expect(JSON.stringify(causes(error))).toContain('MCPC_TRANSIENT_SERVER_ERROR');
      expect(down.requests.every((r) => r.startsWith('POST'))).toBe(true);
    } finally {
      down.server.close();
    }
    const refused = await connect('http://127.0.0.1:9/api', {
      clientInfo,
      retries: 0,
      logger: recordingLogger(),
    }).catch((e: unknown) => e);
    expect(JSON.stringify(causes(refused))).toContain('MCPC_NETWORK_ERROR');
  });

  it('retries idempotent requests through the transport and never a tools/call', async () => {
    const server = await startFixture('sdk-server.mjs', ['--mode', 'session']);
    try {
      // Validation off: it would fetch tools/list before the first call, and this counts requests.
      await using client = new Client({
        servers: [streamableHttp({ name: 's', url: server.url, retries: 2 })],
        clientInfo,
        logger: recordingLogger(),
        validateStructuredContent: 'off',
      });
      await client.connect();
      await client.callTool('expire_session', {});
      // The expired session is renewed and the list re-sent; the call after it is not re-sent.
      expect((await client.listTools()).length).toBeGreaterThan(0);
      await client.callTool('expire_session', {});
      await expect(client.callTool('echo', { message: 'once' })).rejects.toMatchObject({
        code: 'MCPC_SESSION_EXPIRED',
      });
      const stats = await getJson<{ requests: Record<string, number> }>(new URL('/_stats', server.url));
      expect(stats.requests['initialize']).toBe(3);
    } finally {
      await server.stop();
    }
  });
});

function causes(error: unknown): { code?: unknown; message?: unknown }[] {
  const chain: { code?: unknown; message?: unknown }[] = [];
  for (let e: unknown = error; e instanceof Error && chain.length < 8; e = e.cause)
    chain.push({ code: (e as { code?: unknown }).code, message: e.message });
  return chain;
}
