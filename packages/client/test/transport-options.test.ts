// Every transport option is reachable and typed from @mcpc/client: its factories take the transports' own option types.
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { Client, autoHttp, http, sse, stdio, streamableHttp, type AuthProvider, type ServerConfig } from '@mcpc/client';
import type { AuthProvider as KernelAuthProvider, ServerConfig as KernelServerConfig } from '@mcpc/jsonrpc';
import type { StdioConfigOptions } from '@mcpc/transport-stdio';
import type { PlainHttpConfigOptions, StreamableHttpConfigOptions } from '@mcpc/transport-streamable-http';
import type { SseConfigOptions } from '@mcpc/transport-sse-legacy';
import { getJson, startFixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { recordingLogger, tick } from './helpers.js';

const clientInfo = { name: 'mcpc-transport-options-test', version: '0.0.0' };
const exitAtOnce = fileURLToPath(new URL('../../../tooling/fixtures/stdio/exit-at-once.mjs', import.meta.url));
const URL_ = 'http://127.0.0.1:1/mcp';

describe("the client's config factories take the transports' own option types", () => {
  it('each parameter type is the transport package’s config options type, and the result the kernel’s ServerConfig', () => {
    // A new option added to a transport's options is thereby an option of the client's factory.
    expectTypeOf<Parameters<typeof stdio>[0]>().toEqualTypeOf<StdioConfigOptions>();
    expectTypeOf<Parameters<typeof streamableHttp>[0]>().toEqualTypeOf<StreamableHttpConfigOptions>();
    expectTypeOf<Parameters<typeof http>[0]>().toEqualTypeOf<PlainHttpConfigOptions>();
    expectTypeOf<Parameters<typeof sse>[0]>().toEqualTypeOf<SseConfigOptions>();
    expectTypeOf<Parameters<typeof autoHttp>[0]>().toEqualTypeOf<StreamableHttpConfigOptions & SseConfigOptions>();
    expectTypeOf<ServerConfig>().toEqualTypeOf<KernelServerConfig>();
    expectTypeOf<ReturnType<typeof stdio>>().toEqualTypeOf<KernelServerConfig>();
    expectTypeOf<AuthProvider>().toEqualTypeOf<KernelAuthProvider>();
  });

  it('accepts the options the client’s copies used to miss, and rejects a misspelt one', () => {
    const configs = [
      stdio({ command: 'node', stderrTailBytes: 1024, shutdownTimeouts: { stdinCloseMs: 100, sigtermMs: 100 } }),
      streamableHttp({
        url: URL_,
        httpClient: 'node',
        maxSseEventBytes: 1024,
        maxResumeAttempts: 1,
        minRetryIntervalMs: 1_000,
        reconnectDelay: { initialMs: 10 },
        retryDelay: { maxMs: 100 },
        listen: false,
      }),
      http({ url: URL_, httpClient: 'node', retryDelay: { initialMs: 1 }, endpoint: '/rpc' }),
      sse({ url: URL_, httpClient: 'node', endpointTimeoutMs: 1_000, maxReconnectAttempts: 1 }),
      autoHttp({ url: URL_, listen: false, endpointTimeoutMs: 1_000 }),
      // @ts-expect-error -- misspelt: a typo is caught, so the lines above are not accepted vacuously
      stdio({ command: 'node', stderrTailByte: 1024 }),
      // @ts-expect-error -- misspelt
      streamableHttp({ url: URL_, listn: false }),
      // @ts-expect-error -- a transport option of the wrong type
      streamableHttp({ url: URL_, httpClient: 'curl' }),
    ];
    expect(configs.map((c) => c.kind)).toEqual([
      'stdio',
      'streamable-http',
      'http',
      'sse',
      'streamable-http',
      'stdio',
      'streamable-http',
      'streamable-http',
    ]);
  });
});

describe('a transport option set through the client’s factory reaches the transport', () => {
  it('stdio(): stderrTailBytes bounds the tail the ProcessExitError carries', async () => {
    const stderr = 'x'.repeat(4_000) + 'THE END';
    const client = new Client({
      servers: [
        stdio({ name: 'broken', command: process.execPath, args: [exitAtOnce, '3', stderr], stderrTailBytes: 64 }),
      ],
      clientInfo,
      logger: recordingLogger(),
    });
    const error = await client.connect().then(
      () => undefined,
      (e: unknown) => e,
    );
    await client.close();
    const exit = causes(error).find((e) => (e as { code?: unknown }).code === 'MCPC_PROCESS_EXIT') as
      { stderrTail?: unknown } | undefined;
    expect(typeof exit?.stderrTail).toBe('string');
    const tail = exit!.stderrTail as string;
    expect(tail.endsWith('THE END\n')).toBe(true);
    expect(Buffer.byteLength(tail)).toBeLessThanOrEqual(64);
  });

  it('streamableHttp(): listen: false means no GET stream reaches the server (the official SDK server)', async () => {
    const server = await startFixture('sdk-server.mjs', ['--mode', 'session']);
    try {
      const gets = async () => (await getJson<{ gets: number }>(new URL('/_stats', server.url))).gets;
      // Without the option, the transport opens its GET stream once the session is initialized.
      {
        await using client = new Client({
          servers: [streamableHttp({ name: 'listening', url: server.url })],
          clientInfo,
          logger: recordingLogger(),
        });
        await client.connect();
        for (let i = 0; i < 100 && (await gets()) === 0; i++) await tick(50);
        expect(await gets()).toBeGreaterThan(0);
      }
      const before = await gets();
      {
        await using client = new Client({
          servers: [streamableHttp({ name: 'quiet', url: server.url, listen: false })],
          clientInfo,
          logger: recordingLogger(),
        });
        await client.connect();
        expect((await client.listTools()).length).toBeGreaterThan(0);
        await tick(300);
        expect(await gets()).toBe(before);
      }
    } finally {
      await server.stop();
    }
  });
});

function causes(error: unknown): Error[] {
  const chain: Error[] = [];
  for (let e: unknown = error; e instanceof Error && chain.length < 8; e = e.cause) chain.push(e);
  return chain;
}
