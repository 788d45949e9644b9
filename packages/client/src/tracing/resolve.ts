// Tracing once the API is found (loaded with it, never with the client): the tracer, propagation and meter resolved.
import type { Context, Meter, Tracer } from '@opentelemetry/api';
import { VERSION } from '../version.js';
import type { OtelApi } from './load.js';
import { durationHistograms, type DurationHistograms } from './metrics.js';
import type { TracingOptions } from './options.js';
import { extractW3c, injectW3c } from './w3c.js';

/** Tracing resolved for a client: the API, the tracer, how context is written and read, the histograms if any. */
export interface Tracing {
  readonly api: OtelApi;
  readonly tracer: Tracer;
  readonly inject: (context: Context, carrier: Record<string, string>) => void;
  readonly extract: (context: Context, carrier: Record<string, unknown>) => Context;
  /** Undefined when no meter provider records anything (the API's no-op one). */
  readonly metrics: DurationHistograms | undefined;
  /**
   * Whether the global tracer is, right now, the API's no-op one (no SDK registered yet); undefined when the
   * client was given its tracer. Checked per request, as an SDK may be registered at any time.
   */
  readonly noSdk: (() => boolean) | undefined;
}

export function resolveTracing(otel: OtelApi, option: TracingOptions): Tracing {
  const tracer =
    (option.tracer as Tracer | undefined) ??
    (option.tracerProvider?.getTracer('@mcpc/client', VERSION) as Tracer | undefined) ??
    otel.trace.getTracer('@mcpc/client', VERSION);
  const given = option.propagator;
  const setter = otel.defaultTextMapSetter;
  const getter = otel.defaultTextMapGetter;
  // The global propagator once an SDK registers one; until then, W3C trace context and baggage.
  const inject =
    given !== undefined
      ? (context: Context, carrier: Record<string, string>) => given.inject(context, carrier, setter)
      : (context: Context, carrier: Record<string, string>) => {
          if (otel.propagation.fields().length > 0) otel.propagation.inject(context, carrier, setter);
          else injectW3c(otel, context, carrier);
        };
  const extract =
    given !== undefined
      ? (context: Context, carrier: Record<string, unknown>) => given.extract(context, carrier, getter) as Context
      : (context: Context, carrier: Record<string, unknown>) =>
          otel.propagation.fields().length > 0
            ? otel.propagation.extract(context, carrier, getter)
            : extractW3c(otel, context, carrier);
  const meter =
    (option.meterProvider?.getMeter('@mcpc/client', VERSION) as Meter | undefined) ??
    otel.metrics.getMeter('@mcpc/client', VERSION);
  return { api: otel, tracer, inject, extract, metrics: durationHistograms(otel, meter), noSdk: noSdk(otel, option) };
}

/** A check that the global tracer provider delegates to the API's no-op one (a fresh proxy's delegate is that one). */
function noSdk(otel: OtelApi, option: TracingOptions): (() => boolean) | undefined {
  if (option.tracer !== undefined || option.tracerProvider !== undefined) return undefined;
  const noop = new otel.ProxyTracerProvider().getDelegate();
  return () => (otel.trace.getTracerProvider() as { getDelegate?: () => unknown }).getDelegate?.() === noop;
}
