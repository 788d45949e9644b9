// Tracing against the real OpenTelemetry SDK: CLIENT spans per request, their attributes and parents, `_meta` context.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as api from '@opentelemetry/api';
import { context, propagation, trace, INVALID_SPAN_CONTEXT, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Client, streamableHttp, textOf, type ClientOptions } from '@mcpc/client';
import { startFixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { McpError, ServerError } from '@mcpc/jsonrpc';
import { MODERN_SDK_SERVER, everything, scripted, sdkModern } from './helpers.js';
import { exporter, installGlobalTracing, spanNamed, underParent } from './tracing-otel.js';

// No propagator is registered, so the client's own W3C propagation (trace context and baggage) is what is tested.
beforeAll(installGlobalTracing);
beforeEach(() => exporter.reset());

const open = async (options: ClientOptions): Promise<Client> => {
  const client = new Client({ deprecationNotices: false, ...options });
  await client.connect();
  return client;
};

describe('tracing on the classic era (server-everything over stdio)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await open({ servers: [everything()] });
  });
  afterAll(() => client.close());

  it('makes one CLIENT span per request, named `{method} {tool}`, child of the active span, with the conventions attributes', async () => {
    const { parent, value } = await underParent(() => client.callTool('echo', { message: 'hi' }));
    expect(textOf(value)).toBe('Echo: hi');
    const span = spanNamed('tools/call echo');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.spanContext().traceId).toBe(parent.spanContext().traceId);
    expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(span.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'mcp.protocol.version': '2025-11-25',
      'jsonrpc.request.id': expect.stringMatching(/^\d+$/),
      'gen_ai.tool.name': 'echo',
      'gen_ai.operation.name': 'execute_tool',
      'network.transport': 'pipe',
    });
    // No payloads: neither the arguments nor the result are on the span.
    expect(JSON.stringify(span.attributes)).not.toContain('hi');
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('names prompt spans by the prompt, and puts a resource URI in an attribute, not the name', async () => {
    await client.getPrompt('args-prompt', { city: 'Paris', state: 'TX' });
    expect(spanNamed('prompts/get args-prompt').attributes['gen_ai.prompt.name']).toBe('args-prompt');
    await client.readResource('demo://resource/dynamic/blob/7');
    expect(spanNamed('resources/read').attributes['mcp.resource.uri']).toBe('demo://resource/dynamic/blob/7');
  });

  it("records a server's error: status, error.type and rpc.response.status_code from its JSON-RPC code, the exception by its code", async () => {
    const error = await client.getPrompt('no-such-prompt').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    const { rpcCode, code } = error as ServerError;
    const span = spanNamed('prompts/get no-such-prompt');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe(String(rpcCode));
    expect(span.attributes['rpc.response.status_code']).toBe(String(rpcCode));
    expect(span.events.map((e) => [e.name, e.attributes?.['exception.type']])).toEqual([['exception', code]]);
  });

  it('records a failure that is not the server’s (a timeout) by its typed code', async () => {
    const error = await client
      .callTool('trigger-long-running-operation', { duration: 5, steps: 5 }, { timeout: 50 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    const span = spanNamed('tools/call trigger-long-running-operation');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe((error as McpError).code);
    expect(span.attributes['rpc.response.status_code']).toBeUndefined();
  });
});

describe('trace context in _meta', () => {
  it("classic: the server receives the span's traceparent and the baggage, beside the host's requestMeta", async () => {
    const client = await open({ servers: [scripted()], requestMeta: { 'example.com/tenant': 't1' } });
    try {
      const bag = propagation.createBaggage({ 'user.id': { value: 'u 1' } });
      const { value } = await underParent(() =>
        context.with(propagation.setBaggage(context.active(), bag), () => client.callTool('params', { x: 1 })),
      );
      const meta = JSON.parse(textOf(value))._meta;
      const span = spanNamed('tools/call params');
      const { traceId, spanId } = span.spanContext();
      expect(meta).toEqual({
        'example.com/tenant': 't1',
        traceparent: `00-${traceId}-${spanId}-01`,
        baggage: 'user.id=u%201',
      });
    } finally {
      await client.close();
    }
  });

  it("modern (2026-07-28, the SDK v2 server): the span's traceparent arrives with the protocol's own keys", async () => {
    const client = await open({ servers: [sdkModern()] });
    try {
      const { parent, value } = await underParent(() => client.callTool('meta', {}));
      const { _meta: meta, envelope } = JSON.parse(textOf(value));
      const span = spanNamed('tools/call meta');
      expect(span.attributes['mcp.protocol.version']).toBe('2026-07-28');
      expect(span.spanContext().traceId).toBe(parent.spanContext().traceId);
      expect(meta.traceparent).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
      // The SDK moves the protocol's reserved keys to its envelope: they arrived beside the trace context.
      expect(envelope['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    } finally {
      await client.close();
    }
  });

  it('a given propagator is used instead (W3C trace context alone: no baggage)', async () => {
    const client = await open({ servers: [scripted()], tracing: { propagator: new W3CTraceContextPropagator() } });
    try {
      const bag = propagation.createBaggage({ k: { value: 'v' } });
      const value = await context.with(propagation.setBaggage(context.active(), bag), () =>
        client.callTool('params', {}),
      );
      const meta = JSON.parse(textOf(value))._meta;
      expect(Object.keys(meta)).toEqual(['traceparent']);
    } finally {
      await client.close();
    }
  });
});

describe('tracing over Streamable HTTP', () => {
  it('modern (SDK v2): network.transport tcp, server.address and server.port, and traceparent in _meta', async () => {
    const server = await startFixture(MODERN_SDK_SERVER, ['http']);
    const client = await open({ servers: [streamableHttp({ name: 'm', url: server.url })] });
    try {
      const { _meta: meta } = JSON.parse(textOf(await client.callTool('meta', {})));
      const span = spanNamed('tools/call meta');
      const url = new URL(server.url);
      expect(span.attributes).toMatchObject({
        'network.transport': 'tcp',
        'server.address': url.hostname,
        'server.port': Number(url.port),
        'mcp.protocol.version': '2026-07-28',
      });
      expect(span.attributes['mcp.session.id']).toBeUndefined();
      expect(meta.traceparent).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
    } finally {
      await client.close();
      await server.stop();
    }
  });

  it('classic, with a session: mcp.session.id is the session the server gave', async () => {
    const server = await startFixture('sdk-server.mjs', ['--mode', 'session']);
    const client = await open({ servers: [streamableHttp({ name: 's', url: server.url })] });
    try {
      expect(textOf(await client.callTool('echo', { message: 'x' }))).toBe('Echo: x');
      const span = spanNamed('tools/call echo');
      expect(span.attributes['mcp.session.id']).toMatch(/\S+/);
      expect(span.attributes['network.transport']).toBe('tcp');
    } finally {
      await client.close();
      await server.stop();
    }
  });
});

describe('the tracing option', () => {
  it('false: no span, nothing added to _meta', async () => {
    const client = await open({ servers: [scripted()], tracing: false });
    try {
      const { value } = await underParent(() => client.callTool('params', { x: 1 }));
      expect(JSON.parse(textOf(value))).toEqual({ name: 'params', arguments: { x: 1 } });
      expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['host work']);
    } finally {
      await client.close();
    }
  });

  it("a given tracer gets the spans, not the global provider's", async () => {
    const own = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(own)] }).getTracer('mine');
    const client = await open({ servers: [scripted()], tracing: { tracer } });
    try {
      await client.callTool('params', {});
      expect(own.getFinishedSpans().map((s) => s.name)).toContain('tools/call params');
      expect(exporter.getFinishedSpans()).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('a given tracerProvider gives the tracer, named @mcpc/client', async () => {
    const own = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(own)] });
    const client = await open({ servers: [scripted()], tracing: { tracerProvider } });
    try {
      await client.callTool('params', {});
      const span = own.getFinishedSpans().find((s) => s.name === 'tools/call params');
      expect(span?.instrumentationScope.name).toBe('@mcpc/client');
      expect(exporter.getFinishedSpans()).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('a given api module is the one used (how a browser or Worker bundle turns tracing on)', async () => {
    const used = new Set<string | symbol>();
    const wrapped = {
      ...api,
      trace: new Proxy(api.trace, { get: (target, key) => (used.add(key), Reflect.get(target, key)) }),
    };
    const client = await open({ servers: [scripted()], tracing: { api: wrapped } });
    try {
      await client.callTool('params', {});
      expect(spanNamed('tools/call params').kind).toBe(SpanKind.CLIENT);
      expect(used.has('getTracer')).toBe(true);
      expect(used.has('setSpan')).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('with a no-op tracer and no meter, the request goes out untouched', async () => {
    const noop = { startSpan: () => trace.wrapSpanContext(INVALID_SPAN_CONTEXT) };
    const client = await open({ servers: [scripted()], tracing: { tracer: noop } });
    try {
      expect(JSON.parse(textOf(await client.callTool('params', { x: 1 })))).toEqual({
        name: 'params',
        arguments: { x: 1 },
      });
    } finally {
      await client.close();
    }
  });

  it.each([
    ['on', /tracing must be false or an object/],
    [{ trace: {} }, /unknown keys \(trace\)/],
    [{ api: {} }, /tracing\.api must be the @opentelemetry\/api module/],
    [{ tracer: {} }, /tracing\.tracer must be an OpenTelemetry Tracer/],
    [{ tracerProvider: { getTracer: 1 } }, /tracing\.tracerProvider must be/],
    [{ tracer: { startSpan() {} }, tracerProvider: { getTracer() {} } }, /a tracer or a tracerProvider, not both/],
    [{ propagator: { inject() {}, fields: () => [] } }, /tracing\.propagator must be .*extract/],
    [{ meterProvider: null }, /tracing\.meterProvider must be an OpenTelemetry MeterProvider/],
  ])('refuses %j at construction with a TypeError', (tracing, message) => {
    expect(() => new Client({ tracing: tracing as never })).toThrow(TypeError);
    expect(() => new Client({ tracing: tracing as never })).toThrow(message);
  });
});
