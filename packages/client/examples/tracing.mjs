// @ts-check
// Traces a client's requests with OpenTelemetry and prints the span tree: the host's span, a CLIENT span per
// request (the MCP semantic conventions' names and attributes, progress as events), and a SERVER span for the
// request the server makes of the client (sampling) during a call. Build the packages first (npx -y pnpm@10.34.8 build), then
// from a directory outside the workspace (there npx finds the test fixtures' copy of server-everything):
//
//   node /path/to/packages/client/examples/tracing.mjs
//
// Production code sends the spans to a collector instead: a BatchSpanProcessor with an OTLP exporter, or the
// NodeSDK from @opentelemetry/sdk-node, which makes the same three settings.
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Client, stdio, textOf } from '@mcpc/client';

// The setup: a context manager, and a provider whose spans go to an exporter. The client needs nothing more.
const exporter = new InMemorySpanExporter();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));

const client = new Client({
  servers: [stdio({ name: 'everything', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] })],
  onSampling: async () => ({ model: 'example-model', role: 'assistant', content: { type: 'text', text: 'Hi.' } }),
});

try {
  await client.connect();
  // The host's own span: the client's spans for the calls below are its children, in one trace.
  await trace.getTracer('example-host').startActiveSpan('answer the user', async (span) => {
    try {
      console.log(textOf(await client.callTool('echo', { message: 'traced' })));
      await client.callTool('trigger-long-running-operation', { duration: 0.2, steps: 2 }, { onProgress: () => {} });
      await client.callTool('trigger-sampling-request', { prompt: 'Say hi', maxTokens: 10 });
    } finally {
      span.end();
    }
  });
} finally {
  await client.close();
}

// The tree of the host's trace: name, kind, the attributes that name the operation, and the events.
const spans = exporter.getFinishedSpans();
const [root] = spans.filter((s) => s.name === 'answer the user');
const KINDS = ['INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];
const SHOWN = ['mcp.method.name', 'gen_ai.tool.name', 'network.transport'];
/** @param {import('@opentelemetry/sdk-trace-base').ReadableSpan} span @param {string} indent */
function print(span, indent) {
  const attributes = SHOWN.filter((key) => span.attributes[key] !== undefined).map(
    (key) => `${key}=${span.attributes[key]}`,
  );
  const events = span.events.map((e) => e.name);
  console.log(
    `${indent}${span.name} [${KINDS[span.kind]}]${attributes.length > 0 ? ` ${attributes.join(' ')}` : ''}` +
      `${events.length > 0 ? ` events: ${events.join(', ')}` : ''}`,
  );
  for (const child of spans.filter((s) => s.parentSpanContext?.spanId === span.spanContext().spanId))
    print(child, `${indent}  `);
}
print(root, '');
// server-everything puts no trace context in its request's _meta, so the SERVER span starts a trace of its own. A
// server that does (the conventions' way) makes it a child of the span it sent the request from.
for (const span of spans.filter((s) => s.kind === 1)) print(span, 'the server asked: ');
