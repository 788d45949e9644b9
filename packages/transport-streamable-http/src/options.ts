// The options of the Streamable HTTP transport, and their defaults and checks.
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
import type { AuthProvider, Logger } from '@mcpc/jsonrpc';

export interface StreamableHttpTransportOptions {
  /** The MCP endpoint. */
  readonly url: string | URL;
  readonly headers?: HeadersOption;
  /**
   * Which HTTP client carries the requests (`'auto'`): undici when it is installed, else Node's
   * `node:http`/`node:https`, and WHATWG `fetch` where there is no `node:http` (a browser, a Worker) and
   * on Bun; `'undici'` requires it, `'node'` never uses it, `'fetch'` always does. The same behaviour each
   * way (limits, timeouts, retries, errors); proxy variables are read by undici and Node's client (with
   * fetch, the runtime decides); `dispatcher` needs undici. `'fetch'` by default when `fetch` is given.
   */
  readonly httpClient?: HttpClientChoice;
  /** The `fetch` to send with (a Worker's service binding, an instrumented fetch); implies `httpClient: 'fetch'`. */
  readonly fetch?: FetchFunction;
  /**
   * An undici dispatcher for every request: your own `Agent` (TLS options, a custom CA), a `ProxyAgent`,
   * or one composed with interceptors. Never closed by the transport. Without it the transport makes its
   * own connections: with undici, an `Agent`, or an `EnvHttpProxyAgent` when `HTTP_PROXY` / `HTTPS_PROXY`
   * is set (honouring `NO_PROXY`) as the transport is made.
   */
  readonly dispatcher?: UndiciDispatcher;
  /**
   * `'streamable'` (default): JSON or SSE responses, the GET stream for server messages, resumption.
   * `'json'`: plain request/response HTTP, for servers that do nothing else.
   */
  readonly mode?: 'streamable' | 'json';
  /** Re-sends of a retryable request after a network error or HTTP 5xx (2). Never for `tools/call`. */
  readonly retries?: number;
  /** Backoff between those re-sends (250 ms doubling up to 4 s, jittered). */
  readonly retryDelay?: Partial<BackoffOptions>;
  /** Milliseconds to establish a connection, with the default dispatcher (10 000). */
  readonly connectTimeout?: number;
  /** Milliseconds to wait for response headers, and between body chunks of a POST (300 000). */
  readonly readTimeout?: number;
  /** Largest decompressed JSON body; also the default cap for one SSE event (64 MiB). */
  readonly maxDecompressedBodyBytes?: number;
  /** Largest SSE line or event buffered while unfinished (characters; default: maxDecompressedBodyBytes). */
  readonly maxSseEventBytes?: number;
  /** Floor for the server's `retry:` hint, so `retry: 0` cannot drive a reconnect loop (500 ms). */
  readonly minRetryIntervalMs?: number;
  /** Backoff for re-opening the GET stream and resuming response streams (1 s doubling up to 30 s). */
  readonly reconnectDelay?: Partial<BackoffOptions>;
  /** Consecutive failed resumptions of one response stream before giving up (5). */
  readonly maxResumeAttempts?: number;
  /** Open the GET stream for server-initiated messages once the session is initialized (true in streamable mode). */
  readonly listen?: boolean;
  /**
   * Most connections the transport's own HTTP client keeps open to the server at once (64); requests
   * past it wait for one to be free. Not applied to a `dispatcher` of yours.
   */
  readonly maxConnections?: number;
  /** Answers to the server's own requests being sent at once (4); the rest wait in order. */
  readonly maxConcurrentReplies?: number;
  /** Answers waiting to be sent (1024); past it, a new one is dropped, and the drops are counted in a warning. */
  readonly maxQueuedReplies?: number;
  /** Authorization: headers per request and what to do on 401/403 (`@mcpc/oauth`'s provider implements it). */
  readonly auth?: AuthProvider;
  readonly logger?: Logger;
}

export interface ResolvedOptions {
  readonly url: URL;
  readonly headers: HeadersOption | undefined;
  readonly mode: 'streamable' | 'json';
  readonly retries: number;
  readonly retryDelay: BackoffOptions;
  readonly connectTimeout: number;
  readonly readTimeout: number;
  readonly maxBodyBytes: number;
  readonly maxSseEventBytes: number;
  readonly minRetryIntervalMs: number;
  readonly reconnectDelay: BackoffOptions;
  readonly maxResumeAttempts: number;
  readonly listen: boolean;
  readonly maxConnections: number;
  readonly maxConcurrentReplies: number;
  readonly maxQueuedReplies: number;
  readonly auth: AuthProvider | undefined;
}

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;
/** Connections to one server at once: room for many streams in flight, far below a descriptor limit. */
export const DEFAULT_MAX_CONNECTIONS = 64;

export function resolveOptions(o: StreamableHttpTransportOptions): ResolvedOptions {
  const url = new URL(o.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`an MCP endpoint must be an http: or https: URL, not ${url.protocol}`);
  const mode = o.mode ?? 'streamable';
  const maxBodyBytes = o.maxDecompressedBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return {
    url,
    headers: o.headers,
    mode,
    retries: Math.max(0, o.retries ?? 2),
    retryDelay: { initialMs: 250, maxMs: 4_000, ...o.retryDelay },
    connectTimeout: o.connectTimeout ?? 10_000,
    readTimeout: o.readTimeout ?? 300_000,
    maxBodyBytes,
    maxSseEventBytes: o.maxSseEventBytes ?? maxBodyBytes,
    minRetryIntervalMs: Math.max(0, o.minRetryIntervalMs ?? 500),
    reconnectDelay: { initialMs: 1_000, maxMs: 30_000, ...o.reconnectDelay },
    maxResumeAttempts: o.maxResumeAttempts ?? 5,
    listen: mode === 'streamable' && o.listen !== false,
    maxConnections: atLeastOne('maxConnections', o.maxConnections, DEFAULT_MAX_CONNECTIONS),
    maxConcurrentReplies: atLeastOne('maxConcurrentReplies', o.maxConcurrentReplies, DEFAULT_MAX_CONCURRENT_REPLIES),
    maxQueuedReplies: Math.floor(Math.max(0, o.maxQueuedReplies ?? DEFAULT_MAX_QUEUED_REPLIES)),
    auth: o.auth,
  };
}

/** @deprecated The auth hook is `AuthProvider` of `@mcpc/jsonrpc`; this alias stays for existing imports. */
export type HttpAuth = AuthProvider;
