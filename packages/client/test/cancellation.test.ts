// Timeouts and cancellation of calls, and streaming calls: RequestTimeoutError, AbortError, notifications/cancelled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, Client, RequestTimeoutError, textOf } from '@mcpc/client';
import { scripted, tapped, tick, until } from './helpers.js';

const cancelledBy = async (client: Client): Promise<{ requestId: number; reason: string }[]> =>
  JSON.parse(textOf(await client.callTool('cancelled')));

describe('timeouts and cancellation', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ servers: [scripted('s')], requestTimeout: 150 });
    await client.connect();
  });
  afterAll(() => client.close());

  it('rejects a call past its timeout with RequestTimeoutError and sends notifications/cancelled', async () => {
    const error = await client.callTool('slow', { ms: 1000 }, { timeout: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({ code: 'MCPC_REQUEST_TIMEOUT', method: 'tools/call', timeoutMs: 50 });
    await tick(20);
    expect((await cancelledBy(client)).some((c) => c.reason === 'timeout')).toBe(true);
  });

  it('applies the client default timeout, which a per-call timeout overrides', async () => {
    await expect(client.callTool('slow', { ms: 400 })).rejects.toMatchObject({ timeoutMs: 150 });
    expect(textOf(await client.callTool('slow', { ms: 300 }, { timeout: 5000 }))).toBe('"done"');
  });

  it('rejects an aborted call with AbortError (cause: the reason) and sends notifications/cancelled', async () => {
    const controller = new AbortController();
    const call = client.callTool('slow', { ms: 1000 }, { signal: controller.signal, timeout: 5000 });
    await tick(30);
    controller.abort(new Error('user pressed stop'));
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as Error).cause).toMatchObject({ message: 'user pressed stop' });
    await tick(20);
    expect((await cancelledBy(client)).some((c) => c.reason === 'aborted by the client')).toBe(true);
  });

  it('rejects at once, sending nothing, when the signal is already aborted', async () => {
    const before = (await cancelledBy(client)).length;
    await expect(client.callTool('slow', { ms: 10 }, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      AbortError,
    );
    expect((await cancelledBy(client)).length).toBe(before);
  });
});

describe('callToolStreaming', () => {
  it('cancels the call when the consumer stops iterating', async () => {
    const wire = tapped('servers/revision-server.mjs', ['2025-11-25']);
    await using client = new Client({ servers: [{ name: 'rev', transport: wire }] });
    const events: string[] = [];
    for await (const event of client.callToolStreaming('slow', { ms: 3000, steps: 30 })) {
      events.push(event.type);
      break;
    }
    expect(events).toEqual(['progress']);
    await until(() => wire.methods().includes('notifications/cancelled'));
    const [cancel] = wire.sent.filter((m) => 'method' in m && m.method === 'notifications/cancelled');
    expect(cancel).toMatchObject({ params: { requestId: wire.requests('tools/call')[0]!.id } });
  });

  it('throws the call error from the iterator', async () => {
    const wire = tapped('servers/revision-server.mjs', ['2025-11-25']);
    await using client = new Client({ servers: [{ name: 'rev', transport: wire }] });
    const iterate = async () => {
      for await (const _ of client.callToolStreaming('throw')) void _;
    };
    await expect(iterate()).rejects.toMatchObject({ rpcCode: -32603 });
  });
});
