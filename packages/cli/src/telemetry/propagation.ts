// A caller's W3C trace context and baggage from `TRACEPARENT` / `TRACESTATE` / `BAGGAGE` (the OTel process convention).
import {
  ROOT_CONTEXT,
  baggageEntryMetadataFromString,
  createTraceState,
  isSpanContextValid,
  propagation,
  trace,
  type BaggageEntry,
  type Context,
  type SpanContext,
} from '@opentelemetry/api';

/** version-traceid-spanid-flags; version ff is invalid, all-zero ids too; version 00 has nothing after the flags. */
const TRACEPARENT = /^\s?((?!ff)[\da-f]{2})-((?![0]{32})[\da-f]{32})-((?![0]{16})[\da-f]{16})-([\da-f]{2})(-.*)?\s?$/;

/** The W3C baggage bounds: what a header may hold at most. */
const BAGGAGE_MAX_LENGTH = 8192;
const BAGGAGE_MAX_ENTRIES = 180;

/** A `traceparent` (and its `tracestate`) as a remote span context, or none when it is malformed. */
export function parseTraceparent(traceparent: string, tracestate?: string): SpanContext | undefined {
  const match = TRACEPARENT.exec(traceparent);
  if (match === null || (match[1] === '00' && match[5] !== undefined)) return undefined;
  const context: SpanContext = {
    traceId: match[2]!,
    spanId: match[3]!,
    traceFlags: Number.parseInt(match[4]!, 16),
    isRemote: true,
    ...(tracestate !== undefined && tracestate !== '' && { traceState: createTraceState(tracestate) }),
  };
  return isSpanContextValid(context) ? context : undefined;
}

/** A `baggage` header's entries: `key=value;metadata`, percent-decoded; what cannot be read is skipped. */
export function parseBaggage(header: string): Record<string, BaggageEntry> {
  const entries: Record<string, BaggageEntry> = {};
  if (header.length > BAGGAGE_MAX_LENGTH) return entries;
  for (const member of header.split(',').slice(0, BAGGAGE_MAX_ENTRIES)) {
    const [pair = '', ...properties] = member.split(';');
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    try {
      const key = decodeURIComponent(pair.slice(0, at).trim());
      const value = decodeURIComponent(pair.slice(at + 1).trim());
      entries[key] =
        properties.length > 0 ? { value, metadata: baggageEntryMetadataFromString(properties.join(';')) } : { value };
    } catch {
      // A malformed escape: the entry is skipped, as the SDK's propagator skips it.
    }
  }
  return entries;
}

const value = (env: NodeJS.ProcessEnv, name: string): string | undefined => {
  const raw = env[name]?.trim();
  return raw === undefined || raw === '' ? undefined : raw;
};

/** The context a run's spans descend from: the caller's span and baggage, or the root context. */
export function parentFrom(env: NodeJS.ProcessEnv): Context {
  let parent = ROOT_CONTEXT;
  const traceparent = value(env, 'TRACEPARENT');
  const span = traceparent === undefined ? undefined : parseTraceparent(traceparent, value(env, 'TRACESTATE'));
  if (span !== undefined) parent = trace.setSpanContext(parent, span);
  const baggage = value(env, 'BAGGAGE');
  const entries = baggage === undefined ? {} : parseBaggage(baggage);
  if (Object.keys(entries).length > 0) parent = propagation.setBaggage(parent, propagation.createBaggage(entries));
  return parent;
}
