// The HTTP server config for a transport name (auto, streamable-http, http, sse): the one switch on those names.
import { autoHttp, http, sse, streamableHttp, type AutoHttpServerOptions } from './http-configs.js';
import type { ServerConfig } from './server-configs.js';

/** The HTTP transports by name, as `mcpc --transport` and `connect(…, { transport })` spell them. */
export type HttpTransportName = 'auto' | 'streamable-http' | 'http' | 'sse';

const NAMES: readonly string[] = ['auto', 'streamable-http', 'http', 'sse'] satisfies HttpTransportName[];

/**
 * The config for a server at a URL over the transport named: `streamable-http` ({@link streamableHttp}),
 * `http` (plain JSON over HTTP, {@link http}), `sse` (the deprecated HTTP+SSE, {@link sse}) or `auto`
 * (Streamable HTTP, falling back to HTTP+SSE then plain HTTP on evidence, {@link autoHttp}).
 * Any other name is a `TypeError` that lists them.
 */
export function httpConfig(transport: HttpTransportName, options: AutoHttpServerOptions): ServerConfig {
  switch (transport) {
    case 'streamable-http':
      return streamableHttp(options);
    case 'http':
      return http(options);
    case 'sse':
      return sse(options);
    case 'auto':
      return autoHttp(options);
  }
  throw new TypeError(`no HTTP transport is named "${String(transport)}"; use ${NAMES.join(', ')}`);
}
