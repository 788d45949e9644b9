import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import type { HttpClient, HttpRequest, HttpResponse, UndiciDispatcher } from './http-client.js';

/**
 * Requests through an undici dispatcher's own `request()` (every undici `Dispatcher` has it), given an
 * origin and a path: no URL is parsed again per request, and no undici import is needed for a
 * dispatcher the user made.
 */
class DispatcherClient implements HttpClient {
  readonly #dispatcher: Dispatcher;
  readonly #owned: boolean;

  constructor(dispatcher: Dispatcher, owned: boolean) {
    this.#dispatcher = dispatcher;
    this.#owned = owned;
  }

  request(r: HttpRequest): Promise<HttpResponse> {
    return this.#dispatcher.request({
      origin: r.url.origin,
      path: r.url.pathname + r.url.search,
      method: r.method,
      headers: r.headers,
      body: r.body ?? null,
      signal: r.signal,
      headersTimeout: r.headersTimeout,
      bodyTimeout: r.bodyTimeout,
    });
  }

  async close(): Promise<void> {
    if (this.#owned) await this.#dispatcher.close().catch(() => {});
  }
}

/** The user's dispatcher; never closed here. */
export function fromDispatcher(dispatcher: UndiciDispatcher): HttpClient {
  return new DispatcherClient(dispatcher as unknown as Dispatcher, false);
}

/**
 * An agent of our own: `EnvHttpProxyAgent` when the environment names a proxy (it honours
 * `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY`), else a plain `Agent` — the proxy agent reads
 * `process.env` on every request, which costs a plain connection for nothing.
 */
export function ownAgent(undici: typeof Undici, options: { readonly connectTimeout: number; readonly proxy: boolean }): HttpClient {
  const connect = { timeout: options.connectTimeout };
  const agent = options.proxy ? new undici.EnvHttpProxyAgent({ connect }) : new undici.Agent({ connect });
  return new DispatcherClient(agent, true);
}
