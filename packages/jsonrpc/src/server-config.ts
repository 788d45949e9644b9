// The server-config contract: what a client needs to open a server (`ServerConfig`), and shared config-level options.
//
// The config-level options are those every transport's factory shares.
import type { Logger } from './logger.js';
import type { Transport } from './transport.js';

/** The protocol era a server config asks for: detect it (`'auto'`), or insist on one. */
export type ProtocolChoice = 'auto' | 'modern' | 'legacy';

/** What a config's `open` gets. */
export interface TransportContext {
  /** The server's name within the client. */
  readonly name: string;
  readonly logger: Logger;
}

/**
 * How to reach one server: a factory for its transport, plus what the client needs to know before it
 * opens one. Each transport package makes them (`stdio()`, `streamableHttp()`, `http()`, `sse()`);
 * `@mcpc/client` re-exports those factories and loads a transport package only when a server is opened.
 */
export interface ServerConfig {
  /** Unique within the client. Derived from `label` when absent. */
  readonly name?: string;
  /** The transport's kind, for messages: `'stdio'`, `'streamable-http'`, `'custom'`, … */
  readonly kind: string;
  /** A human description (the command line, the URL) that a name is derived from. Never holds credentials. */
  readonly label: string;
  readonly open: (context: TransportContext) => Promise<Transport>;
  /** Default timeout for this server's requests, in milliseconds (the client's `requestTimeout` otherwise). */
  readonly requestTimeout?: number;
  /**
   * A deprecated transport names its feature as MCP's deprecated-features registry does (the HTTP+SSE
   * transport: `'sse-transport'`); the client gives its notice once it connects.
   */
  readonly deprecated?: string;
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

/** The options of every transport's config factory besides the transport's own: declared once, extended by each. */
export interface ServerConfigOptions {
  /** The server's name within the client; derived from the command line or URL when absent. */
  readonly name?: string;
  /** Default timeout for this server's requests, in milliseconds. */
  readonly requestTimeout?: number;
  /** The protocol era (see `ServerConfig.protocol`). */
  readonly protocol?: ProtocolChoice;
  /** Bound on the `server/discover` probe, in milliseconds. */
  readonly discoverTimeout?: number;
}

/** The config-level option names, for a factory to take them out of what it passes to its transport. */
export const SERVER_CONFIG_OPTION_KEYS: readonly (keyof ServerConfigOptions)[] = Object.freeze([
  'name',
  'requestTimeout',
  'protocol',
  'discoverTimeout',
]);

/** Checks a `protocol` option: undefined means `'auto'`. */
export function checkProtocolChoice(value: unknown): ProtocolChoice {
  if (value === undefined) return 'auto';
  if (value !== 'auto' && value !== 'modern' && value !== 'legacy')
    throw new TypeError('protocol must be "auto", "modern" or "legacy"');
  return value;
}

/** The era options, checked (a `TypeError` for a bad one), leaving out those not given. */
export function checkEraOptions(
  protocol: unknown,
  discoverTimeout: unknown,
): Pick<ServerConfig, 'protocol' | 'discoverTimeout'> {
  const era: { protocol?: ProtocolChoice; discoverTimeout?: number } = {};
  if (protocol !== undefined) era.protocol = checkProtocolChoice(protocol);
  if (discoverTimeout !== undefined) {
    if (typeof discoverTimeout !== 'number' || !(discoverTimeout > 0))
      throw new TypeError('discoverTimeout must be a positive number of milliseconds');
    era.discoverTimeout = discoverTimeout;
  }
  return era;
}

/**
 * Builds a config from its transport part and the config-level options, checked: what every transport
 * factory returns. `era: false` leaves `protocol` and `discoverTimeout` out (a transport older than the
 * stateless era).
 */
export function serverConfig(
  base: Pick<ServerConfig, 'kind' | 'label' | 'open' | 'deprecated'>,
  options: ServerConfigOptions,
  era = true,
): ServerConfig {
  return {
    kind: base.kind,
    label: base.label,
    open: base.open,
    ...(base.deprecated !== undefined && { deprecated: base.deprecated }),
    ...(options.name !== undefined && { name: options.name }),
    ...(options.requestTimeout !== undefined && { requestTimeout: options.requestTimeout }),
    ...(era && checkEraOptions(options.protocol, options.discoverTimeout)),
  };
}

/** Options without the config-level fields: what a factory hands its transport. */
export function transportPart<T extends ServerConfigOptions>(options: T): Omit<T, keyof ServerConfigOptions> {
  const rest: Record<string, unknown> = { ...(options as object) };
  for (const key of SERVER_CONFIG_OPTION_KEYS) delete rest[key];
  return rest as Omit<T, keyof ServerConfigOptions>;
}

/** A URL as it may appear in a config's label, names and logs: no credentials, no query, no fragment. */
export const urlLabel = (url: URL): string => `${url.origin}${url.pathname === '/' ? '' : url.pathname}`;
