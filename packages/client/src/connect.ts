// `connect()`: a client from a command line, URL or config, with the transport chosen or detected.
import { Client, type ClientOptions } from './client.js';
import { autoHttp, sse, streamableHttp, type HttpServerOptions } from './http-configs.js';
import { httpConfig } from './http-choice.js';
import type { ProtocolChoice } from './server/detect.js';
import { stdio, withEra, type ServerConfig, type ServerSpec, type StdioServerOptions } from './server-configs.js';

/** Which transport a URL target uses; `'auto'` detects it (see {@link connect}). */
export type TransportChoice = 'auto' | 'stdio' | 'streamable-http' | 'sse' | 'http';

/**
 * What `connect` accepts for one server: a command line (`'npx -y some-server'`, optionally prefixed
 * `stdio://`), an argv array (`['node', 'server.js']`), an http(s) URL, or a server config.
 */
export type ConnectTarget = string | readonly string[] | ServerSpec;

export interface ConnectOptions extends Omit<ClientOptions, 'servers'> {
  /** The server's name, for a single target. */
  readonly name?: string;
  /** For stdio targets: extra environment variables, working directory, stderr sink. */
  readonly env?: StdioServerOptions['env'];
  readonly cwd?: string;
  readonly onStderr?: StdioServerOptions['onStderr'];
  /** Forces a transport instead of detecting it from the target. */
  readonly transport?: TransportChoice;
  /** For HTTP targets: headers on every request (an object, or a function evaluated per request). */
  readonly headers?: HttpServerOptions['headers'];
  /** For HTTP targets: re-sends of idempotent requests after a network error or 5xx (never `tools/call`). */
  readonly retries?: number;
  /** For HTTP targets: your undici `Dispatcher` (TLS, a custom CA, a proxy, interceptors). */
  readonly dispatcher?: HttpServerOptions['dispatcher'];
  /** For HTTP targets: the authorization provider (an `OAuthProvider` from `@mcpc/oauth`). */
  readonly auth?: HttpServerOptions['auth'];
  readonly connectTimeout?: number;
  readonly readTimeout?: number;
  readonly maxDecompressedBodyBytes?: number;
  /** Shorthand for `requestTimeout`. */
  readonly timeout?: number;
  /** The protocol era for every target (see `ServerConfig.protocol`); dropped for an HTTP+SSE target. */
  readonly protocol?: ProtocolChoice;
  /** Bound on the `server/discover` probe, for every target. */
  readonly discoverTimeout?: number;
}

/**
 * Creates a client for one target or several and connects it: resolves once every server has
 * completed the handshake, or closes everything and rejects with the first `ConnectionError`.
 *
 * An array is one argv when its first element is neither a URL nor contains whitespace
 * (`['node', 'server.js']`); otherwise each element is a target of its own
 * (`['npx -y a', ['node', 'b.js'], 'https://c.example/mcp']`).
 */
export async function connect(
  target: ConnectTarget | readonly (ConnectTarget | readonly string[])[],
  options: ConnectOptions = {},
): Promise<Client> {
  const {
    name,
    env,
    cwd,
    onStderr,
    transport,
    headers,
    retries,
    dispatcher,
    auth,
    connectTimeout,
    readTimeout,
    maxDecompressedBodyBytes,
    timeout,
    protocol,
    discoverTimeout,
    ...clientOptions
  } = options;
  const targets: (ConnectTarget | readonly string[])[] =
    Array.isArray(target) && !isArgv(target) ? [...target] : [target as ConnectTarget];
  if (targets.length === 0) throw new TypeError('connect() needs at least one target');
  if (name !== undefined && targets.length > 1)
    throw new TypeError('the name option applies to a single target; use server configs to name several');
  const stdioExtras = { ...(env && { env }), ...(cwd !== undefined && { cwd }), ...(onStderr && { onStderr }) };
  const httpExtras: Omit<HttpServerOptions, 'url'> = {
    ...(headers !== undefined && { headers }),
    ...(retries !== undefined && { retries }),
    ...(dispatcher !== undefined && { dispatcher }),
    ...(auth !== undefined && { auth }),
    ...(connectTimeout !== undefined && { connectTimeout }),
    ...(readTimeout !== undefined && { readTimeout }),
    ...(maxDecompressedBodyBytes !== undefined && { maxDecompressedBodyBytes }),
  };
  const servers = targets.map((t) =>
    withEraOptions(
      toSpec(t, { stdio: stdioExtras, http: httpExtras, transport: transport ?? 'auto' }, name),
      protocol,
      discoverTimeout,
    ),
  );
  const requestTimeout = clientOptions.requestTimeout ?? timeout;
  const client = new Client({ ...clientOptions, ...(requestTimeout !== undefined && { requestTimeout }), servers });
  try {
    await client.connect();
  } catch (error) {
    await client.close();
    throw error;
  }
  return client;
}

/** The era options on a spec, unless the spec set its own; an HTTP+SSE config has no era to choose. */
function withEraOptions(
  spec: ServerSpec,
  protocol: ProtocolChoice | undefined,
  discoverTimeout: number | undefined,
): ServerSpec {
  if (protocol === undefined && discoverTimeout === undefined) return spec;
  if ('kind' in spec && spec.kind === 'sse') return spec;
  const copy = { ...spec } as { -readonly [K in keyof ServerConfig]: ServerConfig[K] };
  withEra(copy, spec.protocol ?? protocol, spec.discoverTimeout ?? discoverTimeout);
  return copy as ServerSpec;
}

const URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

function isArgv(value: readonly unknown[]): value is readonly string[] {
  const first = value[0];
  return (
    value.every((v) => typeof v === 'string') &&
    typeof first === 'string' &&
    !URL_SCHEME.test(first) &&
    !/\s/.test(first)
  );
}

interface Extras {
  readonly stdio: Partial<StdioServerOptions>;
  readonly http: Omit<HttpServerOptions, 'url'>;
  readonly transport: TransportChoice;
}

function toSpec(target: ConnectTarget | readonly string[], extras: Extras, name: string | undefined): ServerSpec {
  const named = name === undefined ? {} : { name };
  if (Array.isArray(target)) {
    if (!isArgv(target)) throw new TypeError('an argv target must be an array of strings, the command first');
    const [command, ...args] = target;
    return stdio({ ...extras.stdio, ...named, command: command!, args });
  }
  if (typeof target !== 'string') {
    if (typeof target === 'object' && target !== null)
      return name === undefined ? (target as ServerSpec) : { ...(target as ServerSpec), name };
    throw new TypeError('a connect target is a command line, an argv array, a URL or a server config');
  }
  const text = target.trim();
  if (text.startsWith('stdio://')) return commandSpec(text.slice('stdio://'.length), extras.stdio, named);
  if (/^https?:\/\//i.test(text)) return urlSpec(new URL(text), extras, named);
  if (URL_SCHEME.test(text))
    throw new TypeError(
      `unsupported target scheme in "${text.slice(0, 40)}": use a command line, an http(s) URL or a server config`,
    );
  if (extras.transport !== 'auto' && extras.transport !== 'stdio')
    throw new TypeError(`transport "${extras.transport}" needs an http(s) URL, not a command line`);
  return commandSpec(text, extras.stdio, named);
}

/**
 * The seed's transport detection: a path ending in `/sse` is the (deprecated) HTTP+SSE transport, one
 * ending in `/mcp` Streamable HTTP, and any other URL is tried as Streamable HTTP, then HTTP+SSE, then
 * plain HTTP. `transport` forces one.
 */
function urlSpec(url: URL, extras: Extras, named: { name?: string }): ServerSpec {
  const options: HttpServerOptions = { ...extras.http, ...named, url };
  const path = url.pathname.replace(/\/+$/, '');
  if (extras.transport === 'stdio') throw new TypeError('transport "stdio" needs a command line, not a URL');
  if (extras.transport !== 'auto') return httpConfig(extras.transport, options);
  if (path.endsWith('/sse')) return sse(options);
  if (path.endsWith('/mcp')) return streamableHttp(options);
  return autoHttp(options);
}

function commandSpec(line: string, extras: Partial<StdioServerOptions>, named: { name?: string }): ServerSpec {
  const [command, ...args] = splitCommandLine(line);
  if (command === undefined) throw new TypeError('the command line is empty');
  return stdio({ ...extras, ...named, command, args });
}

/**
 * Splits a command line the way a POSIX shell splits words: whitespace separates, single quotes are
 * literal, double quotes and backslashes escape. Nothing is expanded and no shell ever runs it.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote !== undefined) throw new TypeError('the command line has an unterminated quote');
  if (inWord) words.push(word);
  return words;
}
