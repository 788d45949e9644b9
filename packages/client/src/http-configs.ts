// HTTP server configs: `streamableHttp()`, `http()`, `sse()`, `autoHttp()`, each loading its transport on demand.
//
// Each is typed by its transport's own options and loads that transport's package on demand.
import { JsonRpcErrorCode, TransportErrorCode, serverConfig, urlLabel, type ServerConfig } from '@mcpc/jsonrpc';
// Types only: the transports are optional peers, loaded with `import()` when a server is opened.
import type {
  HeadersOption,
  PlainHttpConfigOptions,
  StreamableHttpConfigOptions,
} from '@mcpc/transport-streamable-http';
import type { SseConfigOptions } from '@mcpc/transport-sse-legacy';
import { TransportUnavailableError } from './errors.js';

/** Headers for every HTTP request: fixed, or computed per request (a rotating token). */
export type HttpHeaders = HeadersOption;

/** What `streamableHttp()` takes: the options of `@mcpc/transport-streamable-http`'s `streamableHttp()`. */
export type HttpServerOptions = StreamableHttpConfigOptions;

/** What `http()` takes: the options of `@mcpc/transport-streamable-http`'s `http()`. */
export type PlainHttpServerOptions = PlainHttpConfigOptions;

/** What `sse()` takes: the options of `@mcpc/transport-sse-legacy`'s `sse()`. */
export type SseServerOptions = SseConfigOptions;

/**
 * What `autoHttp()` takes: the options of every transport it may try; each transport reads its own
 * (`listen` is Streamable HTTP's, `endpointTimeoutMs` HTTP+SSE's).
 */
export type AutoHttpServerOptions = StreamableHttpConfigOptions & SseConfigOptions;

const STREAMABLE_PACKAGE = '@mcpc/transport-streamable-http';
const SSE_PACKAGE = '@mcpc/transport-sse-legacy';
const loadStreamable = () => load(STREAMABLE_PACKAGE, () => import('@mcpc/transport-streamable-http'));

/** A server over MCP's Streamable HTTP transport. */
export function streamableHttp(options: StreamableHttpConfigOptions): ServerConfig {
  return serverConfig(
    {
      kind: 'streamable-http',
      label: urlLabel(parseUrl(options.url)),
      open: async (context) => (await loadStreamable()).streamableHttp(options).open(context),
    },
    options,
  );
}

/** A server that does plain JSON request/response over HTTP: no SSE, no GET stream. */
export function http(options: PlainHttpConfigOptions): ServerConfig {
  const base = parseUrl(options.url);
  const url = options.endpoint === undefined ? base : new URL(options.endpoint, base);
  return serverConfig(
    {
      kind: 'http',
      label: urlLabel(url),
      open: async (context) => (await loadStreamable()).http(options).open(context),
    },
    options,
  );
}

/** A server over the deprecated HTTP+SSE transport (MCP 2024-11-05). Its notice is given once it connects. */
export function sse(options: SseConfigOptions): ServerConfig {
  return serverConfig(
    {
      kind: 'sse',
      label: urlLabel(parseUrl(options.url)),
      deprecated: 'sse-transport',
      open: async (context) =>
        (await load(SSE_PACKAGE, () => import('@mcpc/transport-sse-legacy'))).sse(options).open(context),
    },
    options,
    false,
  );
}

/**
 * An HTTP URL whose transport is not known: Streamable HTTP first, then HTTP+SSE, then plain HTTP, as
 * the seed's transport detection says. The next one is tried only on evidence that the server speaks
 * another transport (HTTP 400/404/405/406/415, a response that is not the transport's, an SSE stream
 * without an endpoint); an auth wall (401/403), an outage (refused connection, 5xx, timeout) or a
 * JSON-RPC error ends the attempt with that error, so an outage is never mistaken for an older server.
 */
export function autoHttp(options: AutoHttpServerOptions): ServerConfig {
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
