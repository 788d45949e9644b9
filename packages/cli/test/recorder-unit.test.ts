// The CLI's own span recorder, case by case: ids, parentage, limits, events, exceptions, sampling, the export queue.
//
// The last cases cross-check it against the OpenTelemetry SDK (a devDependency): the same span, the same OTLP JSON.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  context,
  propagation,
  trace,
  type Span,
  type SpanContext,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, limitsFromEnv, type SpanLimits } from '../src/telemetry/attributes.js';
import { OtlpJsonExporter } from '../src/telemetry/otlp-exporter.js';
import { exportRequest } from '../src/telemetry/otlp-json.js';
import { BatchProcessor, MemoryProcessor, batchFromEnv } from '../src/telemetry/processors.js';
import { parentFrom, parseBaggage, parseTraceparent } from '../src/telemetry/propagation.js';
import { samplerFromEnv, traceIdRatio, type Sampler } from '../src/telemetry/sampler.js';
import type { FinishedSpan, RecordingSpan } from '../src/telemetry/span.js';
import { Recorder } from '../src/telemetry/tracer.js';

const contextManager = new AsyncLocalStorageContextManager();
beforeAll(() => void context.setGlobalContextManager(contextManager.enable()));
afterAll(() => void context.disable());

/** A recorder keeping its spans in memory, with the sampler and limits asked for. */
function recorder(options: { sampler?: Sampler; limits?: SpanLimits } = {}): {
  tracer: Tracer;
  spans: FinishedSpan[];
} {
  const memory = new MemoryProcessor();
  const provider = new Recorder({
    resource: { attributes: { 'service.name': 'unit' } },
    processors: [memory],
    ...options,
  });
  return { tracer: provider.getTracer('unit', '1.0.0'), spans: memory.spans };
}

const PARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('ids and parentage', () => {
  it('W3C ids: 16 random bytes and 8, lower-case hex, each new', () => {
    const { tracer } = recorder();
    const contexts = Array.from({ length: 200 }, () => tracer.startSpan('s').spanContext());
    for (const c of contexts) {
      expect(c.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(c.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(c.traceFlags).toBe(TraceFlags.SAMPLED);
    }
    expect(new Set(contexts.map((c) => c.traceId)).size).toBe(200);
    expect(new Set(contexts.map((c) => c.spanId)).size).toBe(200);
  });

  it('a child takes its trace id and parent from the context; root: true starts a new trace', () => {
    const { tracer } = recorder();
    const parent = tracer.startSpan('parent');
    const inside = trace.setSpan(ROOT_CONTEXT, parent);
    const child = tracer.startSpan('child', {}, inside) as RecordingSpan;
    expect(child.spanContext().traceId).toBe(parent.spanContext().traceId);
    expect(child.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    const root = tracer.startSpan('root', { root: true }, inside) as RecordingSpan;
    expect(root.spanContext().traceId).not.toBe(parent.spanContext().traceId);
    expect(root.parentSpanContext).toBeUndefined();
  });

  it('startActiveSpan, its three forms: the span is active inside, the function its value', async () => {
    const { tracer } = recorder();
    const parent = tracer.startSpan('p');
    const activeIn = (span: Span): boolean => trace.getActiveSpan() === span;
    expect(tracer.startActiveSpan('a', (span) => [activeIn(span), span.end()][0])).toBe(true);
    expect(tracer.startActiveSpan('b', { kind: SpanKind.CLIENT }, (span) => (span as RecordingSpan).kind)).toBe(
      SpanKind.CLIENT,
    );
    const child = tracer.startActiveSpan('c', {}, trace.setSpan(ROOT_CONTEXT, parent), async (span) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return activeIn(span) ? (span as RecordingSpan) : undefined;
    });
    expect((await child)?.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
  });

  it('TRACEPARENT, TRACESTATE and BAGGAGE make a remote parent; a malformed one is no parent', () => {
    const { tracer } = recorder();
    const parent = parentFrom({ TRACEPARENT: PARENT, TRACESTATE: 'a=1,b=2', BAGGAGE: 'user=al%20x;p=1,bad,k=v' });
    const span = tracer.startSpan('run', {}, parent) as RecordingSpan;
    expect(span.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(span.parentSpanContext).toMatchObject({ spanId: 'b7ad6b7169203331', isRemote: true });
    expect(span.spanContext().traceState?.serialize()).toBe('a=1,b=2');
    const baggage = propagation.getBaggage(parent);
    expect(baggage?.getEntry('user')).toMatchObject({ value: 'al x' });
    expect(baggage?.getEntry('user')?.metadata?.toString()).toBe('p=1');
    expect(baggage?.getEntry('k')?.value).toBe('v');
    for (const bad of [
      'ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      '00-00000000000000000000000000000000-b7ad6b7169203331-01',
      '00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01',
      '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra',
      '00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01',
    ])
      expect(parseTraceparent(bad)).toBeUndefined();
    expect(parseTraceparent('01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00-later')?.traceFlags).toBe(0);
    expect(parseBaggage('=x,a=%E0%A4%A,b=1')).toEqual({ b: { value: '1' } });
    expect(parentFrom({})).toBe(ROOT_CONTEXT);
  });
});

describe('a span within its limits', () => {
  const limits: SpanLimits = {
    ...DEFAULT_LIMITS,
    attributeCount: 3,
    attributeValueLength: 4,
    eventCount: 2,
    linkCount: 1,
  };

  it('attributes: the API value types only, a count (new keys dropped and counted), values cut', () => {
    const { tracer } = recorder({ limits });
    const span = tracer.startSpan('s', { attributes: { a: 'abcdefgh' } }) as RecordingSpan;
    span.setAttribute('b', ['long-one', 'x', null]);
    span.setAttribute('c', 1.5);
    span.setAttribute('d', true);
    span.setAttribute('a', 'replaced');
    span.setAttributes({ e: 1, f: { nested: 1 } as never, g: [1, 'mixed'] as never, '': 'no key' });
    span.setAttribute('h', undefined as never);
    expect(span.attributes).toEqual({ a: 'repl', b: ['long', 'x', null], c: 1.5 });
    expect(span.droppedAttributesCount).toBe(2);
  });

  it('events keep the latest (the oldest dropped and counted); links too; times given three ways', () => {
    const { tracer } = recorder({ limits });
    const other: SpanContext = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 };
    const span = tracer.startSpan('s', { links: [{ context: other }], startTime: [100, 0] }) as RecordingSpan;
    span.addLink({ context: other, attributes: { why: 'retry' } });
    span.addEvent('one');
    span.addEvent('two', new Date(100_500));
    span.addEvent('three', { progress: 3 }, [101, 7]);
    expect(span.events.map((e) => [e.name, e.time])).toEqual([
      ['two', [100, 500_000_000]],
      ['three', [101, 7]],
    ]);
    expect(span.droppedEventsCount).toBe(1);
    expect(span.links).toEqual([{ context: other, attributes: { why: 'retr' } }]);
    expect(span.droppedLinksCount).toBe(1);
  });

  it('recordException: exception.type (the code, else the name), .message, .stacktrace; a string is a message', () => {
    const { tracer } = recorder();
    const span = tracer.startSpan('s') as RecordingSpan;
    const coded = Object.assign(new TypeError('boom'), { code: 'MCPC_X' });
    span.recordException(coded);
    span.recordException(new RangeError('out'));
    span.recordException('plain words');
    span.recordException({} as never);
    expect(span.events.map((e) => e.attributes)).toEqual([
      { 'exception.type': 'MCPC_X', 'exception.message': 'boom', 'exception.stacktrace': coded.stack },
      expect.objectContaining({ 'exception.type': 'RangeError', 'exception.message': 'out' }),
      { 'exception.message': 'plain words' },
    ]);
    expect(span.events.every((e) => e.name === 'exception')).toBe(true);
  });

  it('status: OK is final, a message only with ERROR; ends once, then records nothing', () => {
    const { tracer, spans } = recorder();
    const span = tracer.startSpan('s') as RecordingSpan;
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'first' });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'first' });
    span.setStatus({ code: SpanStatusCode.UNSET });
    span.setStatus({ code: SpanStatusCode.OK, message: 'dropped' });
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'too late' });
    expect(span.status).toEqual({ code: SpanStatusCode.OK });
    expect(span.isRecording()).toBe(true);
    span.end();
    span.end();
    span.setAttribute('after', 1).addEvent('after').updateName('renamed');
    expect(span.isRecording()).toBe(false);
    expect([spans.length, span.name, span.attributes, span.events]).toEqual([1, 's', {}, []]);
    const early = tracer.startSpan('early', { startTime: [200, 0] });
    early.end([199, 0]);
    expect((early as RecordingSpan).endTime).toEqual([200, 0]);
  });

  it('the OTEL_*_LIMIT variables, the span ones first', () => {
    expect(limitsFromEnv({})).toEqual(DEFAULT_LIMITS);
    expect(
      limitsFromEnv({
        OTEL_ATTRIBUTE_COUNT_LIMIT: '9',
        OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT: '5',
        OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: '64',
        OTEL_SPAN_EVENT_COUNT_LIMIT: 'many',
      }),
    ).toMatchObject({ attributeCount: 5, attributeValueLength: 64, eventCount: 128 });
  });
});

describe('sampling (OTEL_TRACES_SAMPLER)', () => {
  it('always_off: a span that records nothing but carries a valid context; parent-based follows the parent', () => {
    const off = recorder({ sampler: samplerFromEnv({ OTEL_TRACES_SAMPLER: 'always_off' }).sampler });
    const span = off.tracer.startSpan('s');
    expect(span.isRecording()).toBe(false);
    expect(span.spanContext().traceFlags).toBe(TraceFlags.NONE);
    expect(span.spanContext().traceId).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
    span.end();
    expect(off.spans).toEqual([]);
    const byParent = recorder({ sampler: samplerFromEnv({}).sampler });
    const unsampled = parentFrom({ TRACEPARENT: PARENT.replace(/01$/, '00') });
    expect(byParent.tracer.startSpan('s', {}, unsampled).isRecording()).toBe(false);
    expect(byParent.tracer.startSpan('s', {}, parentFrom({ TRACEPARENT: PARENT })).isRecording()).toBe(true);
  });

  it('traceidratio decides as the SDK does for the same trace ids; bad values are warned of', () => {
    const sdk = new TraceIdRatioBasedSampler(0.3);
    const ours = traceIdRatio(0.3);
    const ids = Array.from({ length: 500 }, () => recorder().tracer.startSpan('s').spanContext().traceId);
    const sdkSays = ids.map((id) => sdk.shouldSample(ROOT_CONTEXT, id).decision === 2);
    expect(ids.map((id) => ours(ROOT_CONTEXT, id) === 'sample')).toEqual(sdkSays);
    expect(sdkSays.filter(Boolean).length).toBeGreaterThan(50);
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: 'jaeger_remote' }).warnings).toEqual([
      'OTEL_TRACES_SAMPLER=jaeger_remote: mcpc does not know this sampler; parentbased_always_on is used',
    ]);
    const bad = samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' });
    expect(bad.warnings).toEqual(['OTEL_TRACES_SAMPLER_ARG=2: a ratio between 0 and 1 is expected; 1 is used']);
  });
});

/** A loopback OTLP receiver that holds its answers until `release()`. */
async function holdingReceiver(): Promise<{ url: string; bodies: string[]; release(): void; close(): Promise<void> }> {
  const bodies: string[] = [];
  let held: ServerResponse[] = [];
  let holding = true;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      if (holding) held.push(res);
      else res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    bodies,
    release: () => {
      holding = false;
      for (const res of held) res.end('{}');
      held = [];
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const spanCount = (bodies: readonly string[]): number =>
  bodies
    .map((b) => JSON.parse(b) as { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] })
    .flatMap((r) => r.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans))).length;

describe('the export queue', () => {
  it('one export at a time; past the bound, spans are dropped and counted; a flush sends the rest', async () => {
    const otlp = await holdingReceiver();
    try {
      const exporter = new OtlpJsonExporter({ url: otlp.url, headers: {}, timeoutMs: 5_000, resource: {} });
      const batch = new BatchProcessor(exporter, { maxQueueSize: 4, maxExportBatchSize: 2, scheduledDelayMs: 60_000 });
      const provider = new Recorder({ resource: { attributes: {} }, processors: [batch] });
      const tracer = provider.getTracer('unit');
      for (let i = 0; i < 2; i++) tracer.startSpan(`first ${i}`).end();
      await expect.poll(() => otlp.bodies.length).toBe(1);
      // The first batch is out (and held): four more wait, the next two are dropped.
      for (let i = 0; i < 6; i++) tracer.startSpan(`more ${i}`).end();
      expect(batch.dropped).toBe(2);
      otlp.release();
      await provider.shutdown();
      tracer.startSpan('after shutdown').end();
      expect(spanCount(otlp.bodies)).toBe(6);
      expect(exporter.failure).toBeUndefined();
    } finally {
      await otlp.close();
    }
  });

  it('a part batch leaves after the delay; OTEL_BSP_* read as the SDK reads them', async () => {
    const otlp = await holdingReceiver();
    otlp.release();
    try {
      const exporter = new OtlpJsonExporter({ url: otlp.url, headers: {}, timeoutMs: 5_000, resource: {} });
      const batch = new BatchProcessor(exporter, { maxQueueSize: 10, maxExportBatchSize: 5, scheduledDelayMs: 20 });
      new Recorder({ resource: { attributes: {} }, processors: [batch] }).getTracer('unit').startSpan('one').end();
      await expect.poll(() => otlp.bodies.length).toBe(1);
      expect(batchFromEnv({})).toEqual({ maxQueueSize: 2048, maxExportBatchSize: 512, scheduledDelayMs: 5000 });
      expect(batchFromEnv({ OTEL_BSP_MAX_QUEUE_SIZE: '100', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '500' })).toMatchObject({
        maxQueueSize: 100,
        maxExportBatchSize: 100,
      });
    } finally {
      await otlp.close();
    }
  });
});

describe('cross-check: the same span recorded by the OpenTelemetry SDK, the same OTLP JSON', () => {
  /** Records one trace's worth of spans on `tracer`, every time given, the parent a fixed remote context. */
  function script(tracer: Tracer): void {
    const parent = parentFrom({ TRACEPARENT: PARENT, TRACESTATE: 'vendor=x' });
    const root = tracer.startSpan('mcpc call', { kind: SpanKind.INTERNAL, startTime: [1_700_000_000, 1] }, parent);
    const error = Object.assign(new Error('no such tool'), { code: 'MCPC_X' });
    const child = tracer.startSpan(
      'tools/call echo',
      {
        kind: SpanKind.CLIENT,
        startTime: [1_700_000_000, 500],
        attributes: { 'mcp.method.name': 'tools/call', n: 3, d: 0.25, ok: false, list: ['a', 'bbbbbbbbbb'] },
        links: [{ context: { traceId: 'c'.repeat(32), spanId: 'd'.repeat(16), traceFlags: 1 }, attributes: { k: 1 } }],
      },
      trace.setSpan(parent, root),
    );
    child.setAttribute('late', 'value-longer-than-the-limit');
    child.addEvent('progress', { progress: 1, total: 2 }, [1_700_000_000, 900]);
    child.recordException(error, [1_700_000_001, 0]);
    child.setStatus({ code: SpanStatusCode.ERROR, message: 'MCPC_X' });
    child.end([1_700_000_001, 5]);
    root.setAttribute('process.exit.code', 5);
    root.end([1_700_000_002, 0]);
  }

  /** Both bodies with the generated span ids named by span, so that they compare. */
  const normalized = (spans: readonly FinishedSpan[]): unknown => {
    const names = new Map(spans.map((s) => [s.spanContext().spanId, s.name]));
    return JSON.parse(JSON.stringify(exportRequest(spans)), (key, value: unknown) =>
      (key === 'spanId' || key === 'parentSpanId') && typeof value === 'string' ? (names.get(value) ?? value) : value,
    ) as unknown;
  };

  it('attributes, kinds, times, events, links, exception, status, limits, parent and trace state', () => {
    const attributes = { 'service.name': 'cross', 'service.version': '1' };
    const memory = new InMemorySpanExporter();
    const sdk = new BasicTracerProvider({
      resource: resourceFromAttributes(attributes),
      spanProcessors: [new SimpleSpanProcessor(memory)],
      spanLimits: { attributeCountLimit: 5, attributeValueLengthLimit: 8 },
    });
    script(sdk.getTracer('@mcpc/cli', '0.1.0'));
    const ours = new MemoryProcessor();
    const provider = new Recorder({
      resource: { attributes },
      processors: [ours],
      limits: { ...DEFAULT_LIMITS, attributeCount: 5, attributeValueLength: 8 },
    });
    script(provider.getTracer('@mcpc/cli', '0.1.0'));
    const expected = normalized(memory.getFinishedSpans());
    expect(normalized(ours.spans)).toEqual(expected);
    // The check sees what matters: a dropped attribute, a cut value, the exception event.
    expect(JSON.stringify(expected)).toContain('"droppedAttributesCount":1');
    expect(JSON.stringify(expected)).toContain('"stringValue":"bbbbbbbb"');
    expect(JSON.stringify(expected)).toContain('exception.stacktrace');
  });
});
