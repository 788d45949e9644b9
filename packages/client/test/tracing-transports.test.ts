// Tracing for every request kind on both eras and every transport (stdio, Streamable HTTP, legacy SSE), real SDK.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpanKind, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  Client,
  sse,
  streamableHttp,
  textOf,
  type ElicitationHandler,
  type SamplingHandler,
  type ServerConfig,
} from '@mcpc/client';
import { startFixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { MODERN_SDK_SERVER, everything, sdkModern, until } from './helpers.js';
import { exporter, installGlobalTracing, isChildOf, spanNamed, spansNamed, underParent } from './tracing-otel.js';

beforeAll(installGlobalTracing);

interface Case {
  readonly name: string;
  readonly era: 'classic' | 'modern';
  readonly transport: 'pipe' | 'tcp';
  readonly start: () => Promise<{ config: ServerConfig; stop: () => Promise<unknown> }>;
}

const overHttp = (script: string, args: string[], make: typeof streamableHttp | typeof sse) => async () => {
  const server = await startFixture(script, args);
  return { config: make({ name: 's', url: server.url }), stop: () => server.stop() };
};
const local = (config: ServerConfig) => async () => ({ config, stop: async () => undefined });

const CASES: Case[] = [
  { name: 'classic over stdio (server-everything)', era: 'classic', transport: 'pipe', start: local(everything('s')) },
  {
    name: 'classic over Streamable HTTP (server-everything)',
    era: 'classic',
    transport: 'tcp',
    start: overHttp('everything.mjs', ['streamableHttp'], streamableHttp),
  },
  {
    name: 'classic over the legacy SSE transport (server-everything)',
    era: 'classic',
    transport: 'tcp',
    start: overHttp('everything.mjs', ['sse'], sse),
  },
  { name: 'modern over stdio (SDK v2)', era: 'modern', transport: 'pipe', start: local(sdkModern('s')) },
  {
    name: 'modern over Streamable HTTP (SDK v2)',
    era: 'modern',
    transport: 'tcp',
    start: overHttp(MODERN_SDK_SERVER, ['http'], streamableHttp),
  },
];

// What each era's fixture offers for each request kind.
const OPS = {
  classic: {
    tool: ['echo', { message: 'x' }],
    prompt: ['args-prompt', { city: 'Paris', state: 'TX' }],
    resource: 'demo://resource/dynamic/text/1',
    sampling: ['trigger-sampling-request', { prompt: 'p', maxTokens: 5 }],
    elicitation: ['trigger-elicitation-request', {}],
  },
  modern: {
    tool: ['add', { a: 1, b: 2 }],
    prompt: ['greet', { name: 'n' }],
    resource: 'config://app',
    sampling: ['sample', {}],
    elicitation: ['confirm', {}],
  },
} as const;

/** Where each host handler ran: the span current while it did (the SERVER span, if `run` made it current). */
const handlerSpans: Record<string, string | undefined> = {};
const note = (method: string) => (handlerSpans[method] = trace.getActiveSpan()?.spanContext().spanId);
const onSampling: SamplingHandler = () => {
  note('sampling/createMessage');
  return { model: 'm', role: 'assistant', stopReason: 'endTurn', content: { type: 'text', text: 'ok' } };
};
const onElicitation: ElicitationHandler = () => {
  note('elicitation/create');
  return { action: 'accept', content: { name: 'Ada', color: 'red' } };
};

describe.each(CASES)('tracing: $name', ({ era, transport, start }) => {
  let client: Client;
  let stop: () => Promise<unknown>;
  beforeAll(async () => {
    exporter.reset();
    const server = await start();
    stop = server.stop;
    client = new Client({
      servers: [server.config],
      deprecationNotices: false,
      onSampling,
      onElicitation,
      roots: [{ uri: 'file:///srv' }],
    });
    await client.connect();
  });
  afterAll(async () => {
    await client.close();
    await stop();
  });
  const ops = OPS[era];
  const version = era === 'modern' ? '2026-07-28' : expect.stringMatching(/^20\d\d-\d\d-\d\d$/);

  const clientSpan = (name: string, parent: { spanContext(): { traceId: string; spanId: string } }): ReadableSpan => {
    const span = spanNamed(name);
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(isChildOf(span, parent)).toBe(true);
    expect(span.attributes).toMatchObject({
      'mcp.protocol.version': version,
      'network.transport': transport,
      'jsonrpc.request.id': expect.stringMatching(/^\d+$/),
    });
    if (transport === 'tcp') expect(span.attributes['server.address']).toBe('127.0.0.1');
    return span;
  };

  it('a CLIENT span, child of the active span, for each request kind: list, call, prompt, resource', async () => {
    const { parent } = await underParent(async () => {
      await client.listTools();
      await client.callTool(ops.tool[0], ops.tool[1]);
      await client.listPrompts();
      await client.getPrompt(ops.prompt[0], ops.prompt[1]);
      await client.listResources();
      await client.readResource(ops.resource);
    });
    expect(clientSpan('tools/list', parent).attributes['mcp.method.name']).toBe('tools/list');
    expect(clientSpan(`tools/call ${ops.tool[0]}`, parent).attributes['gen_ai.tool.name']).toBe(ops.tool[0]);
    clientSpan('prompts/list', parent);
    expect(clientSpan(`prompts/get ${ops.prompt[0]}`, parent).attributes['gen_ai.prompt.name']).toBe(ops.prompt[0]);
    clientSpan('resources/list', parent);
    expect(clientSpan('resources/read', parent).attributes['mcp.resource.uri']).toBe(ops.resource);
  });

  it.each(['sampling', 'elicitation'] as const)(
    'a SERVER span for the server’s %s request, with the host handler running under it',
    async (kind) => {
      const method = kind === 'sampling' ? 'sampling/createMessage' : 'elicitation/create';
      const [tool, args] = ops[kind];
      const { parent, value } = await underParent(() => client.callTool(tool, args));
      expect(textOf(value)).toBeTruthy();
      const server = spanNamed(method);
      expect(server.kind).toBe(SpanKind.SERVER);
      expect(server.attributes).toMatchObject({
        'mcp.method.name': method,
        'mcp.protocol.version': version,
        'network.transport': transport,
      });
      expect(handlerSpans[method]).toBe(server.spanContext().spanId);
      const calls = spansNamed(`tools/call ${tool}`);
      if (era === 'classic') {
        expect(server.attributes['jsonrpc.request.id']).toMatch(/\S/);
        expect(calls).toHaveLength(1);
      } else {
        // MRTR: the first round asked (an event on its span) and is the input request's parent; the second answered.
        expect(calls).toHaveLength(2);
        const [asked, answered] = calls; // in the order they ended
        expect(asked!.events.map((e) => [e.name, e.attributes])).toEqual([
          ['mcp.input_required', { 'mcp.input.round': 1, 'mcp.input.methods': [method] }],
        ]);
        expect(answered!.events).toEqual([]);
        expect(isChildOf(server, asked!)).toBe(true);
        expect(server.attributes['jsonrpc.request.id']).toBeUndefined();
      }
      for (const call of calls) expect(isChildOf(call, parent)).toBe(true);
    },
  );

  it('a SERVER span for roots/list', async () => {
    if (era === 'modern') {
      const { value } = await underParent(() => client.callTool('roots', {}));
      expect(textOf(value)).toContain('file:///srv');
      expect(isChildOf(spanNamed('roots/list'), spansNamed('tools/call roots')[0]!)).toBe(true);
    } else {
      // server-everything asks for the roots by itself, shortly after the handshake.
      await until(() => spansNamed('roots/list').length > 0);
    }
    const span = spanNamed('roots/list');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.attributes).toMatchObject({ 'mcp.method.name': 'roots/list', 'network.transport': transport });
    expect(span.status.code).toBe(0);
  });
});
