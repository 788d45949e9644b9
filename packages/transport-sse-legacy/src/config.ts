// The config factory `sse()`: this transport's options plus the config-level ones, as the kernel's `ServerConfig`.
import { serverConfig, transportPart, urlLabel, type ServerConfig, type ServerConfigOptions } from '@mcpc/jsonrpc';
import type { SseTransportOptions } from './options.js';
import { SseTransport } from './transport.js';

/**
 * What `sse()` takes: every option of the transport (but `logger`, which the client passes per
 * connection, and `deprecationNotice`: the client gives the notice) and the config-level ones.
 * `protocol` and `discoverTimeout` are ignored: this transport predates the stateless era.
 */
export interface SseConfigOptions
  extends ServerConfigOptions, Omit<SseTransportOptions, 'logger' | 'deprecationNotice'> {}

/**
 * A server over the deprecated HTTP+SSE transport (MCP 2024-11-05). The config names the deprecated
 * feature (`deprecated: 'sse-transport'`), so the client gives the notice once it connects, once per
 * process, and the transport's own notice stays off.
 */
export function sse(options: SseConfigOptions): ServerConfig {
  const url = new URL(options.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`an HTTP server needs an http: or https: URL, not ${url.protocol}`);
  return serverConfig(
    {
      kind: 'sse',
      label: urlLabel(url),
      deprecated: 'sse-transport',
      open: async ({ logger }) =>
        new SseTransport({ ...transportPart(options), url, logger, deprecationNotice: false }),
    },
    options,
    false,
  );
}
