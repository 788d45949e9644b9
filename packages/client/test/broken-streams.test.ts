// Broken response streams on a modern HTTP server: one re-send under a fresh id, then ResponseStreamClosedError.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, streamableHttp, textOf } from '@mcpc/client';
import { ResponseStreamClosedError } from '@mcpc/transport-streamable-http';
import { startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { modernFixturePath, recordingLogger } from './helpers.js';

describe('broken response streams on a modern HTTP server', () => {
  let fixture: Fixture;
  let client: Client;
  beforeAll(async () => {
    fixture = await startFixture(modernFixturePath('scripted-server.mjs'), ['http']);
    client = new Client({
      servers: [streamableHttp({ name: 's', url: fixture.url, retries: 0 })],
      logger: recordingLogger(),
    });
    await client.connect();
  });
  afterAll(async () => {
    await client?.close();
    await fixture?.stop();
  });
  const calls = async (key: string) => {
    const { requests } = JSON.parse(textOf(await client.callTool('stats'))) as {
      requests: { method: string; id: unknown; params: { name?: string; arguments?: { key?: string } } }[];
    };
    return requests.filter(
      (r) => r.method === 'tools/call' && r.params.name === 'break' && r.params.arguments?.key === key,
    );
  };

  it('a stream that ends without the result is re-sent once under a fresh id, tools/call included', async () => {
    expect(textOf(await client.callTool('break', { times: 1, key: 'once' }))).toBe('unbroken after 1');
    const sent = await calls('once');
    expect(sent).toHaveLength(2);
    expect(sent[0]!.id).not.toBe(sent[1]!.id);
  });

  it('a second break raises ResponseStreamClosedError', async () => {
    const error = await client.callTool('break', { times: 2, key: 'twice' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseStreamClosedError);
    expect(await calls('twice')).toHaveLength(2);
  });
});
