// Makes the HTTP client of a transport, loaded on first request from the clients this runtime has.
import type { ClientSettings } from './platform.js';
import { proxyConfigured, type Environment } from './proxy.js';
import type { HttpClient, HttpClientOptions, HttpRequest, HttpResponse } from './types.js';

/**
 * The HTTP client of a transport. Nothing is loaded until the first request: importing the transport
 * costs neither undici, `node:http` nor the fetch client, and the choice between them is made then, once,
 * by the clients this runtime has (`#http-clients`: Node's modules where they exist, fetch alone in a
 * browser or a Worker — a bundler following the `browser` or `worker` condition takes no `node:` module).
 */
export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const fetch = options.fetch;
  const choice = options.choice ?? (fetch !== undefined ? 'fetch' : 'auto');
  const dispatcher = options.dispatcher;
  if (dispatcher !== undefined && choice !== 'auto' && choice !== 'undici')
    throw new TypeError(`a dispatcher is undici's: it cannot be used with httpClient: '${choice}'`);
  if (fetch !== undefined && choice !== 'fetch')
    throw new TypeError(`a fetch function is for httpClient: 'fetch', not '${choice}'`);
  // Proxy variables are read once, as the transport is made, like undici's EnvHttpProxyAgent does.
  const env = options.env ?? (globalThis as { process?: { env?: Environment } }).process?.env ?? {};
  const settings: ClientSettings = {
    choice,
    dispatcher,
    fetch,
    connectTimeout: options.connectTimeout ?? 10_000,
    maxConnections: options.maxConnections ?? 64,
    proxy: proxyConfigured(env),
    env,
  };
  return new LazyHttpClient(async () => (await import('#http-clients')).clients.load(settings));
}

/**
 * The client `createHttpClient()` picks by default in this install: `'undici'` when undici can be
 * imported here, else `'node'` (`node:http`), or `'fetch'` where Node's client is not there (a browser,
 * a Worker) or is built on fetch itself (Bun). For diagnostics: an `https:` proxy, say, needs undici.
 */
export async function defaultHttpClient(): Promise<'undici' | 'node' | 'fetch'> {
  return (await import('#http-clients')).clients.defaultClient();
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
