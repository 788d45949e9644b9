// The Streamable HTTP transport against real servers: the SDK server in each mode, server-everything, proxies.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcEngine, type Progress } from '@mcpc/jsonrpc';
import {
  HttpClientUnavailableError,
  SessionExpiredError,
  StreamableHttpTransport,
  type StreamableHttpTransportOptions,
} from '@mcpc/transport-streamable-http';
import { getJson, startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { forEachHttpClient, httpClientUnderTest, recordingLogger } from './http-peer.js';

// Real peers: the official SDK's Streamable HTTP server in each of its modes, and server-everything.

const engines: JsonRpcEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
});

interface Stats {
  deletes: number;
  gets: number;
  resumes: number;
  requests: Record<string, number>;
  tools: Record<string, number>;
}

async function open(url: string, options: Partial<StreamableHttpTransportOptions> = {}, capabilities: object = {}) {
  const logger = recordingLogger();
  const transport = new StreamableHttpTransport({
    url,
    logger,
    httpClient: httpClientUnderTest(),
    reconnectDelay: { initialMs: 50, maxMs: 200 },
    minRetryIntervalMs: 20,
    ...options,
  });
  const engine = new JsonRpcEngine(transport, { logger, requestTimeout: 15_000 });
  engines.push(engine);
  engine.setRequestHandler('sampling/createMessage', () => ({
    role: 'assistant',
    model: 'test-model',
    content: { type: 'text', text: 'hello from mcpc' },
  }));
  engine.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///tmp/project', name: 'Project' }] }));
  await engine.start();
  const init = (await engine.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: { sampling: {}, roots: { listChanged: true }, ...capabilities },
    clientInfo: { name: 'mcpc-test', version: '0.0.0' },
  })) as { protocolVersion: string; serverInfo: { name: string } };
  await engine.notify('notifications/initialized');
  return { engine, transport, init, logger };
}

const text = (r: unknown): string => (r as { content: { text: string }[] }).content[0]?.text ?? '';
const call = (engine: JsonRpcEngine, name: string, args: object, options?: Parameters<JsonRpcEngine['request']>[2]) =>
  engine.request('tools/call', { name, arguments: args }, options);

forEachHttpClient(() => {
  describe('the SDK server, session mode', () => {
    let server: Fixture;
    beforeAll(async () => {
      server = await startFixture('sdk-server.mjs', ['--mode', 'session']);
    });
    afterAll(() => server.stop());
    const stats = () => getJson<Stats>(new URL('/_stats', server.url));

    it('initializes, lists and calls tools, and routes progress from the request stream', async () => {
      const { engine, transport, init, logger } = await open(server.url);
      expect(init.protocolVersion).toBe('2025-11-25');
      expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      const { tools } = (await engine.request('tools/list')) as { tools: { name: string }[] };
      expect(tools.map((t) => t.name)).toContain('echo');
      expect(text(await call(engine, 'echo', { message: 'hi' }))).toBe('Echo: hi');
      const seen: Progress[] = [];
      expect(text(await call(engine, 'slow', { ms: 60, steps: 3 }, { onProgress: (p) => seen.push(p) }))).toBe('done');
      expect(seen.map((p) => p.progress)).toEqual([1, 2, 3]);
      // A logger that reads debug lines gets each request's exchange.
      expect(logger.lines).toContainEqual(
        expect.stringMatching(/POST tools\/call id=\d+ → HTTP 200 text\/event-stream/),
      );
    });

    it("answers the server's sampling and roots requests made during a call", async () => {
      const { engine } = await open(server.url);
      expect(text(await call(engine, 'ask_sampling', { prompt: 'Say hi' }))).toContain('hello from mcpc');
      expect(text(await call(engine, 'ask_roots', {}))).toContain('file:///tmp/project');
    });

    it('receives messages unrelated to any request on the GET stream', async () => {
      const { engine } = await open(server.url);
      const got = new Promise<unknown>((resolve) =>
        engine.onNotification((m, p) => m === 'notifications/message' && resolve(p)),
      );
      await call(engine, 'notify_later', { ms: 100, message: 'from the GET stream' });
      await expect(got).resolves.toMatchObject({ data: 'from the GET stream' });
    });

    it('renews an expired session for idempotent requests and refuses to re-send a tools/call', async () => {
      const { engine, transport } = await open(server.url);
      const first = transport.sessionId;
      await call(engine, 'expire_session', {});
      await expect(engine.request('tools/list', {}, { send: { retryable: true } })).resolves.toMatchObject({
        tools: expect.any(Array),
      });
      expect(transport.sessionId).not.toBe(first);
      await call(engine, 'expire_session', {});
      const before = (await stats()).requests['tools/call'] ?? 0;
      await expect(call(engine, 'echo', { message: 'once' })).rejects.toBeInstanceOf(SessionExpiredError);
      // The one POST that met the 404, and no second one.
      expect((await stats()).requests['tools/call']).toBe(before + 1);
      expect(text(await call(engine, 'echo', { message: 'after' }))).toBe('Echo: after');
    });

    it('DELETEs the session on close', async () => {
      const before = (await stats()).deletes;
      const { engine } = await open(server.url);
      await engine.close();
      expect((await stats()).deletes).toBe(before + 1);
    });
  });

  describe('the SDK server with resumable streams', () => {
    let server: Fixture;
    beforeAll(async () => {
      server = await startFixture('sdk-server.mjs', ['--mode', 'session', '--resumable', '--retry', '50']);
    });
    afterAll(() => server.stop());

    it('resumes a response stream the server drops mid-call, without calling the tool twice', async () => {
      const { engine } = await open(server.url);
      const seen: number[] = [];
      const result = await call(
        engine,
        'slow',
        { ms: 150, steps: 3, dropAfter: 1 },
        { onProgress: (p) => seen.push(p.progress) },
      );
      expect(text(result)).toBe('done (stream was dropped)');
      expect(seen).toEqual([1, 2, 3]);
      const stats = await getJson<Stats>(new URL('/_stats', server.url));
      expect(stats.tools.slow).toBe(1);
      expect(stats.resumes).toBeGreaterThanOrEqual(1);
    });
  });

  describe('the SDK server, stateless and JSON modes', () => {
    let stateless: Fixture;
    let jsonMode: Fixture;
    beforeAll(async () => {
      [stateless, jsonMode] = await Promise.all([
        startFixture('sdk-server.mjs', ['--mode', 'stateless']),
        startFixture('sdk-server.mjs', ['--mode', 'json']),
      ]);
    });
    afterAll(async () => {
      await Promise.all([stateless.stop(), jsonMode.stop()]);
    });

    it('stateless: no session, calls work, the GET stream is declined (405) and not retried', async () => {
      const { engine, transport } = await open(stateless.url);
      expect(transport.sessionId).toBeUndefined();
      expect(text(await call(engine, 'echo', { message: 'x' }))).toBe('Echo: x');
      expect(text(await call(engine, 'ask_sampling', {}))).toContain('hello from mcpc');
      await new Promise((r) => setTimeout(r, 300));
      expect((await getJson<Stats>(new URL('/_stats', stateless.url))).gets).toBe(1);
    });

    it('JSON responses: answers as application/json, server messages over the GET stream', async () => {
      const { engine } = await open(jsonMode.url);
      expect(text(await call(engine, 'echo', { message: 'json' }))).toBe('Echo: json');
      await expect
        .poll(async () => (await getJson<{ openGets: number }>(new URL('/_stats', jsonMode.url))).openGets)
        .toBe(1);
      const seen: number[] = [];
      expect(text(await call(engine, 'slow', { ms: 60, steps: 2 }, { onProgress: (p) => seen.push(p.progress) }))).toBe(
        'done',
      );
      expect(seen).toEqual([1, 2]);
    });
  });

  describe('server-everything over Streamable HTTP', () => {
    let server: Fixture;
    beforeAll(async () => {
      server = await startFixture('everything.mjs', ['streamableHttp']);
    });
    afterAll(() => server.stop());

    it('lists and calls its tools', async () => {
      const { engine, init } = await open(server.url);
      expect(init.serverInfo.name).toContain('everything');
      const { tools } = (await engine.request('tools/list')) as { tools: { name: string }[] };
      expect(tools.length).toBeGreaterThan(5);
      expect(text(await call(engine, 'echo', { message: 'everything' }))).toContain('everything');
    });
  });
});

describe('proxies', () => {
  let proxy: Fixture;
  let server: Fixture;
  const saved = {
    HTTP_PROXY: process.env.HTTP_PROXY,
    HTTPS_PROXY: process.env.HTTPS_PROXY,
    NO_PROXY: process.env.NO_PROXY,
    http_proxy: process.env.http_proxy,
    https_proxy: process.env.https_proxy,
    no_proxy: process.env.no_proxy,
  };
  beforeAll(async () => {
    [proxy, server] = await Promise.all([
      startFixture('proxy.mjs'),
      startFixture('sdk-server.mjs', ['--mode', 'session']),
    ]);
  });
  afterAll(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await Promise.all([proxy.stop(), server.stop()]);
  });
  // undici's ProxyAgent tunnels with CONNECT even to http: targets; either way the proxy carried it.
  const forwarded = async () => {
    const stats = await getJson<{ forwarded: number; connects: number }>(new URL('/_proxy_stats', proxy.url));
    return stats.forwarded + stats.connects;
  };

  // The variables are honoured by both clients: undici's EnvHttpProxyAgent, and Node's through proxy.ts of @mcpc/http.
  it('honours HTTP_PROXY and HTTPS_PROXY by default, and NO_PROXY (with undici)', async () => {
    delete process.env.http_proxy;
    delete process.env.https_proxy;
    delete process.env.no_proxy;
    process.env.HTTP_PROXY = proxy.url;
    process.env.NO_PROXY = '';
    const before = await forwarded();
    const { engine } = await open(server.url, { listen: false, httpClient: 'undici' });
    expect(text(await call(engine, 'echo', { message: 'via proxy' }))).toBe('Echo: via proxy');
    expect(await forwarded()).toBeGreaterThan(before);
    await engine.close();

    // HTTPS_PROXY: an https: endpoint is reached through a CONNECT tunnel. (The TLS handshake then fails
    // against this plain-HTTP peer; what matters is that the proxy was asked.)
    process.env.HTTPS_PROXY = proxy.url;
    const beforeTunnel = await forwarded();
    const httpsUrl = server.url.replace(/^http:/, 'https:');
    const tunnelled = await open(httpsUrl, { listen: false, retries: 0, httpClient: 'undici' }).catch(
      (e: unknown) => e,
    );
    expect(tunnelled).toBeInstanceOf(Error);
    expect(await forwarded()).toBeGreaterThan(beforeTunnel);
    delete process.env.HTTPS_PROXY;

    process.env.NO_PROXY = '127.0.0.1';
    const middle = await forwarded();
    const direct = await open(server.url, { listen: false, httpClient: 'undici' });
    expect(text(await call(direct.engine, 'echo', { message: 'direct' }))).toBe('Echo: direct');
    expect(await forwarded()).toBe(middle);
  });

  it("honours HTTP_PROXY and NO_PROXY with Node's client too, no undici needed", async () => {
    delete process.env.http_proxy;
    delete process.env.no_proxy;
    process.env.HTTP_PROXY = proxy.url;
    process.env.NO_PROXY = '';
    const before = await forwarded();
    const { engine } = await open(server.url, { listen: false, httpClient: 'node' });
    expect(text(await call(engine, 'echo', { message: 'node via proxy' }))).toBe('Echo: node via proxy');
    expect(await forwarded()).toBeGreaterThan(before);
    await engine.close();

    process.env.NO_PROXY = '127.0.0.1';
    const middle = await forwarded();
    const direct = await open(server.url, { listen: false, httpClient: 'node' });
    expect(text(await call(direct.engine, 'echo', { message: 'node direct' }))).toBe('Echo: node direct');
    expect(await forwarded()).toBe(middle);
    delete process.env.HTTP_PROXY;
    delete process.env.NO_PROXY;
  });

  it("an https: proxy needs undici: with Node's client, HttpClientUnavailableError, nothing sent", async () => {
    delete process.env.http_proxy;
    process.env.HTTP_PROXY = proxy.url.replace(/^http:/, 'https:');
    const before = await forwarded();
    const failed = await open(server.url, { listen: false, httpClient: 'node' }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(HttpClientUnavailableError);
    expect((failed as HttpClientUnavailableError).code).toBe('MCPC_HTTP_CLIENT_UNAVAILABLE');
    expect(await forwarded()).toBe(before);
    delete process.env.HTTP_PROXY;
    // Without the variables, the same transport settings reach the server directly.
    const { engine } = await open(server.url, { listen: false, httpClient: 'node' });
    expect(text(await call(engine, 'echo', { message: 'node' }))).toBe('Echo: node');
  });

  it("a dispatcher is undici's: with httpClient: 'node' it is refused at construction", async () => {
    const { Agent } = await import('undici');
    const dispatcher = new Agent();
    expect(() => new StreamableHttpTransport({ url: server.url, dispatcher, httpClient: 'node' })).toThrow(TypeError);
    await dispatcher.close();
  });
});
