// The Timeline view's data (types only): a server's OpenTelemetry spans as the page draws them, no payloads.

/** An attribute's value as the page gets it (an array attribute is joined with `, `). */
export type SpanValue = string | number | boolean;

/** A span event (progress, an input round, a task status, an exception), at its time. */
export interface SpanEventView {
  name: string;
  /** Epoch milliseconds (fractional). */
  atMs: number;
  attributes: Record<string, SpanValue>;
}

/**
 * One span of a call: the playground's own INTERNAL span (`playground call tools/call add`, `playground connect`)
 * or one the client made under it (a CLIENT span per request: `initialize`, `tools/call add`, `tasks/get`, …).
 * A span is sent when it starts (no `durationMs`) and again when it ends; the trace id groups a call's spans.
 */
export interface SpanView {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: 'internal' | 'server' | 'client' | 'producer' | 'consumer';
  /** Epoch milliseconds (fractional). */
  startMs: number;
  /** Absent while the span is open. */
  durationMs?: number;
  status: 'unset' | 'ok' | 'error';
  statusMessage?: string;
  /** The span's attributes (MCP semantic conventions: method, tool, request id, `error.type`, …), bounded. */
  attributes: Record<string, SpanValue>;
  events: SpanEventView[];
}
