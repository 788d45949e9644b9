// Finished spans as an OTLP/HTTP JSON `ExportTraceServiceRequest` (the protobuf JSON mapping OTLP specifies).
import type { AttributeValue, Attributes, HrTime } from '@opentelemetry/api';
import type { FinishedSpan } from './span.js';

/** An OTLP `AnyValue`. */
type AnyValue =
  | { readonly stringValue: string }
  | { readonly boolValue: boolean }
  | { readonly intValue: string }
  | { readonly doubleValue: number }
  | { readonly arrayValue: { readonly values: readonly AnyValue[] } };

interface KeyValue {
  readonly key: string;
  readonly value: AnyValue;
}

/** Nanoseconds since the epoch as a decimal string: an int64, which a JSON number cannot hold exactly. */
export const nanos = ([seconds, nanoseconds]: HrTime): string =>
  (BigInt(seconds) * 1_000_000_000n + BigInt(nanoseconds)).toString();

function anyValue(value: AttributeValue | null | undefined): AnyValue | undefined {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  if (Array.isArray(value))
    return {
      arrayValue: {
        values: (value as readonly (string | number | boolean | null | undefined)[]).map(
          (item) => anyValue(item) ?? { stringValue: '' },
        ),
      },
    };
  return undefined;
}

const keyValues = (attributes: Attributes | undefined): KeyValue[] =>
  Object.entries(attributes ?? {}).flatMap(([key, raw]) => {
    const value = anyValue(raw);
    return value === undefined ? [] : [{ key, value }];
  });

/** One span: ids in hex (OTLP's exception to the JSON mapping), kind and status as OTLP's enum numbers. */
function span(s: FinishedSpan): Record<string, unknown> {
  const context = s.spanContext();
  const parent = s.parentSpanContext;
  const state = context.traceState?.serialize();
  return {
    traceId: context.traceId,
    spanId: context.spanId,
    ...(state !== undefined && state !== '' && { traceState: state }),
    ...(parent !== undefined && { parentSpanId: parent.spanId }),
    flags: context.traceFlags,
    name: s.name,
    // The API counts kinds from INTERNAL = 0; OTLP from SPAN_KIND_UNSPECIFIED = 0, INTERNAL = 1.
    kind: s.kind + 1,
    startTimeUnixNano: nanos(s.startTime),
    endTimeUnixNano: nanos(s.endTime),
    attributes: keyValues(s.attributes),
    droppedAttributesCount: s.droppedAttributesCount,
    events: s.events.map((event) => ({
      timeUnixNano: nanos(event.time),
      name: event.name,
      attributes: keyValues(event.attributes),
      droppedAttributesCount: event.droppedAttributesCount ?? 0,
    })),
    droppedEventsCount: s.droppedEventsCount,
    links: s.links.map((link) => ({
      traceId: link.context.traceId,
      spanId: link.context.spanId,
      attributes: keyValues(link.attributes),
      droppedAttributesCount: link.droppedAttributesCount ?? 0,
    })),
    droppedLinksCount: s.droppedLinksCount,
    // Both number their codes UNSET = 0, OK = 1, ERROR = 2.
    status: { code: s.status.code, ...(s.status.message !== undefined && { message: s.status.message }) },
  };
}

/** The request body: spans grouped by resource, then by instrumentation scope. */
export function exportRequest(spans: readonly FinishedSpan[]): Record<string, unknown> {
  const byResource = new Map<FinishedSpan['resource'], Map<string, FinishedSpan[]>>();
  for (const s of spans) {
    const scopes = byResource.get(s.resource) ?? new Map<string, FinishedSpan[]>();
    byResource.set(s.resource, scopes);
    const { name, version = '' } = s.instrumentationScope;
    const key = `${name}\n${version}`;
    const group = scopes.get(key);
    if (group === undefined) scopes.set(key, [s]);
    else group.push(s);
  }
  return {
    resourceSpans: [...byResource].map(([resource, scopes]) => ({
      resource: { attributes: keyValues(resource.attributes), droppedAttributesCount: 0 },
      scopeSpans: [...scopes.values()].map((group) => {
        const { name, version, schemaUrl } = group[0]!.instrumentationScope;
        return {
          scope: { name, ...(version !== undefined && { version }) },
          ...(schemaUrl !== undefined && { schemaUrl }),
          spans: group.map(span),
        };
      }),
    })),
  };
}
