// The `tcp()` server config: how @mcpc/client opens a TcpTransport, once per connection attempt.

import type { ServerConfig } from '@mcpc/client';
import { TcpTransport, type TcpTransportOptions } from './tcp-transport.js';

export interface TcpServerOptions extends TcpTransportOptions {
  /** The server's name within the client (derived from `tcp://host:port` when absent). */
  readonly name?: string;
  /** Default timeout for this server's requests, in milliseconds. */
  readonly requestTimeout?: number;
}

/**
 * A server config for `new Client({ servers: [tcp({ port })] })`. A factory rather than a transport
 * instance, so the client can open a fresh connection when it reconnects.
 */
export function tcp(options: TcpServerOptions): ServerConfig {
  const { name, requestTimeout, ...transportOptions } = options;
  const label = new TcpTransport(transportOptions).label;
  return {
    kind: 'tcp',
    label,
    ...(name === undefined ? {} : { name }),
    ...(requestTimeout === undefined ? {} : { requestTimeout }),
    open: async () => new TcpTransport(transportOptions),
  };
}
