// `list_changed` notifications and the list caches they invalidate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, textOf } from '@mcpc/client';
import { fixture, recordingLogger, tapped, until } from './helpers.js';

describe('list_changed notifications', () => {
  let client: Client;
  const logger = recordingLogger();

  beforeAll(async () => {
    client = new Client({ servers: [fixture('list-changed.mjs', [], 'lc')], logger });
    await client.connect();
  });
  afterAll(() => client.close());

  it('drops the tool cache before listeners run: a listener that re-lists sees the new tool', async () => {
    const before = await client.listTools();
    expect(client.server('lc').cacheInfo('tools')).toMatchObject({ cached: true, count: before.length });
    const relisted: string[][] = [];
    const off = client.onNotification((_server, method) => {
      if (method === 'notifications/tools/list_changed')
        void client.listTools().then((tools) => relisted.push(tools.map((t) => t.name)));
    });
    try {
      const added = textOf(await client.callTool('bump'));
      await until(() => relisted.length > 0);
      expect(relisted[0]).toContain(added);
      expect((await client.listTools()).map((t) => t.name)).toContain(added);
    } finally {
      off();
    }
  });

  it('drops the prompt and resource caches the same way', async () => {
    await client.listPrompts();
    await client.listResources();
    const seen: { method: string; names: string[] }[] = [];
    const off = client.onNotification((_server, method) => {
      if (method === 'notifications/prompts/list_changed')
        void client.listPrompts().then((p) => seen.push({ method, names: p.map((x) => x.name) }));
      if (method === 'notifications/resources/list_changed')
        void client.listResources().then((r) => seen.push({ method, names: r.map((x) => x.uri) }));
    });
    try {
      const prompt = textOf(await client.callTool('bump_prompts'));
      const resource = textOf(await client.callTool('bump_resources'));
      await until(() => seen.length >= 2);
      expect(seen.find((s) => s.method.includes('prompts'))?.names).toContain(prompt);
      expect(seen.find((s) => s.method.includes('resources'))?.names).toContain(resource);
    } finally {
      off();
    }
  });

  it('logs a listener that throws, and it stops neither the other listeners nor the client', async () => {
    let reached = false;
    const offA = client.onNotification(() => {
      throw new Error('listener bug\u001b[31m');
    });
    const offB = client.onNotification((_s, method) => {
      if (method === 'notifications/tools/list_changed') reached = true;
    });
    try {
      await client.callTool('bump');
      await until(() => reached);
      expect(logger.text('error')).toContain('a notification listener threw: listener bug\\u001b[31m');
      expect((await client.listTools()).length).toBeGreaterThan(1);
    } finally {
      offA();
      offB();
    }
  });

  it('stops delivering to a listener once it unsubscribes', async () => {
    let calls = 0;
    const off = client.onNotification(() => void calls++);
    off();
    await client.callTool('bump');
    await client.listTools();
    expect(calls).toBe(0);
  });
});

describe('list caches', () => {
  it('serves lists from the cache until clearCache(), and shares one fetch between concurrent callers', async () => {
    const wire = tapped('servers/revision-server.mjs', ['2025-11-25']);
    await using client = new Client({ servers: [{ name: 'rev', transport: wire }] });
    const [a, b] = await Promise.all([client.listTools(), client.listTools()]);
    expect(a).toBe(b);
    await client.listTools();
    expect(wire.requests('tools/list')).toHaveLength(1);
    client.clearCache();
    expect(client.server('rev').cacheInfo('tools')).toEqual({ cached: false });
    await client.listTools();
    expect(wire.requests('tools/list')).toHaveLength(2);
    // The revision server sends tools/list_changed before answering add_tool.
    await client.callTool('add_tool');
    expect((await client.listTools()).map((t) => t.name)).toContain('extra_1');
    expect(wire.requests('tools/list')).toHaveLength(3);
  });
});
