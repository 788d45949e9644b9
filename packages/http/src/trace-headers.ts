// The W3C trace context a message carries in `params._meta`, copied to its POST's headers as HTTP tracing expects.
import type { JsonRpcMessage } from '@mcpc/jsonrpc';

/**
 * The longest value copied to a header, per key MCP reserves for trace context (SEP-414): a version-00
 * `traceparent` is 55 characters (later versions may add fields), and W3C Baggage bounds the whole header
 * at 8192 bytes; `tracestate` (at most 32 members) gets the same bound.
 */
const MAX_TRACEPARENT = 512;
const MAX_LIST = 8192;

/**
 * What a header value may be here: visible ASCII, spaces and tabs, nothing else. No CR or LF (a header
 * split into two), and no byte an HTTP client would refuse and fail the whole request for — the context
 * is optional, so a value it cannot carry is left out, never an error.
 */
const HEADER_VALUE = /^[\t\x20-\x7e]+$/;

const carried = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length <= max && HEADER_VALUE.test(value);

/**
 * Copies `traceparent`, `tracestate` and `baggage` from the message's `params._meta` into `headers`
 * (lower-case names, over any configured value: the message's own context is the more precise one).
 * Values that are not strings, are too long or could not be a header value are skipped silently. It
 * stays cheap on the path taken without tracing: a message without `_meta` is passed over at once, and
 * one without trace keys costs three property reads.
 */
export function copyTraceHeaders(message: JsonRpcMessage, headers: Record<string, string>): void {
  const meta = (message as { readonly params?: { readonly _meta?: unknown } }).params?._meta;
  if (typeof meta !== 'object' || meta === null) return;
  const { traceparent, tracestate, baggage } = meta as Readonly<Record<string, unknown>>;
  if (carried(traceparent, MAX_TRACEPARENT)) headers.traceparent = traceparent;
  if (carried(tracestate, MAX_LIST)) headers.tracestate = tracestate;
  if (carried(baggage, MAX_LIST)) headers.baggage = baggage;
}
