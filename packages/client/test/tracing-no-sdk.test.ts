// Tracing before any SDK is registered (a file of its own: a fresh process, the API's globals untouched).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { Client, textOf } from '@mcpc/client';
import { scripted } from './helpers.js';
import { exporter, installGlobalTracing } from './tracing-otel.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

/** The `_meta` the scripted server received with the call. */
const metaOf = async (client: Client): Promise<unknown> =>
  JSON.parse(textOf(await client.callTool('params', {})))._meta;

describe('with @opentelemetry/api installed and no SDK registered', () => {
  let client: Client;
  beforeAll(async () => {
    // A context manager, so that a context set by the host reaches the client; no tracer provider yet.
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    client = new Client({ deprecationNotices: false, servers: [scripted()] });
    await client.connect();
  });
  afterAll(() => client.close());

  it('a request goes out untouched: no span, nothing in _meta', async () => {
    expect(await metaOf(client)).toBeUndefined();
  });

  it("a span context the host carries (no SDK: a remote parent) still goes on in the request's _meta", async () => {
    const remote = { traceId: TRACE, spanId: SPAN, traceFlags: TraceFlags.SAMPLED, isRemote: true };
    const meta = await context.with(trace.setSpanContext(ROOT_CONTEXT, remote), () => metaOf(client));
    expect(meta).toEqual({ traceparent: `00-${TRACE}-${SPAN}-01` });
  });

  it('an SDK registered after connect is used from the next request on', async () => {
    installGlobalTracing();
    const meta = (await metaOf(client)) as { traceparent?: string };
    const [span] = exporter.getFinishedSpans().filter((s) => s.name === 'tools/call params');
    expect(span).toBeDefined();
    expect(meta.traceparent).toBe(`00-${span!.spanContext().traceId}-${span!.spanContext().spanId}-01`);
  });
});
