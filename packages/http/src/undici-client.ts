// Requests through undici: the user's dispatcher, or agents of our own (EnvHttpProxyAgent when a proxy is set).
import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import { CONTROL_CONNECTIONS } from './pools.js';
import type { HttpClient, HttpRequest, HttpResponse, UndiciDispatcher } from './types.js';

/**
 * Requests through an undici dispatcher's own `request()` (every undici `Dispatcher` has it), given an
 * origin and a path: no URL is parsed again per request, and no undici import is needed for a
 * dispatcher the user made.
 */
class DispatcherClient implements HttpClient {
  readonly #dispatcher: Dispatcher;
  readonly #owned: boolean;
  /** Our own agents only: makes the dispatchers for long-lived streams and for control messages, on first use. */
  readonly #make: ((connections: number | null) => Dispatcher) | undefined;
  #streams: Dispatcher | undefined;
  #control: Dispatcher | undefined;

  constructor(dispatcher: Dispatcher, owned: boolean, make?: (connections: number | null) => Dispatcher) {
    this.#dispatcher = dispatcher;
    this.#owned = owned;
    this.#make = make;
  }

  #pick(r: HttpRequest): Dispatcher {
    const make = this.#make;
    if (make === undefined) return this.#dispatcher;
    if (r.longLived === true) return (this.#streams ??= make(null));
    if (r.control === true) return (this.#control ??= make(CONTROL_CONNECTIONS));
    return this.#dispatcher;
  }

  request(r: HttpRequest): Promise<HttpResponse> {
    const dispatcher = this.#pick(r);
    return dispatcher.request({
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
    if (this.#owned)
      await Promise.all([
        this.#dispatcher.close().catch(() => {}),
        this.#streams?.close().catch(() => {}),
        this.#control?.close().catch(() => {}),
      ]);
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
export function ownAgent(
  undici: typeof Undici,
  options: { readonly connectTimeout: number; readonly proxy: boolean; readonly maxConnections: number },
): HttpClient {
  const connect = { timeout: options.connectTimeout };
  const make = (connections: number | null): Dispatcher =>
    options.proxy ? new undici.EnvHttpProxyAgent({ connect, connections }) : new undici.Agent({ connect, connections });
  // Bounded: a burst of requests queues for a connection instead of opening one each (descriptors).
  // Long-lived streams get an agent of their own, unbounded, so that they cannot starve the rest;
  // notifications and replies one of their own, small, so that waiting calls cannot starve them.
  return new DispatcherClient(make(options.maxConnections), true, make);
}
