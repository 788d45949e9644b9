// A span's bounds (how many attributes, events, links; how long a value) and the attribute bag that keeps to them.
import type { AttributeValue, Attributes } from '@opentelemetry/api';

/** What one span may hold; beyond it, entries are dropped and counted (the OTLP `dropped…Count` fields). */
export interface SpanLimits {
  readonly attributeCount: number;
  /** Longest string value (and string in an array value), in UTF-16 units: longer ones are cut. */
  readonly attributeValueLength: number;
  readonly eventCount: number;
  readonly linkCount: number;
  readonly attributePerEventCount: number;
  readonly attributePerLinkCount: number;
}

/**
 * The specification's defaults (128 of each), but a value length of 4096 where the SDK has none: a span's values
 * are names and ids, and an exception's stack trace is the longest thing a CLI records.
 */
export const DEFAULT_LIMITS: SpanLimits = {
  attributeCount: 128,
  attributeValueLength: 4096,
  eventCount: 128,
  linkCount: 128,
  attributePerEventCount: 128,
  attributePerLinkCount: 128,
};

/** A non-negative integer from the environment, or none. */
function count(env: NodeJS.ProcessEnv, ...names: string[]): number | undefined {
  for (const name of names) {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') continue;
    const n = Number(raw);
    if (Number.isInteger(n) && n >= 0) return n;
  }
  return undefined;
}

/** The limits the standard `OTEL_*_LIMIT` variables set (the span's own first, then the general ones). */
export function limitsFromEnv(env: NodeJS.ProcessEnv): SpanLimits {
  const d = DEFAULT_LIMITS;
  const length = count(env, 'OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT', 'OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT');
  return {
    attributeCount: count(env, 'OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT', 'OTEL_ATTRIBUTE_COUNT_LIMIT') ?? d.attributeCount,
    // Zero is no length at all in the specification's reading: it keeps the default rather than empty every value.
    attributeValueLength: length === undefined || length === 0 ? d.attributeValueLength : length,
    eventCount: count(env, 'OTEL_SPAN_EVENT_COUNT_LIMIT') ?? d.eventCount,
    linkCount: count(env, 'OTEL_SPAN_LINK_COUNT_LIMIT') ?? d.linkCount,
    attributePerEventCount: count(env, 'OTEL_EVENT_ATTRIBUTE_COUNT_LIMIT') ?? d.attributePerEventCount,
    attributePerLinkCount: count(env, 'OTEL_LINK_ATTRIBUTE_COUNT_LIMIT') ?? d.attributePerLinkCount,
  };
}

const PRIMITIVES = new Set(['string', 'number', 'boolean']);

/** The API's value types: a string, number or boolean, or an array of one of them (nulls allowed in it). */
export function isAttributeValue(value: unknown): value is AttributeValue {
  if (PRIMITIVES.has(typeof value)) return true;
  if (!Array.isArray(value)) return false;
  let kind: string | undefined;
  for (const item of value as unknown[]) {
    if (item === null || item === undefined) continue;
    if (!PRIMITIVES.has(typeof item)) return false;
    kind ??= typeof item;
    if (typeof item !== kind) return false;
  }
  return true;
}

/** The value with its strings cut to `length`. */
export function truncated(value: AttributeValue, length: number): AttributeValue {
  if (typeof value === 'string') return value.length > length ? value.slice(0, length) : value;
  if (Array.isArray(value))
    return (value as readonly unknown[]).map((item) =>
      typeof item === 'string' && item.length > length ? item.slice(0, length) : item,
    ) as AttributeValue;
  return value;
}

/** Attributes kept within a count and a value length: a new key past the count is dropped and counted. */
export class AttributeBag {
  readonly values: Attributes = {};
  dropped = 0;
  #size = 0;
  readonly #count: number;
  readonly #length: number;

  constructor(count: number, length: number) {
    this.#count = count;
    this.#length = length;
  }

  /** Sets one (an invalid key or value is ignored, as the API says; a null one too). */
  set(key: string, value: unknown): void {
    if (key === '' || value === null || value === undefined || !isAttributeValue(value)) return;
    const fresh = !Object.hasOwn(this.values, key);
    if (fresh && this.#size >= this.#count) {
      this.dropped++;
      return;
    }
    this.values[key] = truncated(value, this.#length);
    if (fresh) this.#size++;
  }

  setAll(attributes: Attributes | undefined): void {
    for (const [key, value] of Object.entries(attributes ?? {})) this.set(key, value);
  }
}
