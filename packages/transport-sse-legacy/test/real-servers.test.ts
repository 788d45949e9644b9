// The legacy SSE transport against the SDK's HTTP+SSE server and server-everything.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcEngine, silentLogger } from '@mcpc/jsonrpc';
import { EndpointOriginError, SseTransport } from '@mcpc/transport-sse-legacy';
import { getJson, startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';

// Real peers: the official SDK's HTTP+SSE server, and server-everything in its SSE mode.

const engines: JsonRpcEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
});

async function open(url: string) {
  const engine = new JsonRpcEngine(new SseTransport({ url, logger: silentLogger }), {
    logger: silentLogger,
    requestTimeout: 15_000,
  });
  engines.push(engine);
  engine.setRequestHandler('sampling/createMessage', () => ({
    role: 'assistant',
    model: 'm',
    content: { type: 'text', text: 'sampled over SSE' },
  }));
  await engine.start();
  const init = (await engine.request('initialize', {
    protocolVersion: '2024-11-05',
    capabilities: { sampling: {} },
    clientInfo: { name: 'mcpc-test', version: '0.0.0' },
  })) as { protocolVersion: string; serverInfo: { name: string } };
  await engine.notify('notifications/initialized');
  return { engine, init };
}

const text = (r: unknown): string => (r as { content: { text: string }[] }).content[0]?.text ?? '';

describe('the SDK HTTP+SSE server', () => {
  let server: Fixture;
  let hostile: Fixture;
  beforeAll(async () => {
    [server, hostile] = await Promise.all([
      startFixture('sdk-sse-server.mjs'),
      startFixture('sdk-sse-server.mjs', ['--endpoint-origin', 'http://127.0.0.2:9']),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server.stop(), hostile.stop()]);
  });

  it('initializes, lists tools, calls one, routes progress and answers sampling', async () => {
    const { engine, init } = await open(server.url);
    expect(init.protocolVersion).toBe('2024-11-05');
    const { tools } = (await engine.request('tools/list')) as { tools: { name: string }[] };
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'slow', 'ask_sampling']));
    expect(text(await engine.request('tools/call', { name: 'echo', arguments: { message: 'sse' } }))).toBe('Echo: sse');
    const seen: number[] = [];
    await engine.request(
      'tools/call',
      { name: 'slow', arguments: { ms: 60, steps: 3 } },
      { onProgress: (p) => seen.push(p.progress) },
    );
    expect(seen).toEqual([1, 2, 3]);
    expect(text(await engine.request('tools/call', { name: 'ask_sampling', arguments: {} }))).toContain(
      'sampled over SSE',
    );
  });

  it('refuses a server whose endpoint event points at another origin, and sends it nothing', async () => {
    const transport = new SseTransport({
      url: hostile.url,
      headers: { authorization: 'Bearer secret' },
      logger: silentLogger,
    });
    await expect(transport.start({ message() {}, error() {}, close() {} })).rejects.toBeInstanceOf(EndpointOriginError);
    const stats = await getJson<{ posts: number }>(new URL('/_stats', hostile.url));
    expect(stats.posts).toBe(0);
  });
});

describe('server-everything over HTTP+SSE', () => {
  let server: Fixture;
  beforeAll(async () => {
    server = await startFixture('everything.mjs', ['sse']);
  });
  afterAll(() => server.stop());

  it('lists and calls its tools', async () => {
    const { engine } = await open(server.url);
    const { tools } = (await engine.request('tools/list')) as { tools: { name: string }[] };
    expect(tools.length).toBeGreaterThan(5);
    expect(text(await engine.request('tools/call', { name: 'echo', arguments: { message: 'legacy' } }))).toContain(
      'legacy',
    );
  });
});
