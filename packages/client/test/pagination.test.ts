// Pagination: cursors followed to the complete list, explicit pages, looping cursors, the page bound.
import { describe, expect, it } from 'vitest';
import { Client, PaginationError, textOf } from '@mcpc/client';
import { fixture } from './helpers.js';

const names = (items: readonly { name: string }[]) => items.map((i) => i.name);

describe('pagination', () => {
  it('follows nextCursor to the complete set of every list', async () => {
    await using client = new Client({
      servers: [fixture('paginating.mjs', ['--pages', '3', '--per-page', '2'], 'pages')],
    });
    expect(names(await client.listTools())).toEqual([
      'tool_p1_0',
      'tool_p1_1',
      'tool_p2_0',
      'tool_p2_1',
      'tool_p3_0',
      'tool_p3_1',
    ]);
    expect(await client.listPrompts()).toHaveLength(6);
    expect((await client.listResources()).map((r) => r.uri)).toEqual([
      'mem://p1/0',
      'mem://p1/1',
      'mem://p2/0',
      'mem://p2/1',
      'mem://p3/0',
      'mem://p3/1',
    ]);
    expect((await client.listResourceTemplates())[5]?.uriTemplate).toBe('mem://t/p3_1/{id}');
    // `count` is a hidden tool (not listed): with no list held (validation off) the call is sent.
    expect(textOf(await client.callTool('count', { method: 'tools/list' }, { validateStructuredContent: 'off' }))).toBe(
      '3',
    );
  });

  it('returns one page for an explicit cursor, bypassing the cache', async () => {
    await using client = new Client({ servers: [fixture('paginating.mjs', ['--pages', '3'], 'pages')] });
    const first = await client.listTools({ cursor: null });
    expect(names(first.items)).toEqual(['tool_p1_0', 'tool_p1_1']);
    expect(first.server).toBe('pages');
    const second = await client.listTools({ server: 'pages', cursor: first.nextCursor! });
    expect(names(second.items)).toEqual(['tool_p2_0', 'tool_p2_1']);
    const third = await client.listTools({ cursor: second.nextCursor! });
    expect(third.nextCursor).toBeUndefined();
    await expect(client.listTools({ cursor: 'forged' })).rejects.toMatchObject({ rpcCode: -32602 });
    expect(client.server('pages').cacheInfo('tools').cached).toBe(false);
  });

  it('stops a looping cursor with PaginationError holding what was read', async () => {
    await using client = new Client({ servers: [fixture('paginating.mjs', ['--loop'], 'loop')] });
    const error = await client.listTools().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error).toMatchObject({
      reason: 'cursor-loop',
      code: 'MCPC_PAGINATION_LOOP',
      server: 'loop',
      method: 'tools/list',
      pages: 2,
    });
    expect(names((error as PaginationError).items as { name: string }[])).toEqual([
      'tool_p1_0',
      'tool_p1_1',
      'tool_p2_0',
      'tool_p2_1',
    ]);
    // Bounded: the server saw two requests, not an endless stream.
    // (Validation off for the count: with it, a call first tries to list the tools it is checked against.)
    expect(textOf(await client.callTool('count', { method: 'tools/list' }, { validateStructuredContent: 'off' }))).toBe(
      '2',
    );
  });

  it('stops at the page bound', async () => {
    await using client = new Client({
      servers: [fixture('paginating.mjs', ['--pages', '5', '--per-page', '1'], 'long')],
      maxPages: 3,
    });
    await expect(client.listTools()).rejects.toMatchObject({ reason: 'page-limit', pages: 3 });
  });

  it('needs { server } for a page when several servers are configured', async () => {
    await using client = new Client({
      servers: [fixture('paginating.mjs', [], 'a'), fixture('paginating.mjs', [], 'b')],
    });
    await expect(client.listTools({ cursor: null })).rejects.toThrow(/pass \{ server, cursor \}/);
    expect((await client.listTools({ server: 'b', cursor: null })).server).toBe('b');
  });
});
