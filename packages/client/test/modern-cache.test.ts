// Caching on a modern server (`ttlMs` / `cacheScope`): fresh lists, private entries, reads, rejected cursors.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CapabilityError, Client, streamableHttp, textOf, type ServerConfig } from '@mcpc/client';
import { startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { modernFixture, modernFixturePath, recordingLogger } from './helpers.js';

interface Stats {
  methods: Record<string, number>;
  requests: { method: string; params?: { _meta?: Record<string, unknown> } }[];
}

const clients: Client[] = [];
const fixtures: Fixture[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const f of fixtures.splice(0)) await f.stop();
});

async function open(
  args: string[],
  options: Partial<ConstructorParameters<typeof Client>[0]> = {},
  over: 'stdio' | 'http' = 'stdio',
) {
  let config: ServerConfig;
  if (over === 'stdio') config = modernFixture('scripted-server.mjs', ['stdio', ...args], { name: 's' });
  else {
    const f = await startFixture(modernFixturePath('scripted-server.mjs'), ['http', ...args]);
    fixtures.push(f);
    config = streamableHttp({ name: 's', url: f.url, retries: 0, ...(options as { headers?: never }) });
  }
  const logger = recordingLogger();
  const client = new Client({ servers: [config], logger, onElicitation: () => ({ name: 'yes' }), ...options });
  clients.push(client);
  await client.connect();
  const stats = async (): Promise<Stats> => JSON.parse(textOf(await client.callTool('stats')));
  const count = async (method: string): Promise<number> => (await stats()).methods[method] ?? 0;
  return { client, logger, stats, count, server: client.server('s') };
}

describe('caching (ttlMs / cacheScope)', () => {
  it('a fresh list is served without a request; cacheInfo reports the hints', async () => {
    const { client, count, server } = await open(['--list-ttl', '60000', '--scope', 'public']);
    await client.listTools();
    await client.listTools();
    expect(await count('tools/list')).toBe(1);
    expect(server.cacheInfo('tools')).toMatchObject({ cached: true, ttlMs: 60000, cacheScope: 'public', fresh: true });
  });

  it('a list with ttlMs 0 (or none) is fetched again on every use', async () => {
    const { client, count, server } = await open([]);
    await client.listTools();
    await client.listTools();
    expect(await count('tools/list')).toBe(2);
    expect(server.cacheInfo('tools')).toMatchObject({ ttlMs: 0, cacheScope: 'private', fresh: false });
  });

  it('private entries are bound to the effective _meta: a changed requestMeta fetches again', async () => {
    let tenant = 'a';
    const { client, count } = await open(['--list-ttl', '60000', '--scope', 'private'], {
      requestMeta: () => ({ 'example.com/tenant': tenant }),
    });
    await client.listTools();
    await client.listTools();
    tenant = 'b';
    await client.listTools();
    expect(await count('tools/list')).toBe(2);
  });

  it('resources/read is cached per URI only with a positive ttlMs, and never after input_required rounds', async () => {
    const { client, server, count } = await open([]);
    const text = async (uri: string): Promise<string> => {
      const [c] = await client.readResource(uri, { server: 's' });
      return c!.isText() ? c!.text : '';
    };
    expect(await text('ttl://60000')).toBe('read #1');
    expect(await text('ttl://60000')).toBe('read #1');
    expect(server.cacheInfo('read', 'ttl://60000')).toMatchObject({ cached: true, ttlMs: 60000, fresh: true });
    expect(await text('ttl://0')).toBe('read #1');
    expect(await text('ttl://0')).toBe('read #2');
    expect(server.cacheInfo('read', 'ttl://0')).toEqual({ cached: false });
    await text('ask://x');
    await text('ask://x');
    expect(await count('resources/read')).toBe(1 + 2 + 4);
  });

  it('a rejected cursor (-32602) restarts pagination from the first page, once', async () => {
    const { client, server, count } = await open(['--dead-cursor']);
    expect((await client.listResources()).map((r) => r.uri)).toEqual(['file:///a', 'file:///b']);
    server.clearCache();
    expect((await client.listResources()).map((r) => r.uri)).toEqual(['file:///a', 'file:///b']);
    expect(await count('resources/list')).toBe(2 + 2 + 2);
  });

  it('a stale discovery result is re-fetched before it refuses a call; a fresh one is not', async () => {
    const stale = await open(['--discover-ttl', '0']);
    const complete = (c: Client) =>
      c.complete({ ref: { type: 'ref/prompt', name: 'p1' }, argument: { name: 'a', value: '' } }, { server: 's' });
    await expect(complete(stale.client)).rejects.toBeInstanceOf(CapabilityError);
    expect(await stale.count('server/discover')).toBe(2);
    const fresh = await open(['--discover-ttl', '60000']);
    await expect(complete(fresh.client)).rejects.toBeInstanceOf(CapabilityError);
    expect(await fresh.count('server/discover')).toBe(1);
  });
});

describe('caching over HTTP', () => {
  let fixture: Fixture;
  let client: Client;
  let token = 'one';
  const logger = recordingLogger();
  beforeAll(async () => {
    fixture = await startFixture(modernFixturePath('scripted-server.mjs'), [
      'http',
      '--list-ttl',
      '300',
      '--scope',
      'private',
    ]);
    client = new Client({
      servers: [
        streamableHttp({
          name: 's',
          url: fixture.url,
          retries: 0,
          headers: () => ({ authorization: `Bearer ${token}` }),
        }),
      ],
      logger,
    });
    await client.connect();
  });
  afterAll(async () => {
    await client?.close();
    await fixture?.stop();
  });

  it('a private entry is never served to another Authorization; a transient failure serves the stale copy with a warning', async () => {
    await client.listTools();
    await client.listTools();
    token = 'two';
    await client.listTools();
    const stats = JSON.parse(textOf(await client.callTool('stats')));
    expect(stats.methods['tools/list']).toBe(2);
    await fixture.stop();
    await new Promise((r) => setTimeout(r, 350));
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('echo');
    expect(logger.text('warn')).toContain('serving the stale copy');
    token = 'three';
    await expect(client.listTools()).rejects.toMatchObject({ code: 'MCPC_NETWORK_ERROR' });
  });
});
