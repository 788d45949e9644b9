import type { Readable } from 'node:stream';
import type * as Undici from 'undici';
import { HttpClientUnavailableError } from './errors.js';

export type HttpMethod = 'POST' | 'GET' | 'DELETE';

/** Response headers, names in lower case (a repeated header as an array). */
export type HttpHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** A response as every HTTP client here delivers it. */
export interface HttpResponse {
  readonly statusCode: number;
  readonly headers: HttpHeaders;
  /** The body's bytes as they came (still compressed, if they were): read it, or `discard` it. */
  readonly body: Readable;
}

export interface HttpRequest {
  readonly url: URL;
  readonly method: HttpMethod;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  /** Aborts the exchange, before or after the response headers. */
  readonly signal: AbortSignal;
  /** Milliseconds to wait for the response headers. */
  readonly headersTimeout: number;
  /** Milliseconds of silence allowed between body chunks; 0 for none. */
  readonly bodyTimeout: number;
  /**
   * A stream that may stay open for as long as the host wants it (a subscription): carried on
   * connections outside the `maxConnections` bound, so that many held open cannot starve other requests.
   */
  readonly longLived?: boolean;
  /**
   * A notification or a reply to a server's request: carried on a few connections of its own
   * (`CONTROL_CONNECTIONS`), so that calls holding every bounded connection — each waiting, say,
   * for the answer to an elicitation the server asked on its stream — cannot keep that answer, or a
   * cancellation, from going out.
   */
  readonly control?: boolean;
}

/** Sends HTTP requests; see {@link createHttpClient}. */
export interface HttpClient {
  request(request: HttpRequest): Promise<HttpResponse>;
  /** Releases the connections it opened (a dispatcher you passed is left open). */
  close(): Promise<void>;
}

/**
 * Which HTTP client carries the requests:
 * - `'auto'` (default): undici when it is installed, else Node's `node:http`/`node:https`;
 * - `'undici'`: undici, which must be installed (`HttpClientUnavailableError` otherwise);
 * - `'node'`: `node:http`/`node:https`, even when undici is installed.
 *
 * A `dispatcher` is always used through undici's API; proxy variables need undici too.
 */
export type HttpClientChoice = 'auto' | 'undici' | 'node';

/**
 * An undici `Dispatcher` (an `Agent` with TLS options, a `ProxyAgent`, one composed with interceptors),
 * declared by shape so that this package's types need no undici installed.
 */
export interface UndiciDispatcher {
  request(...args: never[]): unknown;
  dispatch(...args: never[]): unknown;
  close(...args: never[]): unknown;
}

export interface HttpClientOptions {
  readonly choice?: HttpClientChoice;
  readonly dispatcher?: UndiciDispatcher | undefined;
  /** Milliseconds to establish a connection, with the client's own connections (10 000). */
  readonly connectTimeout?: number;
  /**
   * Most connections open at once per origin, with the client's own connections (64); requests past it
   * wait. Long-lived streams (`HttpRequest.longLived`) are not counted: each is one the host asked for.
   */
  readonly maxConnections?: number;
  /** The environment whose proxy variables count (`process.env`), read once, here. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy'];

/** Whether the environment asks for a proxy (`NO_PROXY` alone does not: it only exempts hosts from one). */
export function proxyConfigured(env: Readonly<Record<string, string | undefined>>): boolean {
  return PROXY_VARIABLES.some((name) => (env[name] ?? '') !== '');
}

/**
 * The HTTP client of a transport. Nothing is loaded until the first request: importing the transport
 * costs neither undici nor `node:http`, and the choice between them is made then, once.
 */
export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const choice = options.choice ?? 'auto';
  const dispatcher = options.dispatcher;
  if (dispatcher !== undefined && choice === 'node') throw new TypeError("a dispatcher is undici's: it cannot be used with httpClient: 'node'");
  const connectTimeout = options.connectTimeout ?? 10_000;
  const maxConnections = options.maxConnections ?? 64;
  // Proxy variables are read once, as the transport is made, like undici's EnvHttpProxyAgent does.
  const proxy = proxyConfigured(options.env ?? process.env);
  return new LazyHttpClient(async () => {
    if (dispatcher !== undefined) return (await import('./undici-client.js')).fromDispatcher(dispatcher);
    if (choice !== 'node') {
      const undici = await importUndici();
      if (undici !== undefined) return (await import('./undici-client.js')).ownAgent(undici, { connectTimeout, proxy, maxConnections });
      if (choice === 'undici') throw new HttpClientUnavailableError("httpClient: 'undici' was asked for");
    }
    // Node's client has no proxy support: going around a proxy the environment names would be wrong.
    if (proxy) throw new HttpClientUnavailableError('HTTP_PROXY or HTTPS_PROXY is set');
    return (await import('./node-client.js')).nodeClient({ connectTimeout, maxConnections });
  });
}

async function importUndici(): Promise<typeof Undici | undefined> {
  try {
    return await import('undici');
  } catch (error) {
    // Only its absence means "use Node's"; a broken install must not be papered over.
    const e = error as { code?: unknown; message?: unknown } | null;
    if (e?.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes("'undici'")) return undefined;
    throw error;
  }
}

/** Resolves the real client on first use; after that, a request costs no extra await. */
class LazyHttpClient implements HttpClient {
  readonly #load: () => Promise<HttpClient>;
  #loading: Promise<HttpClient> | undefined;
  #client: HttpClient | undefined;
  #closed = false;

  constructor(load: () => Promise<HttpClient>) {
    this.#load = load;
  }

  request(request: HttpRequest): Promise<HttpResponse> {
    if (this.#client !== undefined) return this.#client.request(request);
    return this.#resolve().then((client) => client.request(request));
  }

  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client ?? (await this.#loading?.catch(() => undefined));
    await client?.close();
  }

  #resolve(): Promise<HttpClient> {
    this.#loading ??= this.#load().then((client) => {
      this.#client = client;
      // Closed while loading: whatever it opens later must not linger.
      if (this.#closed) void client.close();
      return client;
    });
    // A failed load (undici missing where it is needed) is reported again on every request.
    return this.#loading.catch((error: unknown) => {
      this.#loading = undefined;
      throw error;
    });
  }
}
