// Tracing events and SERVER span parents against the real SDK: progress, task status, `_meta` context, failures.
import { fileURLToPath } from 'node:url';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { Client, InputRequiredError, stdio, textOf, type ClientOptions, type ServerConfig } from '@mcpc/client';
import { ask, everything, modernFixture, scripted, sdkModern } from './helpers.js';
import { exporter, installGlobalTracing, isChildOf, spanNamed, spansNamed, underParent } from './tracing-otel.js';

beforeAll(installGlobalTracing);
beforeEach(() => exporter.reset());

const TASKS_SERVER = fileURLToPath(
  new URL('../../../tooling/fixtures/tasks/scripted-tasks-server.mjs', import.meta.url),
);
const tasksServer = (era: 'modern' | 'legacy'): ServerConfig =>
  stdio({ name: 't', command: process.execPath, args: [TASKS_SERVER, 'stdio', '--era', era] });

async function withClient<T>(options: ClientOptions, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ deprecationNotices: false, ...options });
  try {
    await client.connect();
    return await fn(client);
  } finally {
    await client.close();
  }
}

const eventsOf = (name: string, event: string) =>
  spansNamed(name).flatMap((s) => s.events.filter((e) => e.name === event).map((e) => e.attributes));

describe('progress: an mcp.progress event per notification on the CLIENT span, numbers only', () => {
  it.each([
    ['classic (server-everything)', everything(), 'trigger-long-running-operation', { duration: 0.3, steps: 3 }],
    ['modern (SDK v2)', sdkModern(), 'progress', { steps: 3 }],
  ] as const)('%s', async (_era, config, tool, args) => {
    const seen: number[] = [];
    await withClient({ servers: [config] }, (client) =>
      client.callTool(tool, args, { onProgress: (p) => void seen.push(p.progress) }),
    );
    expect(seen.length).toBeGreaterThanOrEqual(2);
    const events = eventsOf(`tools/call ${tool}`, 'mcp.progress');
    expect(events.map((e) => e?.['mcp.progress.value'])).toEqual(seen);
    for (const event of events) {
      expect(Object.keys(event ?? {}).sort()).toEqual(['mcp.progress.total', 'mcp.progress.value']);
      expect(event?.['mcp.progress.total']).toBe(3);
    }
  });
});

describe('task status: an mcp.task.status event on the task-augmented call and on each poll', () => {
  it.each([
    ['modern (2026-07-28 tasks extension)', 'modern', 'job'],
    ['legacy (2025-11-25 tasks)', 'legacy', 'required-job'],
  ] as const)('%s', async (_era, era, tool) => {
    const statuses: string[] = [];
    const options: ClientOptions = { servers: [tasksServer(era)], extensions: ['io.modelcontextprotocol/tasks'] };
    const result = await withClient(options, (client) =>
      client.callTool(tool, { steps: 2 }, { onTaskStatus: (t) => void statuses.push(t.status) }),
    );
    expect(textOf(result)).toBe('done');
    expect(eventsOf(`tools/call ${tool}`, 'mcp.task.status')).toEqual([{ 'mcp.task.status': 'working' }]);
    const polls = eventsOf('tasks/get', 'mcp.task.status').map((e) => e?.['mcp.task.status']);
    expect(polls.at(-1)).toBe('completed');
    expect(polls.slice(0, -1).every((s) => s === 'working')).toBe(true);
    expect(statuses.at(-1)).toBe('completed');
  });
});

describe('input rounds (MRTR): an mcp.input_required event on the CLIENT span of each round that asked', () => {
  it('numbers the rounds and names what each asked for (nothing: a wait)', async () => {
    const options: ClientOptions = {
      servers: [modernFixture('scripted-server.mjs', ['stdio'])],
      onInputRequiredWait: () => 'retry',
    };
    await withClient(options, (client) => client.callTool('pace', { n: 2 }));
    const rounds = spansNamed('tools/call pace');
    expect(rounds).toHaveLength(3);
    expect(rounds.map((s) => s.events.map((e) => [e.name, e.attributes]))).toEqual([
      [['mcp.input_required', { 'mcp.input.round': 1, 'mcp.input.methods': [] }]],
      [['mcp.input_required', { 'mcp.input.round': 2, 'mcp.input.methods': [] }]],
      [],
    ]);
  });
});

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';
const SCHEMA = { type: 'object', properties: { v: { type: 'string' } } };
const message = { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 };

describe("SERVER spans' parents and failures (the scripted server asks what the test says)", () => {
  let baggageSeen: string | undefined;
  let activeSeen: string | undefined;
  const options = (extra: Partial<ClientOptions> = {}): ClientOptions => ({
    servers: [scripted()],
    onSampling: () => {
      baggageSeen = propagation.getActiveBaggage()?.getEntry('user')?.value;
      activeSeen = trace.getActiveSpan()?.spanContext().spanId;
      return { model: 'm', role: 'assistant', stopReason: 'endTurn', content: { type: 'text', text: 'ok' } };
    },
    onElicitation: () => {
      throw new Error('the user closed the dialog');
    },
    ...extra,
  });
  beforeEach(() => {
    baggageSeen = activeSeen = undefined;
  });

  it("is the child of the trace context in the request's _meta, and the handler sees its baggage", async () => {
    const _meta = { traceparent: `00-${TRACE}-${SPAN}-01`, tracestate: 'k=v', baggage: 'user=u%201' };
    const reply = await withClient(options(), (client) => ask(client, 'sampling/createMessage', { ...message, _meta }));
    expect(reply.result).toMatchObject({ model: 'm' });
    const span = spanNamed('sampling/createMessage');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.spanContext().traceId).toBe(TRACE);
    expect(span.parentSpanContext).toMatchObject({ traceId: TRACE, spanId: SPAN, isRemote: true });
    expect(span.spanContext().traceState?.get('k')).toBe('v');
    expect(span.attributes).toMatchObject({ 'mcp.method.name': 'sampling/createMessage', 'jsonrpc.request.id': 's1' });
    expect(activeSeen).toBe(span.spanContext().spanId);
    expect(baggageSeen).toBe('u 1');
  });

  it('any other request the client answers gets one too: ping', async () => {
    const _meta = { traceparent: `00-${TRACE}-${SPAN}-01` };
    expect((await withClient(options(), (client) => ask(client, 'ping', { _meta }))).result).toEqual({});
    const span = spanNamed('ping');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.parentSpanContext?.spanId).toBe(SPAN);
  });

  it('without trace context in _meta, a trace of its own: not the span the client was connected under', async () => {
    // Over stdio the server's messages are read in the context connect() ran in; that span is long over.
    const { parent } = await underParent(() =>
      withClient(options(), (client) => ask(client, 'sampling/createMessage', message)),
    );
    const span = spanNamed('sampling/createMessage');
    expect(span.spanContext().traceId).not.toBe(TRACE);
    expect(span.spanContext().traceId).not.toBe(parent.spanContext().traceId);
    expect(span.parentSpanContext).toBeUndefined();
  });

  it('a given propagator extracts instead (W3C trace context alone: no baggage)', async () => {
    const _meta = { traceparent: `00-${TRACE}-${SPAN}-01`, baggage: 'user=u1' };
    const tracing = { propagator: new W3CTraceContextPropagator() };
    await withClient(options({ tracing }), (client) => ask(client, 'sampling/createMessage', { ...message, _meta }));
    expect(spanNamed('sampling/createMessage').parentSpanContext?.spanId).toBe(SPAN);
    expect(baggageSeen).toBeUndefined();
  });

  it("records the handler's failure, and a refusal of the params by its JSON-RPC code", async () => {
    await withClient(options(), async (client) => {
      expect((await ask(client, 'elicitation/create', { message: 'm', requestedSchema: SCHEMA })).error).toBeDefined();
      expect((await ask(client, 'sampling/createMessage', { nonsense: true })).error?.code).toBe(-32602);
    });
    const failed = spanNamed('elicitation/create');
    expect(failed.status.code).toBe(SpanStatusCode.ERROR);
    // The host's handler threw: the client answered -32603, and that is the span's error.
    expect(failed.attributes).toMatchObject({ 'error.type': '-32603', 'rpc.response.status_code': '-32603' });
    expect(failed.events.map((e) => e.name)).toEqual(['exception']);
    const refused = spanNamed('sampling/createMessage');
    expect(refused.status.code).toBe(SpanStatusCode.ERROR);
    expect(refused.attributes).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
  });

  it('modern: a failed input request is recorded on its SERVER span, child of the round that asked', async () => {
    const error = await withClient(options({ servers: [sdkModern()] }), (client) =>
      client.callTool('confirm', {}).catch((e: unknown) => e),
    );
    expect(error).toBeInstanceOf(InputRequiredError);
    const span = spanNamed('elicitation/create');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.events.map((e) => e.name)).toEqual(['exception']);
    expect(isChildOf(span, spanNamed('tools/call confirm'))).toBe(true);
  });
});
