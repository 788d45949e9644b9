// mcpc traced by the real OpenTelemetry SDK: a global BasicTracerProvider with a BatchSpanProcessor, spans dropped.
//
// As a host sets it up (what NodeSDK registers, less the exporter's network): AsyncLocalStorage context,
// W3C trace context and baggage propagation, the provider global. Every request gets a sampled CLIENT span
// (a root: no host span around the calls) that is ended, batched and handed to an exporter that counts it and
// drops it, so the figure is the client's and the SDK's work, not an exporter's I/O.
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import * as mcpc from '@mcpc/client';
import { connectWith } from './mcpc.mjs';
import '@mcpc/transport-stdio';
import '@mcpc/transport-streamable-http';
import 'node:http';

export const label = 'mcpc, OpenTelemetry SDK';

let exported = 0;
/** A SpanExporter that keeps nothing: counts the spans of each batch and reports success. */
const dropping = {
  export(spans, done) {
    exported += spans.length;
    done({ code: 0 });
  },
  shutdown: () => Promise.resolve(),
  forceFlush: () => Promise.resolve(),
};
const processor = new BatchSpanProcessor(dropping); // its defaults: batches of 512, every 5 s, a queue of 2,048
const provider = new BasicTracerProvider({ spanProcessors: [processor] });
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(
  new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
);
if (!trace.setGlobalTracerProvider(provider)) throw new Error('could not register the tracer provider');

export async function connect(target) {
  const client = await connectWith(mcpc, target, { httpClient: 'node' });
  return {
    ...client,
    /** Spans the exporter got so far (after a flush): the trial checks that every call made one. */
    async stats() {
      await processor.forceFlush();
      return { spansExported: exported };
    },
    close: async () => {
      await client.close();
      await provider.shutdown();
    },
  };
}
