// The client against a server of each legacy revision: negotiation, tools, prompts, resources, subscriptions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, ServerError, declaredAnnotations, textOf } from '@mcpc/client';
import type { ElicitationAnswer } from '@mcpc/client/types';
import { REVISIONS, recordingLogger, revision, type Revision, until } from './helpers.js';

// revision-server 2025-03-26 runs on sdk 1.13.3, whose newest revision is 2025-06-18 (see the fixtures README);
// lifecycle.test.ts covers a server that answers 2025-03-26 itself.
const NEGOTIATED: Record<Revision, string> = {
  '2024-11-05': '2024-11-05',
  '2025-03-26': '2025-06-18',
  '2025-06-18': '2025-06-18',
  '2025-11-25': '2025-11-25',
};
const since = (version: Revision, first: Revision): boolean => REVISIONS.indexOf(version) >= REVISIONS.indexOf(first);

describe.each(REVISIONS)('a %s server', (version) => {
  let client: Client;
  const logger = recordingLogger();
  let answer: ElicitationAnswer = { name: 'Grace' };
  const notifications: { method: string; params: unknown }[] = [];

  beforeAll(async () => {
    client = new Client({
      servers: [revision(version, 'rev')],
      logger,
      roots: [],
      onSampling: () => ({ model: 'm', content: { type: 'text', text: 'hi from the host' } }),
      onElicitation: () => answer,
    });
    client.onNotification((_s, method, params) => void notifications.push({ method, params }));
    await client.connect();
  });
  afterAll(() => client.close());

  it('negotiates a revision the client speaks', () => {
    const server = client.server('rev');
    expect(server.protocolVersion).toBe(NEGOTIATED[version]);
    expect(server.serverInfo.name).toBe(`revision-${version}`);
    expect(server.instructions).toBe(version === '2024-11-05' ? undefined : `Fixture server for ${version}`);
  });

  it('applies the MCP annotation defaults where a hint is absent', async () => {
    const tools = await client.listTools();
    expect(tools.find((t) => t.name === 'echo')?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    if (since(version, '2025-03-26')) {
      expect(tools.find((t) => t.name === 'annotated')?.annotations).toEqual({
        title: 'Annotated',
        readOnlyHint: true,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
      });
      // What the server said, without the defaults: the read-only tool did not declare destructiveHint.
      expect(declaredAnnotations(tools.find((t) => t.name === 'annotated')!)).toEqual({
        readOnlyHint: true,
        title: 'Annotated',
      });
    }
    expect(declaredAnnotations(tools.find((t) => t.name === 'echo')!)).toBeUndefined();
    // A cached list hands back the same tools, so the same declarations.
    const again = await client.listTools();
    if (since(version, '2025-03-26'))
      expect(declaredAnnotations(again.find((t) => t.name === 'annotated')!)).toMatchObject({ readOnlyHint: true });
  });

  it('calls tools: a result, a tool error (isError), and a JSON-RPC error as ServerError', async () => {
    expect(textOf(await client.callTool('add', { a: 2, b: 3 }))).toBe('5');
    const failed = await client.callTool('fail');
    expect(failed.isError).toBe(true);
    const error = await client.callTool('throw').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ rpcCode: -32603, method: 'tools/call' });
    await expect(client.callTool('echo', {})).rejects.toMatchObject({ rpcCode: -32602 });
  });

  it('gets a prompt and completes its argument (2024-11-05: without a completions capability)', async () => {
    expect(
      textOf({ content: (await client.getPrompt('greeting', { name: 'Ada' })).messages.map((m) => m.content) }),
    ).toBe('Hello, Ada!');
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'greeting' },
      argument: { name: 'name', value: 'Al' },
    });
    expect(completion).toEqual({ values: ['Alice', 'Albert'], total: 2, hasMore: false });
    const ids = await client.complete({
      ref: { type: 'ref/resource', uri: 'mem://items/{id}' },
      argument: { name: 'id', value: '1' },
    });
    expect(ids.values).toEqual(['1', '10']);
  });

  it('reads text, binary and templated resources', async () => {
    const [hello] = await client.readResource('mem://hello');
    expect(hello?.isText() && hello.text).toBe('Hello, world');
    const [blob] = await client.readResource('mem://blob');
    expect(blob?.isBinary()).toBe(true);
    expect([...blob!.bytes()]).toEqual(Array.from({ length: 16 }, (_, i) => i));
    const [item] = await client.readResource('mem://items/42');
    expect(item?.isText() && item.text).toBe('item 42');
    await expect(client.readResource('mem://nope')).rejects.toMatchObject({
      rpcCode: -32002,
      code: 'MCPC_RESOURCE_NOT_FOUND',
    });
  });

  it('subscribes to a resource and receives its updates', async () => {
    const server = client.server('rev');
    await server.subscribeResource('mem://hello');
    await client.callTool('touch', { uri: 'mem://hello' });
    await until(() => notifications.some((n) => n.method === 'notifications/resources/updated'));
    await server.unsubscribeResource('mem://hello');
    expect(textOf(await client.callTool('touch', { uri: 'mem://hello' }))).toBe('not subscribed: mem://hello');
  });

  it('sets the log level, which the server honours', async () => {
    await client.setLogLevel('error');
    expect(textOf(await client.callTool('log', { level: 'info', message: 'quiet' }))).toBe('filtered info');
    expect(textOf(await client.callTool('log', { level: 'error', message: 'loud' }))).toBe('sent error');
    await until(() => notifications.some((n) => n.method === 'notifications/message'));
  });

  it('answers sampling and roots requests', async () => {
    expect(textOf(await client.callTool('ask_sampling'))).toBe('hi from the host');
    expect(JSON.parse(textOf(await client.callTool('ask_roots')))).toEqual({ roots: [] });
  });

  it.runIf(since(version, '2025-06-18'))('answers elicitation, structured output and resource links', async () => {
    answer = { name: 'Grace' };
    expect(JSON.parse(textOf(await client.callTool('ask_elicitation')))).toEqual({
      action: 'accept',
      content: { name: 'Grace' },
    });
    const weather = await client.callTool('get_weather', { city: 'Oslo' });
    expect(weather.structuredContent).toEqual({ temperature: 22.5, conditions: 'sunny' });
    expect((await client.callTool('resource_link')).content[0]).toMatchObject({
      type: 'resource_link',
      uri: 'mem://hello',
    });
  });

  it.runIf(since(version, '2025-03-26'))('returns audio content', async () => {
    const [block] = (await client.callTool('audio')).content;
    expect(block).toMatchObject({ type: 'audio', mimeType: 'audio/wav', data: expect.any(String) });
  });

  it('reports progress', async () => {
    const seen: { progress: number; total?: number; message?: string }[] = [];
    await client.callTool('slow', { ms: 60, steps: 3 }, { onProgress: (p) => seen.push(p) });
    expect(seen.map((p) => p.progress)).toEqual([1, 2, 3]);
    expect(seen[0]?.message).toBe(since(version, '2025-03-26') ? 'step 1/3' : undefined);
  });
});
