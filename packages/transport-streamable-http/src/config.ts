// The config factories `streamableHttp()` and `http()`: this transport's options as the kernel's `ServerConfig`.
//
// They take this transport's options plus the config-level ones.
import {
  serverConfig,
  transportPart,
  urlLabel,
  type Logger,
  type ServerConfig,
  type ServerConfigOptions,
} from '@mcpc/jsonrpc';
import type { StreamableHttpTransportOptions } from './options.js';
import { StreamableHttpTransport } from './transport.js';

/**
 * What `streamableHttp()` takes: every option of the transport (but `mode`, which the factory chooses,
 * and `logger`, which the client passes per connection) and the config-level ones.
 */
export interface StreamableHttpConfigOptions
  extends ServerConfigOptions, Omit<StreamableHttpTransportOptions, 'mode' | 'logger'> {}

/** What `http()` takes: as `streamableHttp()`, plus the endpoint path. */
export interface PlainHttpConfigOptions extends StreamableHttpConfigOptions {
  /** A path (or URL) resolved against `url`, for servers whose JSON-RPC endpoint is not the base URL. */
  readonly endpoint?: string;
}

/** A server over MCP's Streamable HTTP transport. */
export function streamableHttp(options: StreamableHttpConfigOptions): ServerConfig {
  const url = httpUrl(options.url);
  return serverConfig(
    {
      kind: 'streamable-http',
      label: urlLabel(url),
      open: async (context) => open(options, url, 'streamable', context.logger),
    },
    options,
  );
}

/** A server that does plain JSON request/response over HTTP: no SSE, no GET stream. */
export function http(options: PlainHttpConfigOptions): ServerConfig {
  const base = httpUrl(options.url);
  const url = options.endpoint === undefined ? base : new URL(options.endpoint, base);
  return serverConfig(
    { kind: 'http', label: urlLabel(url), open: async (context) => open(options, url, 'json', context.logger) },
    options,
  );
}

function open(options: PlainHttpConfigOptions, url: URL, mode: 'streamable' | 'json', logger: Logger) {
  const { endpoint: _endpoint, ...rest } = transportPart(options);
  return new StreamableHttpTransport({ ...rest, url, mode, logger });
}

/** An HTTP server's URL, checked as the config is made (not when it is opened). */
function httpUrl(value: string | URL): URL {
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`an HTTP server needs an http: or https: URL, not ${url.protocol}`);
  return url;
}
