// The legacy SSE transport's options and their checked, defaulted form.
import type { AuthProvider, Logger } from '@mcpc/jsonrpc';
import {
  atLeastOne,
  DEFAULT_MAX_CONCURRENT_REPLIES,
  DEFAULT_MAX_QUEUED_REPLIES,
  type BackoffOptions,
  type FetchFunction,
  type HeadersOption,
  type HttpClientChoice,
  type UndiciDispatcher,
} from '@mcpc/http';

export interface SseTransportOptions {
  /** The SSE endpoint (GET), e.g. `https://example.com/sse`. */
  readonly url: string | URL;
  readonly headers?: HeadersOption;
  /** Which HTTP client carries the requests (`'auto'`: undici when installed, else `node:http`, else `fetch`); as in `@mcpc/transport-streamable-http`. */
  readonly httpClient?: HttpClientChoice;
  /** The `fetch` to send with; implies `httpClient: 'fetch'`. */
  readonly fetch?: FetchFunction;
  /**
   * An undici dispatcher (needs undici). Never closed when yours. Default: the transport's own
   * connections; with undici, an `EnvHttpProxyAgent` when HTTP_PROXY / HTTPS_PROXY is set.
   */
  readonly dispatcher?: UndiciDispatcher;
  /** Milliseconds to wait for the `endpoint` event after the stream opens (10 000). */
  readonly endpointTimeoutMs?: number;
  /** Re-sends of a retryable POST after a network error or 5xx (2); never for `tools/call`. */
  readonly retries?: number;
  readonly retryDelay?: Partial<BackoffOptions>;
  /** Backoff between attempts to re-open a dropped stream (1 s doubling to 30 s). */
  readonly reconnectDelay?: Partial<BackoffOptions>;
  /** Attempts to re-open a dropped stream before the transport closes (10). */
  readonly maxReconnectAttempts?: number;
  /** Ping the server after this long without traffic; no answer by the next check re-opens the stream (30 000; 0 = off). */
  readonly pingIntervalMs?: number;
  readonly connectTimeout?: number;
  /** Milliseconds to wait for response headers of a POST (60 000). */
  readonly readTimeout?: number;
  /** Largest SSE line or event buffered while unfinished, in characters (64 MiB). */
  readonly maxSseEventBytes?: number;
  /** Log the deprecation notice once per process when a stream opens (true). `@mcpc/client` turns it off and notes it itself. */
  readonly deprecationNotice?: boolean;
  /** Most connections the transport's own HTTP client keeps open to the server at once (64); not applied to your `dispatcher`. */
  readonly maxConnections?: number;
  /** Answers to the server's own requests being POSTed at once (4); the rest wait in order. */
  readonly maxConcurrentReplies?: number;
  /** Answers waiting to be POSTed (1024); past it, a new one is dropped, and the drops are counted in a warning. */
  readonly maxQueuedReplies?: number;
  /** Authorization: headers per request and what to do on 401/403 (`@mcpc/oauth`'s provider implements it). */
  readonly auth?: AuthProvider;
  readonly logger?: Logger;
}

export interface ResolvedSseOptions {
  readonly url: URL;
  readonly headers: HeadersOption | undefined;
  readonly endpointTimeoutMs: number;
  readonly retries: number;
  readonly retryDelay: BackoffOptions;
  readonly reconnectDelay: BackoffOptions;
  readonly maxReconnectAttempts: number;
  readonly pingIntervalMs: number;
  readonly connectTimeout: number;
  readonly readTimeout: number;
  readonly maxSseEventBytes: number;
  readonly deprecationNotice: boolean;
  readonly maxConnections: number;
  readonly maxConcurrentReplies: number;
  readonly maxQueuedReplies: number;
  readonly auth: AuthProvider | undefined;
}

export function resolveOptions(o: SseTransportOptions): ResolvedSseOptions {
  const url = new URL(o.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`an SSE endpoint must be an http: or https: URL, not ${url.protocol}`);
  return {
    url,
    headers: o.headers,
    endpointTimeoutMs: o.endpointTimeoutMs ?? 10_000,
    retries: Math.max(0, o.retries ?? 2),
    retryDelay: { initialMs: 250, maxMs: 4_000, ...o.retryDelay },
    reconnectDelay: { initialMs: 1_000, maxMs: 30_000, ...o.reconnectDelay },
    maxReconnectAttempts: o.maxReconnectAttempts ?? 10,
    pingIntervalMs: o.pingIntervalMs ?? 30_000,
    connectTimeout: o.connectTimeout ?? 10_000,
    readTimeout: o.readTimeout ?? 60_000,
    maxSseEventBytes: o.maxSseEventBytes ?? 64 * 1024 * 1024,
    deprecationNotice: o.deprecationNotice ?? true,
    maxConnections: atLeastOne('maxConnections', o.maxConnections, 64),
    maxConcurrentReplies: atLeastOne('maxConcurrentReplies', o.maxConcurrentReplies, DEFAULT_MAX_CONCURRENT_REPLIES),
    maxQueuedReplies: Math.floor(Math.max(0, o.maxQueuedReplies ?? DEFAULT_MAX_QUEUED_REPLIES)),
    auth: o.auth,
  };
}

/** @deprecated The auth hook is `AuthProvider` of `@mcpc/jsonrpc`; this alias stays for existing imports. */
export type HttpAuth = AuthProvider;
