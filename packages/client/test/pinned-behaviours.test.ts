// Behaviours that worked without a test to keep them: a transport forced for a URL, a request's own timeout, the
// era options a /sse URL drops, sampling with tools refused locally on 2026-07-28.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, InputRequiredError, RequestTimeoutError, connect, stdio, textOf } from '@mcpc/client';
import { startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { modernFixture } from './helpers.js';

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
});

describe('sampling with tools on MCP 2026-07-28', () => {
  it('is refused by the client itself when it did not declare sampling.tools: the handler never sees it', async () => {
    const seen: unknown[] = [];
    const make = (samplingSupportsTools: boolean): Client =>
      new Client({
        servers: [modernFixture('scripted-server.mjs', ['stdio'], { name: 's' })],
        samplingSupportsTools,
        onSampling: (request) => {
          seen.push(request);
          return { role: 'assistant', model: 'm', content: { type: 'text', text: 'sunny' } };
        },
      });
    const plain = make(false);
    try {
      await plain.connect();
      const error = await plain.callTool('sample-tools').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputRequiredError);
      expect(error).toMatchObject({ reason: 'malformed', resumable: false });
      expect((error as Error).message).toMatch(/tool use in sampling is not enabled on this client/);
      expect(seen).toEqual([]);
    } finally {
      await plain.close();
    }
    // Declared, the same request reaches the handler, and its answer goes back.
    const opted = make(true);
    try {
      await opted.connect();
      const result = await opted.callTool('sample-tools');
      expect(seen).toHaveLength(1);
      expect(textOf(result)).toContain('sunny');
    } finally {
      await opted.close();
    }
  });
});
