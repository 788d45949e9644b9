// Server configs: `stdio()` and the `ServerConfig` contract — plain data that says how to start a transport, loaded on demand.
import type { Logger, Transport } from '@mcpc/jsonrpc';
import type { DeprecatedFeature } from './deprecations.js';
import { TransportUnavailableError } from './errors.js';
import { checkProtocolChoice, type ProtocolChoice } from './server/detect.js';

/** What a config's `open` gets. */
export interface TransportContext {
  /** The server's name within the client. */
  readonly name: string;
  readonly logger: Logger;
}

/**
 * How to reach one server: a factory for its transport. `stdio()` makes one; the HTTP transports'
 * factories (`streamableHttp()`, `sse()`, `http()`) will too, each loading its package only when a
 * connection is opened, so users pay only for the transports they use.
 */
export interface ServerConfig {
  /** Unique within the client. Derived from `label` when absent. */
  readonly name?: string;
  /** The transport's kind, for messages: `'stdio'`, `'custom'`, … */
  readonly kind: string;
  /** A human description (the command line, the URL) that a name is derived from. Never holds credentials. */
  readonly label: string;
  readonly open: (context: TransportContext) => Promise<Transport>;
  /** Default timeout for this server's requests, in milliseconds (the client's `requestTimeout` otherwise). */
  readonly requestTimeout?: number;
  /** A deprecated transport (the HTTP+SSE one) names its feature: its notice is given once it connects. */
  readonly deprecated?: DeprecatedFeature;
  /**
   * When connecting through this config fails, the config to try instead, if the error says the server
   * speaks another transport (transport detection for bare HTTP URLs). Undefined ends the attempt.
   */
  readonly fallback?: (error: unknown) => ServerConfig | undefined;
  /**
   * The protocol era: `'auto'` (default) probes with `server/discover` and falls back to the classic
   * `initialize` handshake only when the server shows it is classic; `'modern'` insists on MCP
   * 2026-07-28; `'legacy'` goes straight to `initialize`.
   */
  readonly protocol?: ProtocolChoice;
  /** Bound on the `server/discover` probe in milliseconds (10 000 on stdio; the handshake timeout elsewhere). */
  readonly discoverTimeout?: number;
}

/** A server reached through a transport the host built itself (any `@mcpc/jsonrpc` `Transport`). */
export interface TransportServerConfig {
  readonly name?: string;
  readonly transport: Transport;
  readonly requestTimeout?: number;
  readonly protocol?: ProtocolChoice;
  readonly discoverTimeout?: number;
}

export type ServerSpec = ServerConfig | TransportServerConfig;

export interface StdioServerOptions {
  readonly name?: string;
  readonly command: string;
  readonly args?: readonly string[];
  /** The child's environment, passed to the transport as given. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Receives what the server writes to stderr. */
  readonly onStderr?: (text: string) => void;
  /** Largest message accepted from the server, in bytes. */
  readonly maxMessageBytes?: number;
  readonly requestTimeout?: number;
  /** The protocol era (see `ServerConfig.protocol`). */
  readonly protocol?: ProtocolChoice;
  readonly discoverTimeout?: number;
}

const STDIO_PACKAGE = '@mcpc/transport-stdio';

/** A server spawned as a child process, spoken to over its stdin and stdout. */
export function stdio(options: StdioServerOptions): ServerConfig {
  if (typeof options?.command !== 'string' || options.command.length === 0)
    throw new TypeError('stdio() needs a command');
  const { name, requestTimeout, protocol, discoverTimeout, ...transportOptions } = options;
  const config: { -readonly [K in keyof ServerConfig]: ServerConfig[K] } = {
    kind: 'stdio',
    label: [options.command, ...(options.args ?? [])].join(' '),
    open: async (context) => {
      const { StdioTransport } = await loadStdio();
      return new StdioTransport({ ...transportOptions, logger: context.logger } as ConstructorParameters<
        typeof StdioTransport
      >[0]);
    },
  };
  if (name !== undefined) config.name = name;
  if (requestTimeout !== undefined) config.requestTimeout = requestTimeout;
  withEra(config, protocol, discoverTimeout);
  return config;
}

/** Sets a config's era options, checked. */
export function withEra(
  config: { -readonly [K in keyof ServerConfig]: ServerConfig[K] },
  protocol: unknown,
  discoverTimeout: unknown,
): void {
  if (protocol !== undefined) config.protocol = checkProtocolChoice(protocol);
  if (discoverTimeout !== undefined) {
    if (typeof discoverTimeout !== 'number' || !(discoverTimeout > 0))
      throw new TypeError('discoverTimeout must be a positive number of milliseconds');
    config.discoverTimeout = discoverTimeout;
  }
}

async function loadStdio() {
  try {
    return await import('@mcpc/transport-stdio');
  } catch (error) {
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
  const { transport, name, requestTimeout, protocol, discoverTimeout } = spec;
  if (typeof transport?.start !== 'function' || typeof transport.send !== 'function')
    throw new TypeError('the transport of a server config must implement Transport');
  let used = false;
  const config: { -readonly [K in keyof ServerConfig]: ServerConfig[K] } = {
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
  };
  if (name !== undefined) config.name = name;
  if (requestTimeout !== undefined) config.requestTimeout = requestTimeout;
  withEra(config, protocol, discoverTimeout);
  return config;
}
