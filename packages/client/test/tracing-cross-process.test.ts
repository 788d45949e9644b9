// One trace across processes: a host span, the client's CLIENT span, a traced server's SERVER span and its own work.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { context, propagation, SpanKind, type Span } from '@opentelemetry/api';
import { hrTimeToMilliseconds } from '@opentelemetry/core';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Client, stdio, streamableHttp, textOf, type ServerConfig } from '@mcpc/client';
import { startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { modernFixturePath } from './helpers.js';
import { exporter, hostTracer, installGlobalTracing } from './tracing-otel.js';

// The server (tooling/fixtures/modern/otel-server.mjs) runs the OTel SDK in its own process: it extracts the
// trace context from each request's _meta, makes SERVER and INTERNAL spans, and reports them through a tool.
const OTEL_SERVER = modernFixturePath('otel-server.mjs');

beforeAll(installGlobalTracing);
beforeEach(() => exporter.reset());

/** A span as the server process reports it (its `spans` tool). */
interface RemoteSpan {
  readonly name: string;
  readonly kind: 'SERVER' | 'INTERNAL' | 'CLIENT';
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly startMs: number;
  readonly durationMs: number;
  readonly status: 'UNSET' | 'OK' | 'ERROR';
  readonly metaTraceparent?: string | null;
  readonly headerTraceparent?: string | null;
  readonly baggage?: readonly string[];
}

/** A span of either process, for drawing the trace as one tree. */
interface Node {
  readonly name: string;
  readonly kind: string;
  readonly process: 'test' | 'server';
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly startMs: number;
  readonly durationMs: number;
}

const KINDS: Record<number, string> = { [SpanKind.INTERNAL]: 'INTERNAL', [SpanKind.CLIENT]: 'CLIENT' };
const local = (span: ReadableSpan): Node => ({
  name: span.name,
  kind: KINDS[span.kind] ?? String(span.kind),
  process: 'test',
  spanId: span.spanContext().spanId,
  parentSpanId: span.parentSpanContext?.spanId ?? null,
  startMs: hrTimeToMilliseconds(span.startTime),
  durationMs: hrTimeToMilliseconds(span.duration),
});
const remote = (span: RemoteSpan): Node => ({ ...span, process: 'server' });

/**
 * The trace as indented text, children under their parent by start time. With `timings`, each line also
 * says when the span started (from the root's start) and how long it took.
 */
function spanTree(nodes: readonly Node[], timings: boolean): string {
  const ids = new Set(nodes.map((n) => n.spanId));
  const roots = nodes.filter((n) => n.parentSpanId === null || !ids.has(n.parentSpanId));
  const origin = Math.min(...roots.map((n) => n.startMs));
  const lines: string[] = [];
  const draw = (node: Node, depth: number): void => {
    const time = timings ? `  +${(node.startMs - origin).toFixed(1)} ms, ${node.durationMs.toFixed(1)} ms` : '';
    lines.push(`${'  '.repeat(depth)}${node.name} [${node.kind}, ${node.process}]${time}`);
    const children = nodes.filter((n) => n.parentSpanId === node.spanId).sort((a, b) => a.startMs - b.startMs);
    for (const child of children) draw(child, depth + 1);
  };
  for (const root of roots) draw(root, 0);
  return lines.join('\n');
}

/** Runs `fn` inside a host span carrying some baggage, returning the span and what `fn` gave. */
async function underHostSpan<T>(fn: () => Promise<T>): Promise<{ host: Span; value: T }> {
  const bag = propagation.createBaggage({ 'user.id': { value: 'u-1' } });
  return context.with(propagation.setBaggage(context.active(), bag), () =>
    hostTracer.startActiveSpan('host work', async (host) => {
      try {
        return { host, value: await fn() };
      } finally {
        host.end();
      }
    }),
  );
}

const CASES = [
  { transport: 'stdio', protocol: 'auto', version: '2026-07-28' },
  { transport: 'stdio', protocol: 'legacy', version: '2025-11-25' },
  { transport: 'streamable-http', protocol: 'auto', version: '2026-07-28' },
  { transport: 'streamable-http', protocol: 'legacy', version: '2025-11-25' },
] as const;

describe.each(CASES)('a traced server over $transport, MCP $version', ({ transport, protocol, version }) => {
  let http: Fixture | undefined;
  let client: Client;

  beforeAll(async () => {
    let config: ServerConfig;
    if (transport === 'stdio') {
      config = stdio({ name: 'otel', command: process.execPath, args: [OTEL_SERVER, 'stdio'], protocol });
    } else {
      http = await startFixture(OTEL_SERVER, ['http']);
      config = streamableHttp({ name: 'otel', url: http.url, protocol });
    }
    client = new Client({ servers: [config], deprecationNotices: false });
    await client.connect();
    // The tool list the client fetches before a first call (for its schemas) comes now, outside the traces.
    await client.listTools();
  });
  afterAll(async () => {
    await client.close();
    await http?.stop();
  });

  /** The server's finished spans of one trace. */
  const serverSpans = async (traceId: string): Promise<RemoteSpan[]> =>
    (JSON.parse(textOf(await client.callTool('spans', {}))) as RemoteSpan[]).filter((s) => s.traceId === traceId);

  it('one trace id end to end: host span → CLIENT span → the server’s SERVER span → its INTERNAL span', async () => {
    const { host, value } = await underHostSpan(() => client.callTool('get-weather', { city: 'Paris' }));
    expect(textOf(value)).toBe('sunny in Paris');
    expect(client.server('otel').protocolVersion).toBe(version);
    const { traceId } = host.spanContext();
    const ours = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
    const theirs = await serverSpans(traceId);

    const nodes = [...ours.map(local), ...theirs.map(remote)];
    expect(spanTree(nodes, false)).toBe(
      [
        'host work [INTERNAL, test]',
        '  tools/call get-weather [CLIENT, test]',
        '    tools/call get-weather [SERVER, server]',
        '      fetch forecast [INTERNAL, server]',
      ].join('\n'),
    );

    // The parent links the tree rests on, and the context the server saw.
    const callSpan = ours.find((s) => s.kind === SpanKind.CLIENT)!;
    const serverSpan = theirs.find((s) => s.kind === 'SERVER')!;
    const internal = theirs.find((s) => s.kind === 'INTERNAL')!;
    expect(callSpan.parentSpanContext?.spanId).toBe(host.spanContext().spanId);
    expect(serverSpan.parentSpanId).toBe(callSpan.spanContext().spanId);
    expect(internal.parentSpanId).toBe(serverSpan.spanId);
    const traceparent = `00-${traceId}-${callSpan.spanContext().spanId}-01`;
    expect(serverSpan.metaTraceparent).toBe(traceparent);
    expect(serverSpan.baggage).toEqual(['user.id']);
    // Over HTTP the same context also came in the headers; over stdio there are none.
    expect(serverSpan.headerTraceparent).toBe(transport === 'stdio' ? null : traceparent);
    // The server's work happened inside the client's call, as the timings show.
    expect(serverSpan.durationMs).toBeGreaterThanOrEqual(internal.durationMs);
    expect(hrTimeToMilliseconds(callSpan.duration)).toBeGreaterThanOrEqual(internal.durationMs);
  });

  it("a call that fails in the server: the server's SERVER span, in error, is still the client span's child", async () => {
    const { host, value } = await underHostSpan(() => client.callTool('fail', {}));
    expect(value.isError).toBe(true);
    const { traceId } = host.spanContext();
    const callSpan = exporter.getFinishedSpans().find((s) => s.name === 'tools/call fail')!;
    const [serverSpan, ...others] = await serverSpans(traceId);
    expect(others).toEqual([]);
    expect(serverSpan).toMatchObject({
      name: 'tools/call fail',
      kind: 'SERVER',
      status: 'ERROR',
      parentSpanId: callSpan.spanContext().spanId,
    });
  });

  it('no host span: the CLIENT span is the root, and the server still joins its trace', async () => {
    await client.callTool('get-weather', { city: 'Oslo' });
    const callSpan = exporter.getFinishedSpans().find((s) => s.name === 'tools/call get-weather')!;
    expect(callSpan.parentSpanContext).toBeUndefined();
    const theirs = await serverSpans(callSpan.spanContext().traceId);
    expect(theirs.map((s) => [s.name, s.kind])).toEqual([
      ['fetch forecast', 'INTERNAL'],
      ['tools/call get-weather', 'SERVER'],
    ]);
    expect(theirs[1]!.parentSpanId).toBe(callSpan.spanContext().spanId);
  });
});
