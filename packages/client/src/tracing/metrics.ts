// The MCP client metrics (semantic conventions): operation and session duration histograms, and their attributes.
import type { Attributes, Histogram, Meter } from '@opentelemetry/api';
import type { OtelApi } from './load.js';

/** The two histograms, in seconds. */
export interface DurationHistograms {
  readonly operation: Histogram;
  readonly session: Histogram;
}

// The conventions' advice for MCP durations (seconds).
const BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** The histograms on `meter`; undefined when it is the API's no-op meter (nothing would be recorded). */
export function durationHistograms(otel: OtelApi, meter: Meter): DurationHistograms | undefined {
  const advice = { explicitBucketBoundaries: BUCKETS };
  const operation = meter.createHistogram('mcp.client.operation.duration', {
    description: 'The duration of an MCP request or notification as observed by the sender',
    unit: 's',
    advice,
  });
  // The no-op meter's instruments share one class: with no provider registered, no metrics cost is paid per call.
  const noop = otel.createNoopMeter().createHistogram('noop');
  if (operation.constructor === noop.constructor) return undefined;
  const session = meter.createHistogram('mcp.client.session.duration', {
    description: 'The duration of the MCP session as observed on the MCP client',
    unit: 's',
    advice,
  });
  return { operation, session };
}

/** Identifiers of one request or session: kept on the span, never on a metric point (unbounded cardinality). */
const HIGH_CARDINALITY: ReadonlySet<string> = new Set(['jsonrpc.request.id', 'mcp.session.id', 'mcp.resource.uri']);

/** A span's attributes made fit for a metric point. */
export function metricAttributes(attributes: Attributes): Attributes {
  const kept: Attributes = {};
  for (const key in attributes) if (!HIGH_CARDINALITY.has(key)) kept[key] = attributes[key];
  return kept;
}
