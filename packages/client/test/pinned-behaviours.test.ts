// Pins behaviours that worked untested: forced transports, own timeouts, crash loops, /sse eras, sampling tools.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  CrashLoopError,
  InputRequiredError,
  RequestTimeoutError,
  connect,
  deprecations,
  sse,
  stdio,
  textOf,
  type ServerConfig,
} from '@mcpc/client';
import { getJson, startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { linesOf, modernFixture, modernFixturePath, recordingLogger, until } from './helpers.js';

let everything: Fixture;
let dir: string;

beforeAll(async () => {
  everything = await startFixture('everything.mjs', ['streamableHttp']);
  dir = mkdtempSync(join(tmpdir(), 'mcpc-pinned-'));
});
afterAll(async () => {
  await everything?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a transport forced for a URL', () => {
  it('is the one used: no detection, no fallback', async () => {
    // Detected, the Streamable HTTP server connects.
    const detected = await connect(everything.url);
    try {
      expect(detected.servers[0]!.transportKind).toBe('streamable-http');
    } finally {
      await detected.close();
    }
    // Forced to the legacy HTTP+SSE transport, the same server is not reachable: it is not tried another way.
    const forced = await connect(everything.url, { transport: 'sse', handshakeTimeout: 5_000 }).catch(
      (e: unknown) => e,
    );
    expect(forced).toBeInstanceOf(Error);
    if (!(forced instanceof Error)) await (forced as Client).close();
    // Forced to what it speaks, it connects over exactly that.
    const streamable = await connect(everything.url, { transport: 'streamable-http' });
    try {
      expect(streamable.servers[0]!.transportKind).toBe('streamable-http');
    } finally {
      await streamable.close();
    }
  }, 30_000);
});

describe('server.request(…, { timeout })', () => {
  it('bounds a request the server never answers, with RequestTimeoutError, and the connection goes on', async () => {
    const script = join(dir, 'silent-method.mjs');
    writeFileSync(
      script,
      `let buf = '';
process.stdin.setEncoding('utf8').on('data', (c) => {
  buf += c;
  for (let i; (i = buf.indexOf('\\n')) !== -1; ) {
    const m = JSON.parse(buf.slice(0, i)); buf = buf.slice(i + 1);
    if (m.id === undefined) continue;
    if (m.method === 'initialize') process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: {}, serverInfo: { name: 's', version: '1' } } }) + '\\n');
    else if (m.method === 'server/discover') process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no' } }) + '\\n');
    else if (m.method === 'ping') process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {} }) + '\\n');
    // anything else: never answered
  }
});
process.stdin.on('end', () => process.exit(0));`,
    );
    const client = new Client({ servers: [stdio({ name: 's', command: process.execPath, args: [script] })] });
    try {
      await client.connect();
      const server = client.server('s');
      const started = performance.now();
      const error = await server.request('x/never', {}, { timeout: 300 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestTimeoutError);
      expect(performance.now() - started).toBeLessThan(5_000);
      await expect(server.request('ping', {})).resolves.toEqual({});
    } finally {
      await client.close();
    }
  }, 20_000);
});

describe('a stdio server whose every process dies right after its handshake', () => {
  const mortal = fileURLToPath(new URL('../../../tooling/fixtures/stdio/mortal.mjs', import.meta.url));
  const cases: [string, (starts: string) => ServerConfig][] = [
    [
      '2026-07-28, right after server/discover',
      (starts) =>
        stdio({
          name: 'fragile',
          command: process.execPath,
          args: [modernFixturePath('scripted-server.mjs'), 'stdio', '--exit-after-discover', '--starts', starts],
        }),
    ],
    [
      'classic, right after initialize',
      (starts) =>
        stdio({
          name: 'fragile',
          command: process.execPath,
          args: [mortal, join(dir, 'mortal-calls'), '--exit-after-initialize', '--starts', starts],
        }),
    ],
  ];
  it.each(cases)(
    '%s: typed errors in bounded time, CrashLoopError after exactly 5 starts, then no start at all',
    async (label, config) => {
      const starts = join(dir, `starts-${label.split(',')[0]}`);
      const logger = recordingLogger();
      const client = new Client({ servers: [config(starts)], logger });
      try {
        const started = performance.now();
        const errors: unknown[] = [];
        // Each call meets a fresh process (the client restarts a crashed stdio server) that dies again.
        for (let i = 0; i < 8 && !(errors.at(-1) instanceof CrashLoopError); i++) {
          // A call that meets the dead pipe before the exit is seen fails at once (MCPC_WRITE_FAILED), and the
          // connection stays 'connected' for a few ms more: wait for the death to be seen, bounded.
          await until(() => client.server('fragile').state !== 'connected', 5_000);
          const call = performance.now();
          errors.push(await client.callTool('echo', {}).catch((e: unknown) => e));
          expect(performance.now() - call).toBeLessThan(5_000);
        }
        // Before the refusal: typed errors saying the process went away (its exit, or the broken pipe to it when a
        // write gets there first, which can fail the classic handshake's notifications/initialized), never an answer.
        const gone = /exited with code 4|closed its stdin \(broken pipe, EPIPE\)/;
        expect(errors.length).toBeGreaterThan(1);
        for (const error of errors.slice(0, -1)) {
          expect(error).toBeInstanceOf(Error);
          expect([
            'MCPC_CONNECTION_CLOSED',
            'MCPC_SERVER_EXITED',
            'MCPC_WRITE_FAILED',
            'MCPC_CONNECTION_FAILED',
          ]).toContain((error as { code?: unknown }).code);
          expect((error as Error).message).toMatch(gone);
        }
        // Every start died within CRASH_LOOP_MIN_UPTIME_MS, so each counted: five, and the sixth is refused.
        const loop = errors.at(-1) as CrashLoopError;
        expect(loop).toBeInstanceOf(CrashLoopError);
        expect(loop).toMatchObject({ code: 'MCPC_CRASH_LOOP', server: 'fragile', failures: 5, windowMs: 60_000 });
        expect(loop.message).toMatch(
          /^could not connect to server "fragile": its process failed 5 times within 60 s, so it is not being started again for now; the last time: /,
        );
        expect(loop.message).toMatch(gone);
        expect(linesOf(starts)).toHaveLength(5);
        // No loop: later calls are refused at once, and no process is started for them.
        for (let i = 0; i < 3; i++) {
          const call = performance.now();
          await expect(client.callTool('echo', {})).rejects.toBeInstanceOf(CrashLoopError);
          expect(performance.now() - call).toBeLessThan(1_000);
        }
        await new Promise((r) => setTimeout(r, 200));
        expect(linesOf(starts)).toHaveLength(5);
        expect(performance.now() - started).toBeLessThan(20_000);
        // Each death seen after a completed handshake is announced once as a restart to come, never more.
        const restarts = logger.lines.filter(
          (l) => l.level === 'warn' && /^\[mcpc\] server "fragile" disconnected: /.test(l.message),
        );
        expect(restarts.length).toBeLessThanOrEqual(5);
        for (const l of restarts) expect(l.message).toMatch(/; it is started again on the next request$/);
      } finally {
        await client.close();
      }
    },
    30_000,
  );
});

describe('the era options on a /sse URL', () => {
  let sseServer: Fixture;
  beforeAll(async () => {
    sseServer = await startFixture('sdk-sse-server.mjs');
  });
  afterAll(() => sseServer?.stop());

  it('are dropped: HTTP+SSE is 2024-11-05-era and has no era to choose, so protocol: modern still connects', async () => {
    // Applied, `protocol: 'modern'` would insist on server/discover, which no HTTP+SSE server answers.
    const client = await connect(sseServer.url, { protocol: 'modern', discoverTimeout: 200, handshakeTimeout: 10_000 });
    try {
      const server = client.servers[0]!;
      expect(server.transportKind).toBe('sse');
      expect(server.protocolEra).toBe('legacy');
    } finally {
      await client.close();
    }
  });

  it('are left off by sse() itself, and ignored on a hand-made sse config: no server/discover is ever sent', async () => {
    const dropped = sse({ url: sseServer.url, protocol: 'modern', discoverTimeout: 200 });
    expect(dropped).toMatchObject({ kind: 'sse', deprecated: 'sse-transport' });
    expect(dropped).not.toHaveProperty('protocol');
    expect(dropped).not.toHaveProperty('discoverTimeout');
    type Stats = { requests: Record<string, number> };
    const before = await getJson<Stats>(new URL('/_stats', sseServer.url));
    // Put back by hand, the options still do not make an HTTP+SSE server a 2026-07-28 one.
    const client = new Client({
      servers: [{ ...sse({ url: sseServer.url, name: 'sse' }), protocol: 'modern', discoverTimeout: 200 }],
      logger: recordingLogger(),
    });
    try {
      await client.connect();
      expect(client.servers[0]!).toMatchObject({ transportKind: 'sse', protocolEra: 'legacy' });
      expect(client.servers[0]!.protocolVersion).toBe('2025-11-25');
    } finally {
      await client.close();
    }
    const after = await getJson<Stats>(new URL('/_stats', sseServer.url));
    expect(after.requests['initialize']).toBe((before.requests['initialize'] ?? 0) + 1);
    expect(after.requests).not.toHaveProperty('server/discover');
  });

  it('are dropped silently: the one warning is the HTTP+SSE deprecation notice, nothing about an era', async () => {
    deprecations.reset();
    const logger = recordingLogger();
    const client = await connect(sseServer.url, {
      protocol: 'modern',
      discoverTimeout: 200,
      logger,
      handshakeTimeout: 10_000,
    });
    await client.close();
    const warnings = logger.lines.filter((l) => l.level !== 'debug');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 'warn' });
    expect(warnings[0]!.message).toMatch(
      /^\[mcpc\] deprecated: sse-transport \(connecting over the HTTP\+SSE transport\) is deprecated since MCP 2025-03-26/,
    );
    expect(deprecations.noticed('sse-transport')).toBe(true);
    // Not at debug level either: no probe was tried, so none failed.
    expect(logger.text()).not.toMatch(/server\/discover|2026-07-28/);
  });
});

describe('sampling with tools on MCP 2026-07-28', () => {
  type Request = {
    method: string;
    params: { name?: string; inputResponses?: unknown; _meta?: Record<string, unknown> };
  };
  const sampleToolsCalls = async (client: Client): Promise<Request['params'][]> =>
    (JSON.parse(textOf(await client.callTool('stats'))) as { requests: Request[] }).requests
      .filter((r) => r.method === 'tools/call' && r.params.name === 'sample-tools')
      .map((r) => r.params);
  const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

  it('is refused by the client itself when it did not declare sampling.tools: the handler never sees it', async () => {
    const seen: unknown[] = [];
    const make = (samplingSupportsTools: boolean, logger = recordingLogger()): Client =>
      new Client({
        servers: [modernFixture('scripted-server.mjs', ['stdio'], { name: 's' })],
        samplingSupportsTools,
        logger,
        onSampling: (request) => {
          seen.push(request);
          return { role: 'assistant', model: 'm', content: { type: 'text', text: 'sunny' } };
        },
      });
    const logger = recordingLogger();
    const plain = make(false, logger);
    try {
      await plain.connect();
      const started = performance.now();
      const error = await plain.callTool('sample-tools').catch((e: unknown) => e);
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(error).toBeInstanceOf(InputRequiredError);
      expect(error).toMatchObject({
        code: 'MCPC_INPUT_REQUIRED',
        reason: 'malformed',
        resumable: false,
        server: 's',
        method: 'tools/call',
        inputRequests: { s: { method: 'sampling/createMessage' } },
        continuation: { inputResponses: {} },
      });
      expect((error as Error).message).toBe(
        'tools/call on server "s" needs input the client could not give: input request "s" (sampling/createMessage) ' +
          'failed: Invalid params: tool use in sampling is not enabled on this client',
      );
      // The refusal is the client's own -32602 (what it would answer a server's request with), kept as the cause.
      expect((error as Error).cause).toMatchObject({ rpcCode: -32602 });
      expect(seen).toEqual([]);
      expect(logger.text('warn')).toContain(
        '[mcpc] server "s" sent a malformed sampling/createMessage: tool use in sampling is not enabled on this client',
      );
      // The server saw one call, declaring sampling without tools, and no second round.
      const calls = await sampleToolsCalls(plain);
      expect(calls).toHaveLength(1);
      expect(calls[0]!._meta?.[CAPABILITIES]).toEqual({ sampling: {} });
    } finally {
      await plain.close();
    }
    // Declared, the same request reaches the handler, and its answer goes back.
    const opted = make(true);
    try {
      await opted.connect();
      const result = await opted.callTool('sample-tools');
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ tools: [{ name: 'get_weather' }] });
      expect(textOf(result)).toContain('sunny');
      const calls = await sampleToolsCalls(opted);
      expect(calls).toHaveLength(2);
      expect(calls[0]!._meta?.[CAPABILITIES]).toEqual({ sampling: { tools: {} } });
      expect(calls[1]!.inputResponses).toMatchObject({ s: { model: 'm' } });
    } finally {
      await opted.close();
    }
  });
});
