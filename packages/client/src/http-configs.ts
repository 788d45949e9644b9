// HTTP server configs: `streamableHttp()`, `http()`, `sse()`, `autoHttp()` — each loads its transport package on demand.
import { JsonRpcErrorCode, TransportErrorCode, type Transport } from '@mcpc/jsonrpc';
import { TransportUnavailableError } from './errors.js';
import type { ProtocolChoice } from './server/detect.js';
import { withEra, type ServerConfig, type TransportContext } from './server-configs.js';

/** Headers for every HTTP request: fixed, or computed per request (a rotating token). */
export type HttpHeaders =
  | Readonly<Record<string, string>>
  | (() => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>);

/**
 * The authorization seam of the HTTP transports, as the client passes it through (an `OAuthProvider`
 * from `@mcpc/oauth` is one). Declared here structurally so that `@mcpc/client` needs no HTTP package
 * to be installed for its types.
 */
export interface HttpAuthProvider {
  headers(context: {
    readonly method: 'POST' | 'GET' | 'DELETE';
    readonly url: URL;
  }): Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>;
  challenge(challenge: {
    readonly method: 'POST' | 'GET' | 'DELETE';
    readonly url: URL;
    readonly status: 401 | 403;
    readonly wwwAuthenticate: string | undefined;
    readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  }): 'retry' | 'fail' | Promise<'retry' | 'fail'>;
  responded?(response: {
    readonly url: URL;
    readonly status: number;
    readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  }): void;
}

/** What every HTTP server config takes; passed to the transport as given. */
export interface HttpServerOptions {
  readonly name?: string;
  /** The endpoint. Its credentials and query never appear in the server's name or in logs. */
  readonly url: string | URL;
  readonly headers?: HttpHeaders;
  /** An undici `Dispatcher` (an `Agent` with TLS options, a `ProxyAgent`, interceptors). Default: proxy variables honoured. */
  readonly dispatcher?: object;
  /** Re-sends of idempotent requests after a network error or 5xx; never `tools/call`. */
  readonly retries?: number;
  readonly connectTimeout?: number;
  readonly readTimeout?: number;
  /** Largest decompressed response body (64 MiB). */
  readonly maxDecompressedBodyBytes?: number;
  readonly auth?: HttpAuthProvider;
  readonly requestTimeout?: number;
  /** The protocol era (see `ServerConfig.protocol`); ignored by `sse()`, whose transport predates the stateless era. */
  readonly protocol?: ProtocolChoice;
  readonly discoverTimeout?: number;
}

export interface PlainHttpServerOptions extends HttpServerOptions {
  /** A path (or URL) resolved against `url`, for servers whose JSON-RPC endpoint is not the base URL. */
  readonly endpoint?: string;
}

const STREAMABLE_PACKAGE = '@mcpc/transport-streamable-http';
const SSE_PACKAGE = '@mcpc/transport-sse-legacy';

/** A server over MCP's Streamable HTTP transport. */
export function streamableHttp(options: HttpServerOptions): ServerConfig {
  return httpConfig('streamable-http', options, parseUrl(options.url), (url, context) =>
    openStreamable(url, options, context, 'streamable'),
  );
}

/** A server that does plain JSON request/response over HTTP: no SSE, no GET stream. */
export function http(options: PlainHttpServerOptions): ServerConfig {
  const base = parseUrl(options.url);
  const url = options.endpoint === undefined ? base : new URL(options.endpoint, base);
  return httpConfig('http', options, url, (u, context) => openStreamable(u, options, context, 'json'));
}

/** A server over the deprecated HTTP+SSE transport (MCP 2024-11-05). Its notice is given once it connects. */
export function sse(options: HttpServerOptions): ServerConfig {
  return {
    ...httpConfig('sse', options, parseUrl(options.url), async (url, context) => {
      const { SseTransport } = await load(SSE_PACKAGE, () => import('@mcpc/transport-sse-legacy'));
      return new SseTransport({
        ...transportOptions(options),
        url,
        logger: context.logger,
        deprecationNotice: false,
      } as ConstructorParameters<typeof SseTransport>[0]);
    }),
    deprecated: 'sse-transport',
  };
}

/**
 * An HTTP URL whose transport is not known: Streamable HTTP first, then HTTP+SSE, then plain HTTP, as
 * the seed's transport detection says. The next one is tried only on evidence that the server speaks
 * another transport (HTTP 400/404/405/406/415, a response that is not the transport's, an SSE stream
 * without an endpoint); an auth wall (401/403), an outage (refused connection, 5xx, timeout) or a
 * JSON-RPC error ends the attempt with that error, so an outage is never mistaken for an older server.
 */
export function autoHttp(options: HttpServerOptions): ServerConfig {
  const plain = http(options);
  const legacy: ServerConfig = {
    ...sse(options),
    fallback: (error) => (speaksAnotherTransport(error) ? plain : undefined),
  };
  return { ...streamableHttp(options), fallback: (error) => (speaksAnotherTransport(error) ? legacy : undefined) };
}

/** Whether a failed connection attempt says "not this transport" rather than "not now" or "not you". */
export function speaksAnotherTransport(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    const { code, status } = e as { code?: unknown; status?: unknown };
    if (
      code === TransportErrorCode.Unauthorized ||
      code === TransportErrorCode.NetworkError ||
      code === TransportErrorCode.TransientServerError ||
      code === JsonRpcErrorCode.RequestTimeout
    )
      return false;
    if (code === TransportErrorCode.HttpError && typeof status === 'number')
      return status < 300 || [400, 404, 405, 406, 415].includes(status);
    if (code === TransportErrorCode.EndpointTimeout || code === TransportErrorCode.ResponseStreamClosed) return true;
  }
  return false;
}

function httpConfig(
  kind: string,
  options: HttpServerOptions,
  url: URL,
  open: (url: URL, context: TransportContext) => Promise<Transport>,
): ServerConfig {
  const config: { -readonly [K in keyof ServerConfig]: ServerConfig[K] } = {
    kind,
    label: safeLabel(url),
    open: (context) => open(url, context),
  };
  if (options.name !== undefined) config.name = options.name;
  if (options.requestTimeout !== undefined) config.requestTimeout = options.requestTimeout;
  if (kind !== 'sse') withEra(config, options.protocol, options.discoverTimeout);
  return config;
}

async function openStreamable(
  url: URL,
  options: HttpServerOptions,
  context: TransportContext,
  mode: 'streamable' | 'json',
): Promise<Transport> {
  const { StreamableHttpTransport } = await load(STREAMABLE_PACKAGE, () => import('@mcpc/transport-streamable-http'));
  return new StreamableHttpTransport({
    ...transportOptions(options),
    url,
    mode,
    logger: context.logger,
  } as ConstructorParameters<typeof StreamableHttpTransport>[0]);
}

function transportOptions(options: HttpServerOptions): Record<string, unknown> {
  const {
    name: _name,
    requestTimeout: _timeout,
    url: _url,
    protocol: _protocol,
    discoverTimeout: _discover,
    ...rest
  } = options as HttpServerOptions & { endpoint?: string };
  delete (rest as { endpoint?: string }).endpoint;
  return rest;
}

async function load<T>(pkg: string, importer: () => Promise<T>): Promise<T> {
  try {
    return await importer();
  } catch (error) {
    throw new TransportUnavailableError(
      pkg,
      `this server needs ${pkg}, which could not be loaded; install it next to @mcpc/client (npm install ${pkg})`,
      error,
    );
  }
}

function parseUrl(value: string | URL): URL {
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`an HTTP server needs an http: or https: URL, not ${url.protocol}`);
  return url;
}

/** The URL as it may appear in names and logs: no credentials, no query, no fragment. */
export const safeLabel = (url: URL): string => `${url.origin}${url.pathname === '/' ? '' : url.pathname}`;
