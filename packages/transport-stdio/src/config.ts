// The config factory `stdio()`: this transport's options plus the config-level ones, as the kernel's `ServerConfig`.
import { serverConfig, transportPart, type ServerConfig, type ServerConfigOptions } from '@mcpc/jsonrpc';
import type { StdioTransportOptions } from './stdio-options.js';
import { StdioTransport } from './stdio-transport.js';

/**
 * What `stdio()` takes: every option of the transport (but `logger`, which the client passes per
 * connection) and the config-level ones.
 */
export interface StdioConfigOptions extends ServerConfigOptions, Omit<StdioTransportOptions, 'logger'> {}

/** A server spawned as a child process, spoken to over its stdin and stdout. */
export function stdio(options: StdioConfigOptions): ServerConfig {
  if (typeof options?.command !== 'string' || options.command.length === 0)
    throw new TypeError('stdio() needs a command');
  return serverConfig(
    {
      kind: 'stdio',
      label: stdioLabel(options),
      open: async ({ logger }) => new StdioTransport({ ...transportPart(options), logger }),
    },
    options,
  );
}

/** The command line a stdio config is labelled (and its server named) by. */
const stdioLabel = (options: Pick<StdioConfigOptions, 'command' | 'args'>): string =>
  [options.command, ...(options.args ?? [])].join(' ');
