// The smoke run where only web APIs exist (a browser page, a Worker), over fetch.
//
// Streamable HTTP over fetch against server-everything, the schema verdicts, the feature scenario against the demo
// server in both eras, OAuth client credentials on its protected endpoint, and tracing with the OpenTelemetry API
// handed to the client (nothing is loaded by itself here). Bundled by the test with the `browser` or `workerd`
// condition.

// First: the census sees every timer the libraries set.
import { openTimers } from './timer-census.mjs';
import * as otel from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Client, stdio, streamableHttp } from '@mcpc/client';
import { clientCredentials, exercise, scenario, schemaVerdicts } from './smoke-core.mjs';

export { tokenExchange } from './smoke-core.mjs';

/**
 * What a runtime without processes gives for server-everything at `url`, the demo server at `demo`, and
 * its OAuth-protected endpoint at `protectedUrl`.
 */
export async function webSmoke(url, demo, protectedUrl) {
  return {
    http: await exercise(streamableHttp({ name: 'everything', url })),
    // A stdio server cannot run here: a typed error that says why, not a broken bundle.
    stdio: await exercise(stdio({ name: 'everything', command: 'node', args: ['server.js'] })),
    schema: schemaVerdicts(),
    modern: await scenario(demo, undefined),
    legacy: await scenario(demo, 'legacy'),
    clientCredentials: await clientCredentials(protectedUrl),
    tracing: await traced(url),
    // Every client is closed: no timer of theirs may still be scheduled.
    openTimers: await new Promise((resolve) => setTimeout(() => resolve(openTimers()), 50)),
  };
}

/** The CLIENT spans of a call traced with the API and a tracer given (`tracing: { api, tracer }`), and a default client's. */
async function traced(url) {
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('page');
  const spans = async (tracing) => {
    exporter.reset();
    const client = new Client({ servers: [streamableHttp({ name: 'everything', url })], tracing });
    try {
      await client.connect();
      await client.callTool('echo', { message: 'traced' });
    } finally {
      await client.close();
    }
    return exporter
      .getFinishedSpans()
      .filter((span) => span.name.startsWith('tools/'))
      .map((span) => [span.name, otel.SpanKind[span.kind], span.attributes['network.transport']]);
  };
  try {
    // Given the API, the client traces; not given it, the client finds none here and traces nothing.
    return { given: await spans({ api: otel, tracer }), absent: await spans(undefined) };
  } catch (error) {
    return { error: String(error?.message).slice(0, 300) };
  }
}
