// One HTTP exchange with the retry policy (connection failures and 5xx, for what is safe to re-send) and the auth seam.
import type { AuthProvider } from '@mcpc/jsonrpc';
import type { AbortLink } from './abort.js';
import { destroyQuietly, followBody } from './body.js';
import { backoffDelay, sleep } from './backoff.js';
import { HttpErrorCode } from './codes.js';
import { header } from './raw-headers.js';
import {
  HttpClientUnavailableError,
  NetworkError,
  ProxyConfigError,
  TransientServerError,
  UnauthorizedError,
} from './errors.js';
import type { BackoffOptions } from './backoff.js';
import type { HttpBody, HttpClient, HttpMethod, HttpRequest, HttpResponse } from './types.js';

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
  /** The same abort as `signal`, read instead of it where it will do (see `HttpRequest.abort`). */
  readonly abort?: AbortLink | undefined;
  /** Safe to send again when it most likely did not reach the server. */
  readonly retryable: boolean;
  /** For error messages: the JSON-RPC method being carried. */
  readonly rpcMethod?: string | undefined;
  /** Idle time allowed between body chunks; 0 for long-lived streams. */
  readonly bodyTimeout?: number | undefined;
  /** A stream that may stay open for as long as the host wants it: outside the connection bound (see `HttpRequest.longLived`). */
  readonly longLived?: boolean;
  /** A notification or a reply: on connections of its own (see `HttpRequest.control`). */
  readonly control?: boolean;
  /** The auth hook (`AuthProvider` of `@mcpc/jsonrpc`): headers per request, and what to do on 401/403. */
  readonly auth?: AuthProvider | undefined;
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
  HttpErrorCode.ConnectTimeout, // Node's client (see timeouts.ts)
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
export function exchange(client: HttpClient, options: ExchangeSettings, x: Exchange): Promise<HttpResponse> {
  if (x.auth !== undefined || (x.retryable && options.retries > 0)) return exchangeWithPolicy(client, options, x);
  // One attempt, no auth: most exchanges (a tools/call is never re-sent). No async function here: a
  // suspended one keeps a frame with every register of the policy loop below, per request in flight.
  const url = x.url ?? options.url;
  let pending: Promise<HttpResponse>;
  try {
    pending = client.request(new ExchangeRequest(url, x, x.headers, options.readTimeout));
  } catch (error) {
    pending = Promise.reject(error);
  }
  return pending.then(
    (response) => (response.statusCode >= 500 ? serverFailure(response, x) : response),
    (error: unknown) => {
      throw failure(error, x, url);
    },
  );
}

/** {@link exchange} with an auth provider, or re-sends allowed. */
async function exchangeWithPolicy(client: HttpClient, options: ExchangeSettings, x: Exchange): Promise<HttpResponse> {
  const url = x.url ?? options.url;
  let challenges = 0;
  for (let attempt = 0; ; attempt++) {
    const canRetry = x.retryable && attempt < options.retries;
    let headers = x.headers;
    if (x.auth !== undefined) {
      headers = { ...x.headers };
      for (const [name, value] of Object.entries(await x.auth.headers({ method: x.method, url })))
        headers[name.toLowerCase()] = value;
    }
    let response: HttpResponse;
    try {
      response = await client.request(new ExchangeRequest(url, x, headers, options.readTimeout));
    } catch (error) {
      if (canRetry && !(x.abort ?? x.signal).aborted && isConnectionFailure(error)) {
        await sleep(backoffDelay(attempt, options.retryDelay), x.signal);
        continue;
      }
      throw failure(error, x, url);
    }
    x.auth?.responded?.({ url, status: response.statusCode, headers: response.headers });
    if ((response.statusCode === 401 || response.statusCode === 403) && x.auth !== undefined) {
      const status = response.statusCode;
      const wwwAuthenticate = header(response, 'www-authenticate');
      await discard(response);
      if (
        challenges < MAX_CHALLENGES &&
        (await x.auth.challenge({ method: x.method, url, status, wwwAuthenticate, headers: response.headers })) ===
          'retry'
      ) {
        // Bounded: a provider that keeps asking for a retry must not loop. A refused request did not run.
        challenges++;
        attempt--;
        continue;
      }
      throw new UnauthorizedError(status, wwwAuthenticate, { url, authConfigured: true });
    }
    if (response.statusCode >= 500) {
      if (!canRetry) return serverFailure(response, x);
      await discard(response);
      await sleep(backoffDelay(attempt, options.retryDelay), x.signal);
      continue;
    }
    return response;
  }
}

/** A failure before the response that is not re-sent: the abort's reason, or what it says of the network. */
function failure(error: unknown, x: Exchange, url: URL): unknown {
  const abort = x.abort ?? x.signal;
  if (abort.aborted) return abort.reason;
  // Not a network failure: the client is missing (undici not installed where it is needed), or the
  // proxy variables name no usable proxy.
  if (error instanceof HttpClientUnavailableError || error instanceof ProxyConfigError) return error;
  return new NetworkError(url, error);
}

/** A failure that most likely left the request unsent (see CONNECTION_FAILURES). */
const isConnectionFailure = (error: unknown): boolean => {
  if (error instanceof HttpClientUnavailableError || error instanceof ProxyConfigError) return false;
  const code = errorCode(error);
  return code !== undefined && CONNECTION_FAILURES.has(code);
};

/** A 5xx that is not re-sent: its body dropped, then a TransientServerError. */
async function serverFailure(response: HttpResponse, x: Exchange): Promise<never> {
  await discard(response);
  throw new TransientServerError(response.statusCode, x.rpcMethod);
}

/**
 * The request an exchange hands its client. A class, its `signal` a getter on the prototype (see `Sends`
 * for what a getter in an object literal costs): read only if the client needs it, since with an
 * AbortLink it may not exist yet.
 */
class ExchangeRequest implements HttpRequest {
  readonly url: URL;
  readonly method: HttpMethod;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
  readonly abort: AbortLink | undefined;
  readonly headersTimeout: number;
  readonly bodyTimeout: number;
  readonly longLived: boolean;
  readonly control: boolean;
  readonly #x: Exchange;

  constructor(url: URL, x: Exchange, headers: Record<string, string>, readTimeout: number) {
    this.url = url;
    this.method = x.method;
    this.headers = headers;
    this.body = x.body;
    this.abort = x.abort;
    this.headersTimeout = readTimeout;
    this.bodyTimeout = x.bodyTimeout ?? readTimeout;
    this.longLived = x.longLived === true;
    this.control = x.control === true;
    this.#x = x;
  }

  get signal(): AbortSignal {
    return this.#x.signal;
  }
}

/**
 * Challenges one request may answer with a retry. Two, because a DPoP resource server hands out its
 * nonce only to a request that already carries the fresh token (RFC 9449 §9): 401 → authorize → 401
 * `use_dpop_nonce` → retry.
 */
const MAX_CHALLENGES = 2;

const DISCARD_LIMIT = 64 * 1024;

/**
 * Drops a body we will not read, without letting a huge or endless one hold the connection: up to
 * 64 KiB is read off (so the connection can be reused), past that the body is destroyed.
 */
export function discard(response: HttpResponse): Promise<void> {
  const body = response.body as HttpBody & { dump?: (options: { limit: number }) => Promise<void> };
  // undici's bodies have their own, cheaper way of doing exactly this.
  if (typeof body.dump === 'function') return body.dump({ limit: DISCARD_LIMIT }).catch(() => {});
  return drain(body);
}

function drain(body: HttpBody): Promise<void> {
  if (body.readableEnded || body.destroyed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    let read = 0;
    // The body is being thrown away; how it ends does not matter.
    const stop = followBody(body, {
      onData(chunk) {
        read += chunk.length;
        if (read <= DISCARD_LIMIT) return;
        stop();
        destroyQuietly(body);
        resolve();
      },
      onEnd: () => resolve(),
    });
  });
}
