// One rule for an unknown tool whatever the server count, and "resource not found" as servers send it.
import { describe, expect, it } from 'vitest';
import { Client, ResourceNotFoundError, ServerError, ToolNotFoundError, streamableHttp, textOf } from '@mcpc/client';
import { startFixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { isResourceNotFound } from '../src/features/resources.js';
import { closeNames } from '../src/routing.js';
import { MODERN_SDK_SERVER, everything, recordingLogger, sdkModern } from './helpers.js';

describe('an unknown tool', () => {
  it('with one server whose list is known: ToolNotFoundError naming the server and close names, nothing sent', async () => {
    const client = new Client({ servers: [everything()], logger: recordingLogger() });
    try {
      // Before: sent, and server-everything answered an isError result ("Tool no_such_tool not found").
      const error = await client.callTool('no_such_tool').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ToolNotFoundError);
      expect(error).toMatchObject({
        code: 'MCPC_TOOL_NOT_FOUND',
        kind: 'tool',
        item: 'no_such_tool',
        servers: ['everything'],
      });
      const close = await client.callTool('ech', { message: 'x' }).catch((e: unknown) => e);
      expect(close).toMatchObject({ suggestions: expect.arrayContaining(['echo']) });
      expect((close as Error).message).toMatch(/did you mean "echo"/);
      // A listed tool still goes straight out.
      expect(textOf(await client.callTool('echo', { message: 'hi' }))).toBe('Echo: hi');
    } finally {
      await client.close();
    }
  });

  it('with several servers, or one named by { server }: the same error (a 2026-07-28 SDK server would answer -32602)', async () => {
    const client = new Client({ servers: [everything(), sdkModern('modern')], logger: recordingLogger() });
    try {
      const routed = await client.callTool('no_such_tool').catch((e: unknown) => e);
      expect(routed).toBeInstanceOf(ToolNotFoundError);
      expect(routed).toMatchObject({ servers: ['everything', 'modern'] });
      const named = await client.callTool('no_such_tool', {}, { server: 'modern' }).catch((e: unknown) => e);
      expect(named).toBeInstanceOf(ToolNotFoundError);
      expect(named).toMatchObject({ servers: ['modern'] });
      expect(
        (await client
          .callTool('ad', { a: 1, b: 2 }, { server: 'modern' })
          .catch((e: unknown) => e)) as ToolNotFoundError,
      ).toMatchObject({ suggestions: ['add'] });
    } finally {
      await client.close();
    }
  });

  it('is re-listed once before it is refused: a tool added since the list was cached is found', async () => {
    const http = await startFixture(MODERN_SDK_SERVER, ['http']);
    const client = new Client({
      servers: [streamableHttp({ name: 'modern', url: http.url, retries: 0 })],
      logger: recordingLogger(),
    });
    try {
      // tools/list is cached for 60 s, and a 2026-07-28 server without a listen stream tells no one of
      // the tool `mutate` adds: the cached list is stale when the call is made.
      expect((await client.listTools()).map((t) => t.name)).not.toContain('extra1');
      await client.callTool('mutate');
      expect(
        client
          .server('modern')
          .cached('tools')
          ?.map((t) => t.name),
      ).not.toContain('extra1');
      expect(textOf(await client.callTool('extra1'))).toBe('extra1');
    } finally {
      await client.close();
      await http.stop();
    }
  });

  it("with no list to go by (validateStructuredContent 'off', nothing cached): sent, and the server answers", async () => {
    const client = new Client({ servers: [everything()], logger: recordingLogger(), validateStructuredContent: 'off' });
    try {
      const result = await client.callTool('no_such_tool');
      expect(result.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('resource not found', () => {
  it('the official TypeScript SDK (server-everything): -32602 without data.uri is a ResourceNotFoundError', async () => {
    const client = new Client({ servers: [everything()], logger: recordingLogger() });
    try {
      // Before: a plain ServerError.
      const error = await client.readResource('test://nope/missing').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResourceNotFoundError);
      expect(error).toMatchObject({ code: 'MCPC_RESOURCE_NOT_FOUND', item: 'test://nope/missing', rpcCode: -32602 });
      expect((error as ResourceNotFoundError).cause).toBeInstanceOf(ServerError);
    } finally {
      await client.close();
    }
  });

  it('the official SDK v2 on 2026-07-28 (-32602 with data.uri) is one too', async () => {
    const client = new Client({ servers: [sdkModern('modern')], logger: recordingLogger() });
    try {
      await expect(client.readResource('nope://missing')).rejects.toMatchObject({
        code: 'MCPC_RESOURCE_NOT_FOUND',
        rpcCode: -32602,
      });
    } finally {
      await client.close();
    }
  });

  it('maps -32602 (data.uri, or a "not found" message), -32002, and -32601 naming the URI (fastmcp); nothing else', () => {
    const uri = 'file:///x';
    const error = (code: number, message: string, data?: unknown) =>
      new ServerError(code, message, { data, method: 'resources/read' });
    expect(isResourceNotFound(error(-32602, 'Resource not found', { uri }), uri)).toBe(true);
    expect(isResourceNotFound(error(-32602, `Resource ${uri} not found`), uri)).toBe(true);
    expect(isResourceNotFound(error(-32002, 'Resource not found'), uri)).toBe(true);
    expect(isResourceNotFound(error(-32601, `Unknown resource: ${uri}`), uri)).toBe(true);
    expect(isResourceNotFound(error(-32602, 'Resource not found', { uri: 'file:///other' }), uri)).toBe(false);
    expect(isResourceNotFound(error(-32602, 'Invalid URI'), uri)).toBe(false);
    expect(isResourceNotFound(error(-32601, 'Method not found'), uri)).toBe(false);
    expect(isResourceNotFound(error(-32603, 'Internal error'), uri)).toBe(false);
  });
});

describe('closeNames', () => {
  it('ranks case, containment and small edit distances; bounded', () => {
    expect(closeNames('Echo', ['echo', 'add', 'echo_twice'])).toEqual(['echo', 'echo_twice']);
    expect(closeNames('get-sun', ['get-sum', 'get-env', 'zzz'])).toEqual(['get-sum']);
    expect(closeNames('x'.repeat(500), ['x'])).toEqual([]);
    expect(
      closeNames(
        'abc',
        Array.from({ length: 20 }, (_, i) => `abc${i}`),
      ),
    ).toHaveLength(5);
  });
});
