// Multi round-trip requests (MCP 2026-07-28): round bounds, resumes that keep their headers, later-round failures.
//
// Bounds on what a round may ask; resumes that keep their Mcp-Param-* headers and HeaderMismatch retry; later-round
// failures that keep the resume state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  InputLimitError,
  InputRequiredError,
  ServerError,
  streamableHttp,
  textOf,
  type ServerConfig,
} from '@mcpc/client';
import { startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { modernFixture, modernFixturePath, recordingLogger } from './helpers.js';

describe('bounds on an input_required round', () => {
  let handlerCalls = 0;
  const open = (extra: { maxInputRequests?: number; maxRequestStateBytes?: number } = {}): Client =>
    new Client({
      servers: [modernFixture('scripted-server.mjs', ['stdio'], { name: 's' })],
      logger: recordingLogger(),
      onElicitation: () => {
        handlerCalls++;
        return { action: 'accept', content: { name: 'x' } };
      },
      ...extra,
    });
  let client: Client;
  beforeAll(() => {
    client = open();
  });
  afterAll(() => client.close());

  it('more inputRequests in one round than maxInputRequests (64) is an InputLimitError before any handler runs', async () => {
    handlerCalls = 0;
    // Before the bound: 2,001 requests a round, answered each of the 10 rounds, then too-many-rounds.
    const error = await client.callTool('many', { n: 2001 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputLimitError);
    expect(error).toMatchObject({
      code: 'MCPC_TOO_MANY_INPUT_REQUESTS',
      limit: 'inputRequests',
      size: 2001,
      max: 64,
      server: 's',
      method: 'tools/call',
    });
    expect(handlerCalls).toBe(0);
  });

  it('a requestState past maxRequestStateBytes (256 KiB) is an InputLimitError and is never sent back', async () => {
    handlerCalls = 0;
    const error = await client.callTool('big-state', { bytes: 10 * 1024 * 1024 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputLimitError);
    expect(error).toMatchObject({
      code: 'MCPC_REQUEST_STATE_TOO_LARGE',
      limit: 'requestState',
      size: 10 * 1024 * 1024,
      max: 256 * 1024,
    });
    expect(handlerCalls).toBe(0);
    const stats = JSON.parse(textOf(await client.callTool('stats'))) as {
      requests: { method: string; params: { name?: string } }[];
    };
    expect(stats.requests.filter((r) => r.method === 'tools/call' && r.params.name === 'big-state')).toHaveLength(1);
  });

  it('the options raise both bounds; a bad value is a TypeError', async () => {
    const roomy = open({ maxInputRequests: 100, maxRequestStateBytes: 2 * 1024 * 1024 });
    try {
      handlerCalls = 0;
      expect(textOf(await roomy.callTool('big-state', { bytes: 1024 * 1024 }))).toBe(`state of ${1024 * 1024} echoed`);
      expect(handlerCalls).toBe(1);
      const error = await roomy.callTool('many', { n: 100 }).catch((e: unknown) => e);
      // 100 fit: the server keeps asking, so the rounds run out instead (100 answers a round).
      expect(error).toMatchObject({ reason: 'too-many-rounds' });
      expect(handlerCalls).toBe(1 + 100 * 10);
    } finally {
      await roomy.close();
    }
    expect(() => new Client({ maxInputRequests: 0 })).toThrow(TypeError);
    expect(() => new Client({ maxRequestStateBytes: 1.5 })).toThrow(TypeError);
  });
});

describe('a later round that fails keeps the resume state', () => {
  let client: Client;
  let handlerCalls = 0;
  beforeAll(() => {
    client = new Client({
      servers: [modernFixture('scripted-server.mjs', ['stdio'], { name: 's' })],
      logger: recordingLogger(),
      onElicitation: () => {
        handlerCalls++;
        return { action: 'accept', content: { name: 'Ada' } };
      },
    });
  });
  afterAll(() => client.close());

  it('a server error on the resend is a resumable InputRequiredError (send-failed) whose resume asks nothing again', async () => {
    const error = await client.callTool('ask-then-fail', { key: 'a' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputRequiredError);
    const ire = error as InputRequiredError;
    expect(ire).toMatchObject({ reason: 'send-failed', resumable: true, requestState: 'st' });
    expect(ire.cause).toBeInstanceOf(ServerError);
    expect((ire.cause as ServerError).rpcCode).toBe(-32603);
    expect(ire.continuation.inputResponses).toEqual({ ok: { action: 'accept', content: { name: 'Ada' } } });
    expect(handlerCalls).toBe(1);
    const result = await client.resumeInputRequired(ire);
    expect(JSON.parse(textOf(result as never))).toEqual({
      ok: { action: 'accept', content: { name: 'Ada' } },
      state: 'st',
    });
    expect(handlerCalls).toBe(1);
  });
});

describe('a resumed tools/call over HTTP', () => {
  let fixture: Fixture;
  let client: Client;
  let refuse = true;
  beforeAll(async () => {
    fixture = await startFixture(modernFixturePath('scripted-server.mjs'), ['http']);
    const config: ServerConfig = streamableHttp({ name: 's', url: fixture.url, retries: 0 });
    client = new Client({
      servers: [config],
      logger: recordingLogger(),
      onElicitation: () => {
        if (refuse) throw new Error('the user closed the dialog');
        return { action: 'accept', content: { name: 'ok' } };
      },
    });
    await client.connect();
  });
  afterAll(async () => {
    await client?.close();
    await fixture?.stop();
  });
  const stats = async () =>
    JSON.parse(textOf(await client.callTool('stats'))) as {
      methods: Record<string, number>;
      requests: { method: string; params: { name?: string }; headers: Record<string, string> }[];
    };

  it('carries the Mcp-Param-* headers of the first attempt (a conforming server refuses it without them)', async () => {
    refuse = true;
    const error = await client.callTool('region-ask', { region: 'eu-west', key: 'h' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'handler-failed', resumable: true });
    refuse = false;
    const result = await client.resumeInputRequired(error as InputRequiredError);
    expect(JSON.parse(textOf(result as never))).toMatchObject({ region: 'eu-west', ok: { action: 'accept' } });
    const calls = (await stats()).requests.filter((r) => r.method === 'tools/call' && r.params.name === 'region-ask');
    expect(calls.map((c) => c.headers['mcp-param-region'])).toEqual(['eu-west', 'eu-west']);
  });

  it('a HeaderMismatch on a resumed round refreshes tools/list once and retries that round', async () => {
    refuse = true;
    const error = await client
      .callTool('region-ask', { region: 'us-east', key: 'f', flip: true })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'handler-failed' });
    const before = (await stats()).methods['tools/list'] ?? 0;
    refuse = false;
    const result = await client.resumeInputRequired(error as InputRequiredError);
    expect(JSON.parse(textOf(result as never))).toMatchObject({ region: 'us-east' });
    expect((await stats()).methods['tools/list']).toBe(before + 1);
  });

  it('a HeaderMismatch on a later round of the first attempt is retried from that round too', async () => {
    refuse = false;
    const before = await stats();
    const result = await client.callTool('region-ask', { region: 'ap-south', key: 'g', flip: true });
    expect(JSON.parse(textOf(result))).toMatchObject({ region: 'ap-south' });
    const after = await stats();
    expect(after.methods['tools/list']).toBe((before.methods['tools/list'] ?? 0) + 1);
    const calls = after.requests
      .slice(before.requests.length)
      .filter((r) => r.method === 'tools/call' && r.params.name === 'region-ask');
    // The first round, the refused resend, and the resend retried under the refreshed definition.
    expect(calls).toHaveLength(3);
  });
});
