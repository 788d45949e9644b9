// Several servers: aggregated lists, ambiguous and unknown names, routing, batches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AmbiguousNameError,
  Client,
  ServerError,
  ToolNotFoundError,
  UnknownServerError,
  stdio,
  textOf,
} from '@mcpc/client';
import { fixture, revision } from './helpers.js';

describe('several servers', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({
      servers: [revision('2025-11-25', 'new'), revision('2024-11-05', 'old'), fixture('list-changed.mjs', [], 'lc')],
    });
    await client.connect();
  });
  afterAll(() => client.close());

  it('aggregates lists across servers, each item naming its server, in configuration order', async () => {
    const tools = await client.listTools();
    expect([...new Set(tools.map((t) => t.server))]).toEqual(['new', 'old', 'lc']);
    expect(tools.filter((t) => t.name === 'echo').map((t) => t.server)).toEqual(['new', 'old']);
    expect((await client.listResources()).map((r) => `${r.server}:${r.uri}`)).toEqual(
      expect.arrayContaining(['new:mem://hello', 'old:mem://hello', 'lc:mem://res/0']),
    );
  });

  it('refuses a name several servers offer, listing the candidates', async () => {
    const error = await client.callTool('echo', { message: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousNameError);
    expect(error).toMatchObject({
      code: 'MCPC_AMBIGUOUS_NAME',
      kind: 'tool',
      item: 'echo',
      candidates: ['new', 'old'],
    });
    expect((error as Error).message).toMatch(/"new", "old".*pass \{ server \}/);
    await expect(client.findTool('echo')).rejects.toBeInstanceOf(AmbiguousNameError);
    await expect(client.getPrompt('greeting', { name: 'x' })).rejects.toMatchObject({
      kind: 'prompt',
      candidates: ['new', 'old'],
    });
    await expect(client.readResource('mem://hello')).rejects.toMatchObject({
      kind: 'resource',
      candidates: ['new', 'old'],
    });
  });

  it('routes by { server }, by a Tool object, and by a name only one server offers', async () => {
    expect(textOf(await client.callTool('echo', { message: 'a' }, { server: 'old' }))).toBe('Echo: a');
    const tool = (await client.listTools()).find((t) => t.name === 'echo' && t.server === 'new')!;
    expect(textOf(await client.callTool(tool, { message: 'b' }))).toBe('Echo: b');
    expect(textOf(await client.callTool('bump'))).toMatch(/^tool_\d+$/);
    expect((await client.readResource('mem://res/0'))[0]?.isText()).toBe(true);
    expect(await client.getPrompt('greeting', { name: 'Z' }, { server: 'new' })).toMatchObject({
      messages: [{ role: 'user' }],
    });
  });

  it('fails clearly for an unknown tool or server', async () => {
    await expect(client.callTool('nope')).rejects.toBeInstanceOf(ToolNotFoundError);
    await expect(client.callTool('echo', {}, { server: 'missing' })).rejects.toBeInstanceOf(UnknownServerError);
    expect(() => client.server('missing')).toThrow(/has no server named "missing" \(it has "new", "old", "lc"\)/);
  });

  it('runs a batch concurrently, each outcome in place, a failure failing no other', async () => {
    const outcomes = await client.callTools([
      { name: 'echo', arguments: { message: 'one' }, server: 'new' },
      { name: 'fail', server: 'old' },
      { name: 'throw', server: 'new' },
      { name: 'nope' },
      { name: 'echo', arguments: { message: 'x' } },
      { name: 'add', arguments: { a: 1, b: 2 }, server: 'old' },
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, false, false, false, true]);
    expect(outcomes[0]).toMatchObject({ ok: true, name: 'echo', server: 'new' });
    if (outcomes[0]!.ok) expect(textOf(outcomes[0]!.result)).toBe('Echo: one');
    if (outcomes[1]!.ok) expect(outcomes[1]!.result.isError).toBe(true);
    if (!outcomes[2]!.ok) expect(outcomes[2]!.error).toBeInstanceOf(ServerError);
    if (!outcomes[3]!.ok) expect(outcomes[3]!.error).toBeInstanceOf(ToolNotFoundError);
    if (!outcomes[4]!.ok) expect(outcomes[4]!.error).toBeInstanceOf(AmbiguousNameError);
    if (outcomes[5]!.ok) expect(textOf(outcomes[5]!.result)).toBe('3');
  });

  it('bounds a batch by its concurrency', async () => {
    const calls = Array.from({ length: 6 }, () => ({ name: 'slow', arguments: { ms: 40 }, server: 'new' }));
    const started = Date.now();
    const outcomes = await client.callTools(calls, { concurrency: 2 });
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
  });
});

describe('server names', () => {
  it('derives a name from the command, unique within the client', () => {
    const client = new Client({
      servers: [
        stdio({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] }),
        stdio({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything@2026.1.1'] }),
        stdio({ command: 'node', args: ['/srv/mcp/weather.mjs', '--port', '1'] }),
        stdio({ command: 'python3', args: ['-m', 'server'] }),
        stdio({ name: 'mine', command: 'node', args: ['x.js'] }),
      ],
    });
    expect(client.servers.map((s) => s.name)).toEqual([
      'server-everything',
      'server-everything-2',
      'weather',
      'server',
      'mine',
    ]);
  });

  it('refuses two servers with the same explicit name', () => {
    expect(
      () => new Client({ servers: [stdio({ name: 'a', command: 'x' }), stdio({ name: 'a', command: 'y' })] }),
    ).toThrow(/two servers are named "a"/);
  });
});
