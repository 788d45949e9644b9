// Makes the HTTP client of a transport: undici when installed, else node:http, loaded on first request.
import type * as Undici from 'undici';
import { HttpClientUnavailableError } from './errors.js';
import { proxiesFrom, proxyConfigured } from './proxy.js';
import type { HttpClient, HttpClientOptions, HttpRequest, HttpResponse } from './types.js';

/**
 * The HTTP client of a transport. Nothing is loaded until the first request: importing the transport
 * costs neither undici nor `node:http`, and the choice between them is made then, once.
 */
export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const choice = options.choice ?? 'auto';
  const dispatcher = options.dispatcher;
  if (dispatcher !== undefined && choice === 'node')
    throw new TypeError("a dispatcher is undici's: it cannot be used with httpClient: 'node'");
  const connectTimeout = options.connectTimeout ?? 10_000;
  const maxConnections = options.maxConnections ?? 64;
  // Proxy variables are read once, as the transport is made, like undici's EnvHttpProxyAgent does.
  const env = options.env ?? process.env;
  const proxy = proxyConfigured(env);
  return new LazyHttpClient(async () => {
    if (dispatcher !== undefined) return (await import('./undici-client.js')).fromDispatcher(dispatcher);
    if (choice !== 'node') {
      const undici = await importUndici();
      if (undici !== undefined)
        return (await import('./undici-client.js')).ownAgent(undici, { connectTimeout, proxy, maxConnections });
      if (choice === 'undici')
        throw new HttpClientUnavailableError(
          "httpClient: 'undici' was asked for (on Bun, `undici` is Bun's own shim until the undici package is installed)",
        );
    }
    // Node's client goes through the proxy the environment names (see proxy.ts), never around it.
    return (await import('./node-client.js')).nodeClient({
      connectTimeout,
      maxConnections,
      proxies: proxy ? proxiesFrom(env) : undefined,
    });
  });
}

/**
 * The client `createHttpClient()` picks by default in this install: `'undici'` when undici can be
 * imported here, else `'node'` (`node:http`). For diagnostics: an `https:` proxy, say, needs undici.
 */
export async function defaultHttpClient(): Promise<'undici' | 'node'> {
  return (await importUndici()) === undefined ? 'node' : 'undici';
}

async function importUndici(): Promise<typeof Undici | undefined> {
  let undici: typeof Undici;
  try {
    undici = await import('undici');
  } catch (error) {
    // Only its absence means "use Node's"; a broken install must not be papered over.
    const e = error as { code?: unknown; message?: unknown } | null;
    if (e?.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes("'undici'")) return undefined;
    throw error;
  }
  // Bun answers `import('undici')` with a built-in shim of its own (its fetch, and classes without
  // `dispatch`), where undici is not installed: taken for undici, every request failed there.
  return isUndici(undici) ? undici : undefined;
}

/** Whether a module that answers to the name `undici` is undici: its `Agent` dispatches. */
export function isUndici(module: unknown): boolean {
  const agent = (module as { Agent?: { prototype?: { dispatch?: unknown } } } | null)?.Agent;
  return typeof agent?.prototype?.dispatch === 'function';
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
