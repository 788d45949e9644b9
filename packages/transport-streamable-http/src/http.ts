import { request, type Dispatcher } from 'undici';
import { backoffDelay, sleep } from './backoff.js';
import { NetworkError, TransientServerError } from './errors.js';
import type { BackoffOptions } from './backoff.js';

export type HttpMethod = 'POST' | 'GET' | 'DELETE';

/** Where and how patiently to send: the part of a transport's options an exchange needs. */
export interface ExchangeSettings {
  readonly url: URL;
  /** Re-sends of a retryable exchange. */
  readonly retries: number;
  readonly retryDelay: BackoffOptions;
  /** Milliseconds to wait for response headers, and by default between body chunks. */
  readonly readTimeout: number;
}

export interface Exchange {
  readonly method: HttpMethod;
  /** Overrides the settings' URL (the legacy transport POSTs to the endpoint its stream named). */
  readonly url?: URL;
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly signal: AbortSignal;
  /** Safe to send again when it most likely did not reach the server. */
  readonly retryable: boolean;
  /** For error messages: the JSON-RPC method being carried. */
  readonly rpcMethod?: string | undefined;
  /** Idle time allowed between body chunks; 0 for long-lived streams. */
  readonly bodyTimeout?: number;
}

// Failures where the request most likely never reached the server (or the server never answered).
const CONNECTION_FAILURES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const errorCode = (e: unknown): string | undefined => {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  const cause = (e as { cause?: unknown } | null)?.cause;
  return cause === undefined || cause === e ? undefined : errorCode(cause);
};

/**
 * One HTTP exchange, re-sent for a retryable message after a connection failure or an HTTP 5xx, with
 * jittered exponential backoff. Timeouts, 4xx and anything after the response started are never
 * re-sent: the server may have acted on the request.
 */
export async function exchange(dispatcher: Dispatcher, options: ExchangeSettings, x: Exchange): Promise<Dispatcher.ResponseData> {
  for (let attempt = 0; ; attempt++) {
    const canRetry = x.retryable && attempt < options.retries;
    let response: Dispatcher.ResponseData;
    try {
      response = await request(x.url ?? options.url, {
        method: x.method,
        headers: x.headers,
        body: x.body ?? null,
        signal: x.signal,
        dispatcher,
        headersTimeout: options.readTimeout,
        bodyTimeout: x.bodyTimeout ?? options.readTimeout,
      });
    } catch (error) {
      if (x.signal.aborted) throw x.signal.reason;
      const code = errorCode(error);
      if (canRetry && code !== undefined && CONNECTION_FAILURES.has(code)) {
        await sleep(backoffDelay(attempt, options.retryDelay), x.signal);
        continue;
      }
      throw new NetworkError(x.url ?? options.url, error);
    }
    if (response.statusCode >= 500) {
      await discard(response);
      if (canRetry) {
        await sleep(backoffDelay(attempt, options.retryDelay), x.signal);
        continue;
      }
      throw new TransientServerError(response.statusCode, x.rpcMethod);
    }
    return response;
  }
}

/** Drops a body we will not read, without letting a huge or endless one hold the connection. */
export async function discard(response: Dispatcher.ResponseData): Promise<void> {
  try {
    await response.body.dump({ limit: 64 * 1024 });
  } catch {
    // The body is being thrown away; how it ends does not matter.
  }
}

export const header = (response: Dispatcher.ResponseData, name: string): string | undefined => {
  const v = response.headers[name];
  return Array.isArray(v) ? v[0] : v;
};
