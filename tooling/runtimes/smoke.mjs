// The smoke run where processes exist (Node, Deno, Bun), printing one JSON line.
//
// It covers stdio and Streamable HTTP (the default client and fetch) against server-everything, the schema verdicts,
// the feature scenario against the demo server in both eras, OAuth client credentials on its protected endpoint, and
// tracing: the client finds the installed @opentelemetry/api by itself and traces with the global provider.
//
// usage: <runtime> smoke.mjs <node-binary> <server-everything script> <everything url> <demo url> <demo protected url>
import * as otel from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Client, stdio, streamableHttp } from '@mcpc/client';
import { clientCredentials, exercise, scenario, schemaVerdicts } from './smoke-core.mjs';

/** Handles that are this script's own output, not the clients'. */
const STDIO_HANDLES = new Set(['TTYWrap', 'PipeWrap', 'CloseReq', 'FSReqCallback']);

const [node, everything, url, demo, protectedUrl] = process.argv.slice(2);
if ([node, everything, url, demo, protectedUrl].includes(undefined)) {
  console.error(
    'usage: smoke.mjs <node-binary> <server-everything script> <everything url> <demo url> <demo protected url>',
  );
  process.exit(2);
}

const report = {
  stdio: await exercise(stdio({ name: 'everything', command: node, args: [everything, 'stdio'] })),
  http: await exercise(streamableHttp({ name: 'everything', url })),
  httpFetch: await exercise(streamableHttp({ name: 'everything', url, httpClient: 'fetch' })),
  schema: schemaVerdicts(),
  modern: await scenario(demo, undefined),
  legacy: await scenario(demo, 'legacy'),
  clientCredentials: await clientCredentials(protectedUrl),
  tracing: await traced(),
};
/** The spans of a stdio call with a global tracer provider and no `tracing` option: the API was found by itself. */
async function traced() {
  const exporter = new InMemorySpanExporter();
  otel.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  const client = new Client({ servers: [stdio({ name: 'everything', command: node, args: [everything, 'stdio'] })] });
  try {
    await client.connect();
    await client.callTool('echo', { message: 'traced' });
  } catch (error) {
    return { error: String(error?.message).slice(0, 300) };
  } finally {
    await client.close();
    otel.trace.disable();
  }
  return exporter
    .getFinishedSpans()
    .filter((span) => span.name.startsWith('tools/'))
    .map((span) => [span.name, otel.SpanKind[span.kind], span.attributes['network.transport']]);
}

// Every client is closed: what is still open, where the runtime tells (Node and Deno list their handles;
// Bun's list is always empty). The test also times how soon after this line the process ends on its own.
await new Promise((resolve) => setTimeout(resolve, 50));
report.openAfterClose = process.getActiveResourcesInfo?.().filter((r) => !STDIO_HANDLES.has(r)) ?? [];
console.log(JSON.stringify(report));
