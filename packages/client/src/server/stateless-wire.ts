// How a stateless request goes on the wire: the transport options it is sent with (re-sendable or not,
// the protocol headers over HTTP, timeouts, progress, cancellation).
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
  const send = {
    stateless: true,
    retryable: IDEMPOTENT.has(method),
    ...(headers !== undefined && { headers }),
    ...(options.longLived === true && { longLived: true }),
  };
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
