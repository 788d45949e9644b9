// How a stateless request goes on the wire: the transport options it is sent with.
//
// Those options say whether it is re-sendable, and carry the protocol headers over HTTP, timeouts, progress and
// cancellation.
import type { JsonRpcParams, RequestOptions } from '@mcpc/jsonrpc';
import type { EraCallOptions } from './era.js';
import { requestHeaders } from './headers.js';

// Requests a transport may re-send when unsure they arrived (never tools/call; see classic.ts).
const IDEMPOTENT: ReadonlySet<string> = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'completion/complete',
]);

/** The send options of a request without headers, by `retryable + 2 * longLived` (shared: transports only read them). */
const SEND = [
  Object.freeze({ stateless: true, retryable: false }),
  Object.freeze({ stateless: true, retryable: true }),
  Object.freeze({ stateless: true, retryable: false, longLived: true }),
  Object.freeze({ stateless: true, retryable: true, longLived: true }),
] as const;

/** The engine options of one stateless request; `http` mirrors the protocol fields into headers. */
export function wireOptions(
  http: boolean,
  version: string,
  method: string,
  params: JsonRpcParams | undefined,
  options: EraCallOptions,
  timeout: number | undefined,
): RequestOptions {
  const headers = http ? requestHeaders(version, method, params, options.headers) : undefined;
  const retryable = IDEMPOTENT.has(method);
  const longLived = options.longLived === true;
  // Without headers (stdio) the send options are one of four constants, not an object per request.
  const send =
    headers !== undefined
      ? { stateless: true, retryable, headers, ...(longLived && { longLived: true }) }
      : SEND[(retryable ? 1 : 0) + (longLived ? 2 : 0)]!;
  const out: { -readonly [K in keyof RequestOptions]: RequestOptions[K] } = { send, cancelNotification: !http };
  const t = timeout ?? options.timeout;
  if (t !== undefined) out.timeout = t;
  if (options.signal !== undefined) out.signal = options.signal;
  if (options.onProgress !== undefined) out.onProgress = options.onProgress;
  if (options.resetTimeoutOnProgress !== undefined) out.resetTimeoutOnProgress = options.resetTimeoutOnProgress;
  if (options.maxTotalTimeout !== undefined) out.maxTotalTimeout = options.maxTotalTimeout;
  if (options.onId !== undefined) out.onId = options.onId;
  return out;
}
