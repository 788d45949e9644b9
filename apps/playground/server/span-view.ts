// A finished or open OpenTelemetry span made into the page's SpanView: times in ms, bounded attributes, no payloads.
import { SpanKind, SpanStatusCode, type Attributes, type HrTime } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { SpanValue, SpanView } from '../contract/api.js';

/** Attributes kept per span or event, and the characters kept of a string value. */
const MAX_ATTRIBUTES = 64;
const MAX_VALUE_CHARS = 256;
/** Events kept per span (the SDK keeps 128; progress can send more). */
const MAX_EVENTS = 128;
/**
 * Attributes never sent to the page: a stack trace says where the client failed, not what the call did, and
 * is long. (The client's spans hold no payloads: the MCP conventions forbid them; ours hold none either.)
 */
const LEFT_OUT = new Set(['exception.stacktrace']);

const KINDS: Readonly<Record<SpanKind, SpanView['kind']>> = {
  [SpanKind.INTERNAL]: 'internal',
  [SpanKind.SERVER]: 'server',
  [SpanKind.CLIENT]: 'client',
  [SpanKind.PRODUCER]: 'producer',
  [SpanKind.CONSUMER]: 'consumer',
};

/** An HrTime (seconds and nanoseconds since the epoch, as the SDK keeps them) in milliseconds. */
export const hrMs = ([seconds, nanos]: HrTime): number => seconds * 1_000 + nanos / 1_000_000;

function value(raw: unknown): SpanValue | undefined {
  if (typeof raw === 'number' || typeof raw === 'boolean') return raw;
  if (typeof raw === 'string') return raw.length > MAX_VALUE_CHARS ? `${raw.slice(0, MAX_VALUE_CHARS)}…` : raw;
  if (Array.isArray(raw)) return value(raw.map((v) => String(v)).join(', '));
  return undefined;
}

/** The attributes the page may show: primitives, bounded in number and length. */
export function attributesView(attributes: Attributes | undefined): Record<string, SpanValue> {
  const out: Record<string, SpanValue> = {};
  let kept = 0;
  for (const [key, raw] of Object.entries(attributes ?? {})) {
    if (kept >= MAX_ATTRIBUTES) break;
    if (LEFT_OUT.has(key)) continue;
    const v = value(raw);
    if (v === undefined) continue;
    out[key] = v;
    kept++;
  }
  return out;
}

/** The page's view of a span; `durationMs` only once it has ended. */
export function spanView(span: ReadableSpan): SpanView {
  const context = span.spanContext();
  const parent = span.parentSpanContext;
  const view: SpanView = {
    traceId: context.traceId,
    spanId: context.spanId,
    ...(parent !== undefined && { parentSpanId: parent.spanId }),
    name: span.name,
    kind: KINDS[span.kind] ?? 'internal',
    startMs: hrMs(span.startTime),
    status:
      span.status.code === SpanStatusCode.ERROR ? 'error' : span.status.code === SpanStatusCode.OK ? 'ok' : 'unset',
    attributes: attributesView(span.attributes),
    events: span.events.slice(0, MAX_EVENTS).map((e) => ({
      name: e.name,
      atMs: hrMs(e.time),
      attributes: attributesView(e.attributes),
    })),
  };
  if (span.ended) view.durationMs = hrMs(span.duration);
  if (span.status.message !== undefined && span.status.message !== '')
    view.statusMessage = value(span.status.message) as string;
  return view;
}
