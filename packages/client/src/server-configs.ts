// Server configs: `stdio()`, and the specs a client takes (a config or a ready transport).
//
// `stdio()` is typed by the stdio transport's own options.
import {
  checkEraOptions,
  serverConfig,
  type ServerConfig,
  type ServerConfigOptions,
  type Transport,
} from '@mcpc/jsonrpc';
// Types only: the transport is an optional peer, loaded with `import()` when a server is opened.
import type { StdioConfigOptions } from '@mcpc/transport-stdio';
import { TransportUnavailableError } from './errors.js';

// The contract is the kernel's (`@mcpc/jsonrpc`), so every transport's factory makes the same thing.
export type { ServerConfig, TransportContext } from '@mcpc/jsonrpc';

/** A server reached through a transport the host built itself (any `@mcpc/jsonrpc` `Transport`). */
export interface TransportServerConfig extends ServerConfigOptions {
  readonly transport: Transport;
}

export type ServerSpec = ServerConfig | TransportServerConfig;

/** What `stdio()` takes: the options of `@mcpc/transport-stdio`'s `stdio()`, every transport option typed. */
export type StdioServerOptions = StdioConfigOptions;

const STDIO_PACKAGE = '@mcpc/transport-stdio';

/**
 * A server spawned as a child process, spoken to over its stdin and stdout: `@mcpc/transport-stdio`'s
 * `stdio()`, whose package is loaded only when the server is opened.
 */
export function stdio(options: StdioConfigOptions): ServerConfig {
  if (typeof options?.command !== 'string' || options.command.length === 0)
    throw new TypeError('stdio() needs a command');
  return serverConfig(
    {
      kind: 'stdio',
      label: [options.command, ...(options.args ?? [])].join(' '),
      open: async (context) => (await loadStdio()).stdio(options).open(context),
    },
    options,
  );
}

/** Sets a config's era options, checked. */
export function withEra(
  config: { -readonly [K in keyof ServerConfig]: ServerConfig[K] },
  protocol: unknown,
  discoverTimeout: unknown,
): void {
  Object.assign(config, checkEraOptions(protocol, discoverTimeout));
}

async function loadStdio() {
  try {
    return await (await import('#platform')).loadStdioPackage();
  } catch (error) {
    // A browser or a Worker (platform-web.ts): not a missing package, a runtime without processes.
    if ((error as { notInThisRuntime?: unknown } | null)?.notInThisRuntime === true)
      throw new TransportUnavailableError(STDIO_PACKAGE, (error as Error).message, error);
    throw new TransportUnavailableError(
      STDIO_PACKAGE,
      `connecting to a stdio server needs ${STDIO_PACKAGE}, which could not be loaded; install it next to @mcpc/client (npm install ${STDIO_PACKAGE})`,
      error,
    );
  }
}

export const isTransportConfig = (spec: ServerSpec): spec is TransportServerConfig =>
  'transport' in spec && !('open' in spec);

/** Normalizes a spec to a config: a ready transport becomes a factory that hands it out once. */
export function toConfig(spec: ServerSpec): ServerConfig {
  if (!isTransportConfig(spec)) {
    if (typeof spec?.open !== 'function')
      throw new TypeError('a server config needs an open() factory (use stdio({ … })) or a transport');
    return spec;
  }
  const { transport } = spec;
  if (typeof transport?.start !== 'function' || typeof transport.send !== 'function')
    throw new TypeError('the transport of a server config must implement Transport');
  let used = false;
  return serverConfig(
    {
      kind: 'custom',
      label:
        transport.constructor?.name && transport.constructor.name !== 'Object' ? transport.constructor.name : 'server',
      open: async () => {
        // A transport instance starts once; reconnecting needs a factory config.
        if (used)
          throw new TypeError('this server was configured with a transport instance, which can be started only once');
        used = true;
        return transport;
      },
    },
    spec,
  );
}
