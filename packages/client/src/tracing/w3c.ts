// W3C trace context and baggage written into and read from a carrier: the propagation when no propagator is registered.
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

const TRACEPARENT = /^([\da-f]{2})-([\da-f]{32})-([\da-f]{16})-([\da-f]{2})(?:-.*)?$/;
const INVALID_TRACE = '0'.repeat(32);
const INVALID_SPAN = '0'.repeat(16);

/** Reads `traceparent`, `tracestate` and `baggage` from a carrier (a request's `_meta`) into `context`. */
export function extractW3c(otel: OtelApi, context: Context, carrier: Record<string, unknown>): Context {
  let result = context;
  const parent = carrier.traceparent;
  const match = typeof parent === 'string' ? TRACEPARENT.exec(parent.trim()) : null;
  if (match !== null && match[1] !== 'ff' && match[2] !== INVALID_TRACE && match[3] !== INVALID_SPAN) {
    const state = carrier.tracestate;
    result = otel.trace.setSpanContext(result, {
      traceId: match[2]!,
      spanId: match[3]!,
      traceFlags: parseInt(match[4]!, 16) & 1,
      isRemote: true,
      ...(typeof state === 'string' && state !== '' && { traceState: otel.createTraceState(state) }),
    });
  }
  const baggage = carrier.baggage;
  if (typeof baggage === 'string' && baggage !== '') {
    const entries: Record<string, { value: string }> = {};
    for (const member of baggage.split(',')) {
      const [pair] = member.split(';');
      const at = pair!.indexOf('=');
      if (at <= 0) continue;
      try {
        entries[decodeURIComponent(pair!.slice(0, at).trim())] = {
          value: decodeURIComponent(pair!.slice(at + 1).trim()),
        };
      } catch {
        // A malformed percent-encoding: that member is skipped, as the W3C propagator does.
      }
    }
    if (Object.keys(entries).length > 0)
      result = otel.propagation.setBaggage(result, otel.propagation.createBaggage(entries));
  }
  return result;
}
