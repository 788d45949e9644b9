// The W3C trace context a message carries in `params._meta`, copied to its POST's headers as HTTP tracing expects.
import type { JsonRpcMessage } from '@mcpc/jsonrpc';

/**
 * The `_meta` keys MCP reserves for trace context (SEP-414), each with the longest value copied to a
 * header: a version-00 `traceparent` is 55 characters (later versions may add fields), `tracestate`
 * has at most 32 members, and W3C Baggage bounds the whole header at 8192 bytes.
 */
const TRACE_KEYS = [
  ['traceparent', 512],
  ['tracestate', 8192],
  ['baggage', 8192],
] as const;

/**
 * What a header value may be here: visible ASCII, spaces and tabs, nothing else. No CR or LF (a header
 * split into two), and no byte an HTTP client would refuse and fail the whole request for — the context
 * is optional, so a value it cannot carry is left out, never an error.
 */
const HEADER_VALUE = /^[\t\x20-\x7e]+$/;

/**
 * Copies `traceparent`, `tracestate` and `baggage` from the message's `params._meta` into `headers`
 * (lower-case names, over any configured value: the message's own context is the more precise one).
 * Values that are not strings, are too long or could not be a header value are skipped silently. A
 * message without `_meta` costs one property read.
 */
export function copyTraceHeaders(message: JsonRpcMessage, headers: Record<string, string>): void {
  const meta = (message as { readonly params?: { readonly _meta?: unknown } }).params?._meta;
  if (typeof meta !== 'object' || meta === null) return;
  for (const [key, max] of TRACE_KEYS) {
    const value = (meta as Readonly<Record<string, unknown>>)[key];
    if (typeof value === 'string' && value.length <= max && HEADER_VALUE.test(value)) headers[key] = value;
  }
}
