import { request, type Dispatcher } from 'undici';
import { backoffDelay, sleep } from './backoff.js';
import { NetworkError, TransientServerError, UnauthorizedError } from './errors.js';
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

export interface AuthContext {
  readonly method: HttpMethod;
  readonly url: URL;
}

export interface AuthChallenge extends AuthContext {
  readonly status: 401 | 403;
  /** The `WWW-Authenticate` challenge, when the server sent one. */
  readonly wwwAuthenticate: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * The seam between the HTTP transports and an authorization provider (such as `@mcpc/oauth`'s): the
 * transport asks it for headers before every HTTP request, and tells it about a 401/403. Neither side
 * imports the other.
 */
export interface HttpAuth {
  /** Headers for this request (`Authorization`, a DPoP proof…). */
  headers(context: AuthContext): Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>;
  /**
   * The server refused the request. Resolve `'retry'` once new credentials are in place (the request is
   * re-sent once, with fresh headers: a refused request did not run); `'fail'` raises
   * `UnauthorizedError`; throw to raise an error of your own (an `InsufficientScopeError`).
   */
  challenge(challenge: AuthChallenge): 'retry' | 'fail' | Promise<'retry' | 'fail'>;
  /** Every response, for what it may carry for the provider (a `DPoP-Nonce`). */
  responded?(response: { readonly url: URL; readonly status: number; readonly headers: Readonly<Record<string, string | string[] | undefined>> }): void;
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
  readonly auth?: HttpAuth | undefined;
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
  const url = x.url ?? options.url;
  let challenged = false;
  for (let attempt = 0; ; attempt++) {
    const canRetry = x.retryable && attempt < options.retries;
    let headers = x.headers;
    if (x.auth !== undefined) {
      headers = { ...x.headers };
      for (const [name, value] of Object.entries(await x.auth.headers({ method: x.method, url }))) headers[name.toLowerCase()] = value;
    }
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: x.method,
        headers,
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
      throw new NetworkError(url, error);
    }
    x.auth?.responded?.({ url, status: response.statusCode, headers: response.headers });
    if ((response.statusCode === 401 || response.statusCode === 403) && x.auth !== undefined) {
      const status = response.statusCode;
      const wwwAuthenticate = header(response, 'www-authenticate');
      await discard(response);
      if (!challenged && (await x.auth.challenge({ method: x.method, url, status, wwwAuthenticate, headers: response.headers })) === 'retry') {
        // Once: a provider that keeps asking for a retry must not loop. A refused request did not run.
        challenged = true;
        attempt--;
        continue;
      }
      throw new UnauthorizedError(status, wwwAuthenticate);
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
