// Tracing's pure parts, case by case: the OTEL_* variables read, the OTLP JSON encoding, `--trace`'s tree.
//
// The end-to-end tests (otel.test.ts) run them through the built binary; these pin each case on its own.
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { DEFAULT_EXPORT_TIMEOUT_MS, exportRequested, keyValueList, otlpPlan } from '../src/telemetry/env.js';
import { exportRequest, nanos } from '../src/telemetry/otlp-json.js';
import { eventDetail, renderTree, type TreeSpan } from '../src/telemetry/tree.js';

describe('exportRequested: whether the environment asks for OTLP export', () => {
  it.each([
    ['nothing set', {}, false],
    ['an endpoint', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, true],
    ['a traces endpoint', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' }, true],
    ['an empty endpoint', { OTEL_EXPORTER_OTLP_ENDPOINT: ' ' }, false],
    ['OTEL_TRACES_EXPORTER=otlp alone (the default endpoint)', { OTEL_TRACES_EXPORTER: 'otlp' }, true],
    ['only a service name', { OTEL_SERVICE_NAME: 'x', OTEL_RESOURCE_ATTRIBUTES: 'a=b' }, false],
    ['the SDK disabled', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_SDK_DISABLED: 'TRUE' }, false],
    ['OTEL_SDK_DISABLED=false', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_SDK_DISABLED: 'false' }, true],
    ['the exporter none', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_TRACES_EXPORTER: 'none' }, false],
  ])('%s', (_what, env, expected) => {
    expect(exportRequested(env)).toBe(expected);
  });
});

describe('otlpPlan: the exporter settings', () => {
  it.each([
    [
      'the general endpoint gets /v1/traces',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' },
      'http://c:4318/v1/traces',
    ],
    ['a trailing slash is not doubled', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c/otlp/' }, 'http://c/otlp/v1/traces'],
    [
      'the traces endpoint is used as given, and wins',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b/t' },
      'https://b/t',
    ],
    ['the default endpoint', { OTEL_TRACES_EXPORTER: 'otlp' }, 'http://localhost:4318/v1/traces'],
  ])('%s', (_what, env, url) => {
    expect(otlpPlan(env)).toMatchObject({ settings: { url }, warnings: [] });
  });

  it('headers (percent-decoded; the traces ones win), timeout, resource', () => {
    const { settings } = otlpPlan({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc, x-a=1',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-a=2',
      OTEL_EXPORTER_OTLP_TIMEOUT: '1500',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attributes,team=t%2C1',
    });
    expect(settings).toEqual({
      url: 'http://c/v1/traces',
      headers: { authorization: 'Bearer abc', 'x-a': '2' },
      timeoutMs: 1500,
      resource: { 'service.name': 'from-attributes', team: 't,1' },
    });
  });

  it('OTEL_SERVICE_NAME wins over the attributes; mcpc by default; a bad timeout is the default', () => {
    const named = otlpPlan({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c',
      OTEL_SERVICE_NAME: 'agent',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=x',
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: 'soon',
    });
    expect(named.settings?.resource['service.name']).toBe('agent');
    expect(named.settings?.timeoutMs).toBe(DEFAULT_EXPORT_TIMEOUT_MS);
    expect(otlpPlan({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c' }).settings?.resource).toEqual({
      'service.name': 'mcpc',
    });
  });

  it.each([
    ['a console exporter', { OTEL_TRACES_EXPORTER: 'console' }, false, /OTLP only, not console/],
    ['otlp and zipkin', { OTEL_TRACES_EXPORTER: 'otlp,zipkin' }, true, /OTLP only, not zipkin/],
    ['grpc', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, true, /http\/json/],
    ['no URL', { OTEL_EXPORTER_OTLP_ENDPOINT: 'c:4318' }, false, /no http\(s\) URL/],
  ])('warns of %s', (_what, env, exports, warning) => {
    const plan = otlpPlan(env);
    expect(plan.settings !== undefined).toBe(exports);
    expect(plan.warnings.join('\n')).toMatch(warning);
  });

  it('keyValueList skips what it cannot read', () => {
    expect(keyValueList('a=1,=2,b,c=%E0%A4%A,d = x=y ')).toEqual({ a: '1', d: 'x=y' });
    expect(keyValueList(undefined)).toEqual({});
  });
});

describe('exportRequest: spans as OTLP JSON', () => {
  it('ids in hex, kinds and statuses as OTLP numbers them, times as exact int64 strings, typed attributes', () => {
    const memory = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'unit' }),
      spanProcessors: [new SimpleSpanProcessor(memory)],
    });
    const tracer = provider.getTracer('scope-a', '1.2.3');
    const root = tracer.startSpan('root', { kind: SpanKind.INTERNAL, startTime: [1_700_000_000, 123_456_789] });
    const child = tracer.startSpan(
      'tools/call x',
      { kind: SpanKind.CLIENT, attributes: { s: 'v', i: 7, d: 1.5, b: true, list: ['a', 'b'] } },
      trace.setSpan(context.active(), root),
    );
    child.addEvent('progress', { progress: 1 });
    child.setStatus({ code: SpanStatusCode.ERROR, message: 'MCPC_X' });
    child.end();
    root.end([1_700_000_001, 5]);
    const body = exportRequest(memory.getFinishedSpans()) as {
      resourceSpans: {
        resource: { attributes: unknown[] };
        scopeSpans: { scope: unknown; spans: Record<string, unknown>[] }[];
      }[];
    };
    const [resourceSpans] = body.resourceSpans;
    expect(resourceSpans?.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'unit' } });
    expect(resourceSpans?.scopeSpans).toHaveLength(1);
    expect(resourceSpans?.scopeSpans[0]?.scope).toEqual({ name: 'scope-a', version: '1.2.3' });
    const [c, r] = resourceSpans!.scopeSpans[0]!.spans;
    expect(r).toMatchObject({
      name: 'root',
      kind: 1,
      startTimeUnixNano: '1700000000123456789',
      endTimeUnixNano: '1700000001000000005',
      status: { code: 0 },
    });
    expect(r?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(r).not.toHaveProperty('parentSpanId');
    expect(c).toMatchObject({
      name: 'tools/call x',
      kind: 3,
      traceId: r?.traceId,
      parentSpanId: r?.spanId,
      status: { code: 2, message: 'MCPC_X' },
      attributes: [
        { key: 's', value: { stringValue: 'v' } },
        { key: 'i', value: { intValue: '7' } },
        { key: 'd', value: { doubleValue: 1.5 } },
        { key: 'b', value: { boolValue: true } },
        { key: 'list', value: { arrayValue: { values: [{ stringValue: 'a' }, { stringValue: 'b' }] } } },
      ],
      events: [{ name: 'progress', attributes: [{ key: 'progress', value: { intValue: '1' } }] }],
    });
  });

  it('nanos keeps every digit past 2^53', () => {
    expect(nanos([1_800_000_000, 999_999_999])).toBe('1800000000999999999');
    expect(nanos([0, 1])).toBe('1');
  });
});

describe('renderTree: --trace', () => {
  const span = (id: string, parentId: string | undefined, name: string, start: number, end: number): TreeSpan => ({
    id,
    parentId,
    name,
    startMs: 1000 + start,
    endMs: 1000 + end,
    error: undefined,
    events: [],
  });

  it('children in the order they started, columns aligned, events under their span, errors said', () => {
    const lines = renderTree([
      span('c', 'a', 'tools/call echo', 30, 32.25),
      span('a', undefined, 'mcpc call', 0, 40),
      { ...span('b', 'a', 'connect', 1, 20), error: undefined },
      { ...span('d', 'b', 'server/discover', 2, 10), error: '-32601' },
      span('e', 'b', 'initialize', 10, 19),
      {
        ...span('f', 'a', 'tasks/get', 33, 34),
        events: [{ name: 'status', timeMs: 1033.5, detail: 'status=working' }],
      },
    ]);
    expect(lines).toEqual([
      'mcpc call               +0.0 ms  40.0 ms',
      '├─ connect              +1.0 ms  19.0 ms',
      '│  ├─ server/discover   +2.0 ms   8.0 ms  error -32601',
      '│  └─ initialize       +10.0 ms   9.0 ms',
      '├─ tools/call echo     +30.0 ms   2.3 ms',
      '└─ tasks/get           +33.0 ms   1.0 ms',
      '   · status            +33.5 ms           status=working',
    ]);
  });

  it('a span whose parent is elsewhere (another process) is a root; a server name cannot drive the terminal', () => {
    const lines = renderTree([span('x', 'remote', 'tools/call \u001b]52;c;x\u0007', 0, 1)]);
    expect(lines).toEqual(['tools/call \\x1b]52;c;x\\x07  +0.0 ms  1.0 ms']);
    expect(renderTree([])).toEqual([]);
  });

  it('eventDetail: scalars on one line, values cut, no stack trace or message', () => {
    expect(
      eventDetail({
        'exception.type': 'MCPC_X',
        'exception.message': 'boom',
        'exception.stacktrace': 'at x\nat y',
        long: 'y'.repeat(70),
        multi: 'a\nb',
        list: ['no'],
      }),
    ).toBe(`exception.type=MCPC_X long=${'y'.repeat(60)}… multi=a b`);
  });
});
