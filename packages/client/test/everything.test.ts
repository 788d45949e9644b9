// The client against server-everything over stdio: handshake, capabilities, tools, prompts, resources, host requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, textOf, type LogMessage } from '@mcpc/client';
import type { ElicitationAnswer, ElicitationRequest, SamplingRequest, ToolStreamEvent } from '@mcpc/client/types';
import { everything, recordingLogger, until } from './helpers.js';

// One server-everything process for the whole file: every test here leaves it as it found it.
let client: Client;
const logger = recordingLogger();
const sampled: SamplingRequest[] = [];
const elicited: ElicitationRequest[] = [];
let answer: ElicitationAnswer = { action: 'decline' };
const notifications: { method: string; params: unknown }[] = [];
const logs: LogMessage[] = [];

beforeAll(async () => {
  client = new Client({
    servers: [everything()],
    clientInfo: { name: 'mcpc-tests', version: '1.0.0', title: 'mcpc tests' },
    logger,
    deprecationNotices: false,
    roots: [{ uri: 'file:///tmp/project', name: 'Project' }],
    onSampling: async (request, context) => {
      expect(context.server).toBe('everything');
      sampled.push(request);
      return { model: 'test-model', stopReason: 'endTurn', content: { type: 'text', text: 'sampled by the host' } };
    },
    onElicitation: async (request) => {
      elicited.push(request);
      return answer;
    },
  });
  client.onNotification((_server, method, params) => void notifications.push({ method, params }));
  client.onLog((_server, message) => void logs.push(message));
  await client.connect();
});

afterAll(async () => {
  await client.close();
});

describe('server-everything over stdio', () => {
  it('negotiates 2025-11-25 and keeps serverInfo, capabilities and instructions', () => {
    const server = client.server('everything');
    expect(server.protocolEra).toBe('legacy');
    expect(server.protocolVersion).toBe('2025-11-25');
    expect(server.serverInfo).toMatchObject({ name: 'mcp-servers/everything', version: '2.0.0' });
    expect(server.capabilities.tools).toEqual({ listChanged: true });
    expect(server.supports('resources.subscribe')).toBe(true);
    expect(server.instructions).toEqual(expect.any(String));
  });

  it('declares exactly the capabilities the host registered', () => {
    expect(client.server('everything').clientCapabilities).toEqual({
      roots: { listChanged: true },
      sampling: {},
      elicitation: { form: {} },
    });
  });

  it('lists tools, each knowing its server, with annotations', async () => {
    const tools = await client.listTools();
    const echo = tools.find((t) => t.name === 'echo');
    expect(echo).toMatchObject({ server: 'everything', taskSupport: 'forbidden' });
    expect(echo?.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    // Registered by the server only because the client declared sampling and elicitation.
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['trigger-sampling-request', 'trigger-elicitation-request', 'get-roots-list']),
    );
    expect(await client.findTool('get-sum')).toMatchObject({ name: 'get-sum', title: expect.any(String) });
    expect(await client.findTool('no-such-tool')).toBeUndefined();
  });

  it('calls a tool and returns text, image and structured content', async () => {
    expect(textOf(await client.callTool('echo', { message: 'hi' }))).toBe('Echo: hi');
    const image = await client.callTool('get-tiny-image', {});
    expect(image.content.some((b) => b.type === 'image' && b.mimeType === 'image/png')).toBe(true);
    const tool = await client.findTool('get-structured-content');
    expect(tool?.outputSchema).toMatchObject({ type: 'object', properties: { temperature: expect.any(Object) } });
    const weather = await client.callTool('get-structured-content', { location: 'Chicago' });
    expect(weather.structuredContent).toMatchObject({
      temperature: expect.any(Number),
      conditions: expect.any(String),
    });
  });

  it('returns resource_link content', async () => {
    const result = await client.callTool('get-resource-links', { count: 2 });
    const links = result.content.filter((b) => b.type === 'resource_link');
    expect(links).toHaveLength(2);
    expect(links[0]).toMatchObject({
      uri: expect.stringMatching(/^demo:\/\/resource\/dynamic\//),
      name: expect.any(String),
    });
  });

  it('lists prompts and gets one with arguments', async () => {
    const prompts = await client.listPrompts();
    expect(prompts.find((p) => p.name === 'args-prompt')?.arguments?.map((a) => a.name)).toEqual(['city', 'state']);
    const result = await client.getPrompt('args-prompt', { city: 'Paris', state: 'TX' });
    expect(JSON.stringify(result.messages)).toContain('Paris');
  });

  it('lists and reads resources: text, and binary through a template', async () => {
    const resources = await client.listResources();
    const doc = resources.find((r) => r.uri.startsWith('demo://resource/static/document/'));
    expect(doc).toMatchObject({ server: 'everything', name: expect.any(String) });
    const [text] = await client.readResource(doc!.uri);
    expect(text?.isText()).toBe(true);
    expect(text?.isBinary()).toBe(false);

    const templates = await client.listResourceTemplates();
    expect(templates.map((t) => t.uriTemplate)).toContain('demo://resource/dynamic/blob/{resourceId}');
    const [blob] = await client.readResource('demo://resource/dynamic/blob/7');
    expect(blob?.isBinary()).toBe(true);
    if (blob?.isBinary()) expect(new TextDecoder().decode(blob.bytes())).toContain('Resource 7');
  });

  it('completes prompt arguments with context, and resource template arguments', async () => {
    const names = await client.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'name', value: 'A' },
      context: { arguments: { department: 'Engineering' } },
    });
    expect(names.values).toEqual(['Alice']);
    const ids = await client.complete({
      ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
      argument: { name: 'resourceId', value: '5' },
    });
    expect(ids.values).toEqual(['5']);
  });

  it('subscribes to a resource, receives updates, and unsubscribes', async () => {
    const server = client.server('everything');
    const uri = 'demo://resource/dynamic/text/1';
    await server.subscribeResource(uri);
    expect(server.subscriptions.has(uri)).toBe(true);
    notifications.length = 0;
    await client.callTool('toggle-subscriber-updates', {});
    try {
      await until(() =>
        notifications.some(
          (n) => n.method === 'notifications/resources/updated' && (n.params as { uri?: string }).uri === uri,
        ),
      );
    } finally {
      await client.callTool('toggle-subscriber-updates', {});
      await server.unsubscribeResource(uri);
    }
    expect(server.subscriptions.has(uri)).toBe(false);
  });

  it('sets the log level and delivers log messages made safe to print', async () => {
    await client.setLogLevel('debug');
    logs.length = 0;
    await client.callTool('toggle-simulated-logging', {});
    try {
      await until(() => logs.length > 0);
    } finally {
      await client.callTool('toggle-simulated-logging', {});
    }
    expect(logs[0]).toMatchObject({ level: expect.any(String), data: expect.stringMatching(/message/) });
  });

  it('answers a sampling request through the host handler', async () => {
    sampled.length = 0;
    const result = await client.callTool('trigger-sampling-request', { prompt: 'Tell a joke', maxTokens: 20 });
    expect(sampled).toHaveLength(1);
    expect(sampled[0]).toMatchObject({ maxTokens: 20, systemPrompt: expect.any(String) });
    expect(textOf(result)).toContain('sampled by the host');
    expect(textOf(result)).toContain('"role": "assistant"');
  });

  it('counts content-only elicitation answers as accept', async () => {
    elicited.length = 0;
    answer = { name: 'Ada Lovelace', check: true, integer: 7 };
    const result = await client.callTool('trigger-elicitation-request', {});
    expect(elicited[0]).toMatchObject({
      mode: 'form',
      message: expect.any(String),
      requestedSchema: { type: 'object' },
    });
    expect(textOf(result)).toContain('User provided the requested information');
    expect(textOf(result)).toContain('Ada Lovelace');
  });

  it('answers cancel for an elicitation action that is not accept, decline or cancel', async () => {
    answer = { action: 'maybe' } as unknown as ElicitationAnswer;
    const result = await client.callTool('trigger-elicitation-request', {});
    expect(textOf(result)).toContain('User cancelled');
    expect(logger.text('warn')).toContain('an action other than accept, decline or cancel');
    logger.lines.length = 0;
    answer = { action: 'decline' };
    expect(textOf(await client.callTool('trigger-elicitation-request', {}))).toContain('User declined');
  });

  it('reports progress to onProgress, and streams progress then the result', async () => {
    const progress: number[] = [];
    const result = await client.callTool(
      'trigger-long-running-operation',
      { duration: 0.3, steps: 3 },
      { onProgress: (p) => progress.push(p.progress) },
    );
    expect(progress).toEqual([1, 2, 3]);
    expect(textOf(result)).toMatch(/completed/i);

    const events: ToolStreamEvent[] = [];
    for await (const event of client.callToolStreaming('trigger-long-running-operation', { duration: 0.2, steps: 2 }))
      events.push(event);
    expect(events.map((e) => e.type)).toEqual(['progress', 'progress', 'result']);
    expect(events[1]).toMatchObject({ type: 'progress', progress: 2, total: 2 });
  });

  it('serves roots, and tells the server when they change', async () => {
    expect(textOf(await client.callTool('get-roots-list', {}))).toContain('file:///tmp/project');
    logs.length = 0;
    client.roots = [{ uri: 'file:///tmp/a' }, { uri: 'file:///tmp/b', name: 'B' }];
    // The server re-requests roots on list_changed and logs what it received.
    await until(() => logs.some((l) => String(l.data).includes('2 root(s)')));
    expect(textOf(await client.callTool('get-roots-list', {}))).toContain('file:///tmp/b');
  });

  it('logs nothing at warn or error level in normal operation', () => {
    expect(logger.text('error')).toBe('');
    expect(logger.text('warn')).toBe('');
  });
});
