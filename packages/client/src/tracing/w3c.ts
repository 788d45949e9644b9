// W3C trace context and baggage written into a carrier: the propagation used when no propagator is registered.
import type { Context } from '@opentelemetry/api';
import type { OtelApi } from './load.js';

/** Writes `traceparent`, `tracestate` and `baggage` for `context` (each only when there is something to write). */
export function injectW3c(otel: OtelApi, context: Context, carrier: Record<string, string>): void {
  const span = otel.trace.getSpanContext(context);
  if (span !== undefined && otel.isSpanContextValid(span)) {
    carrier.traceparent = `00-${span.traceId}-${span.spanId}-0${(span.traceFlags & 1).toString(16)}`;
    const state = span.traceState?.serialize();
    if (state) carrier.tracestate = state;
  }
  const entries = otel.propagation.getBaggage(context)?.getAllEntries() ?? [];
  if (entries.length > 0)
    carrier.baggage = entries
      .map(([key, entry]) => {
        const pair = `${encodeURIComponent(key)}=${encodeURIComponent(entry.value)}`;
        return entry.metadata === undefined ? pair : `${pair};${entry.metadata.toString()}`;
      })
      .join(',');
}
