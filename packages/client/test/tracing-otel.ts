// The tracing tests' OpenTelemetry SDK: an in-memory span exporter, a collecting metric reader, and finders.
import { context, trace, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

export const exporter = new InMemorySpanExporter();
export const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
export const hostTracer = tracerProvider.getTracer('host');

/** A reader the test collects from when it wants (no timer). */
export class CollectingReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** A meter provider and its reader, for one test's metrics. */
export function meters(): { provider: MeterProvider; reader: CollectingReader } {
  const reader = new CollectingReader();
  return { provider: new MeterProvider({ readers: [reader] }), reader };
}

/** The process-wide setup a host makes: an async context manager and the SDK's tracer provider (no propagator). */
export function installGlobalTracing(): void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(tracerProvider);
}

/** Runs `fn` inside a host span (the parent the client's spans must have), returning both. */
export async function underParent<T>(fn: () => Promise<T>): Promise<{ parent: Span; value: T }> {
  return hostTracer.startActiveSpan('host work', async (parent) => {
    try {
      return { parent, value: await fn() };
    } finally {
      parent.end();
    }
  });
}

export const spansNamed = (name: string): ReadableSpan[] => exporter.getFinishedSpans().filter((s) => s.name === name);

export const spanNamed = (name: string): ReadableSpan => {
  const span = spansNamed(name)[0];
  if (span === undefined) throw new Error(`no span ${name} in [${exporter.getFinishedSpans().map((s) => s.name)}]`);
  return span;
};

/** Whether `child` is a child of `parent` (same trace, parent span id). */
export const isChildOf = (child: ReadableSpan, parent: { spanContext(): { traceId: string; spanId: string } }) =>
  child.spanContext().traceId === parent.spanContext().traceId &&
  child.parentSpanContext?.spanId === parent.spanContext().spanId;

/** One histogram's points: attributes, count and sum. */
export async function histogram(
  reader: CollectingReader,
  name: string,
): Promise<{ unit: string; points: { attributes: Record<string, unknown>; count: number; sum: number }[] }> {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name) as
    HistogramMetricData | undefined;
  if (metric === undefined) return { unit: '', points: [] };
  return {
    unit: metric.descriptor.unit,
    points: metric.dataPoints.map((p) => ({ attributes: p.attributes, count: p.value.count, sum: p.value.sum ?? 0 })),
  };
}
