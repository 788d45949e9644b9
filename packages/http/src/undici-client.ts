// Requests through undici: the user's dispatcher, or agents of our own (EnvHttpProxyAgent when a proxy is set).
import type * as Undici from 'undici';
import type { Socket } from 'node:net';
import type { Dispatcher } from 'undici';
import { destroyQuietly } from './body.js';
import { HttpErrorCode } from './codes.js';
import { CONTROL_CONNECTIONS } from './pools.js';
import { ClientTimeoutError } from './timeouts.js';
import { dispatchRequest } from './undici-exchange.js';
import type { HttpClient, HttpRequest, HttpResponse, UndiciDispatcher } from './types.js';

/**
 * Requests through an undici dispatcher's `dispatch()` (every undici `Dispatcher` has it), given an
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
  /**
   * Through a proxy, the bound (ms) within which the response headers must come, counted from the request:
   * undici's proxy agents wait for the proxy on a client of their own, which neither the request's signal
   * nor its headers timeout reaches (a proxy that accepts and never answers held a request for ever).
   */
  readonly #proxyBound: number | undefined;
  /** Through a proxy, the sockets to it: a tunnel still opening is ended by close() through these. */
  readonly #proxySockets: Set<Socket> | undefined;

  constructor(
    dispatcher: Dispatcher,
    owned: boolean,
    make?: (connections: number | null) => Dispatcher,
    proxy?: { readonly bound: number; readonly sockets: Set<Socket> },
  ) {
    this.#dispatcher = dispatcher;
    this.#owned = owned;
    this.#make = make;
    this.#proxyBound = proxy?.bound;
    this.#proxySockets = proxy?.sockets;
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
    const pending = dispatchRequest(dispatcher, r);
    if (this.#proxyBound === undefined) return pending;
    // A headers timeout of 0 is none: then only the abort bounds the wait.
    return bounded(pending, r, r.headersTimeout > 0 ? this.#proxyBound + r.headersTimeout : undefined);
  }

  async close(): Promise<void> {
    if (!this.#owned) return;
    const dispatchers = [this.#dispatcher, this.#streams, this.#control].filter((d) => d !== undefined);
    // `close()` waits for what is queued; a tunnel a silent proxy holds open is destroyed after a grace.
    await Promise.all(
      dispatchers.map(async (d) => {
        let timer: NodeJS.Timeout | undefined;
        const grace = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), CLOSE_GRACE_MS)));
        const closed = await Promise.race([
          d.close().then(
            () => 'closed' as const,
            () => 'closed' as const,
          ),
          grace,
        ]);
        clearTimeout(timer);
        if (closed === 'late') await d.destroy().catch(() => {});
      }),
    );
    for (const socket of this.#proxySockets ?? []) socket.destroy();
  }
}

/** How long `close()` lets queued requests finish before it destroys their connections. */
const CLOSE_GRACE_MS = 1_000;

/**
 * `pending`, or the request's abort, or a timeout after `ms`, whichever comes first. A response that comes
 * after the caller stopped waiting has its body destroyed, so its connection is not held.
 */
function bounded(pending: Promise<HttpResponse>, r: HttpRequest, ms: number | undefined): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      r.signal.removeEventListener('abort', onAbort);
      return true;
    };
    const onAbort = (): void => {
      if (settle()) reject(r.signal.reason);
    };
    const timer =
      ms === undefined
        ? undefined
        : setTimeout(() => {
            if (settle()) reject(new ClientTimeoutError(HttpErrorCode.HeadersTimeout, ms));
          }, ms);
    if (r.signal.aborted) return onAbort();
    r.signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (response) => {
        if (settle()) resolve(response);
        else destroyQuietly(response.body); // undici's body errors on destroy
      },
      (error: unknown) => {
        if (settle()) reject(error);
      },
    );
  });
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
  // Through a proxy, the connect timeout also bounds the proxy's answer to CONNECT (its client's headers
  // timeout) and the TLS handshake inside the tunnel (`requestTls`), which undici otherwise gives 300 s and 10 s.
  // The sockets to the proxy are made here and kept, so that close() can end a tunnel still being opened:
  // undici hands a CONNECT socket to the TLS step, where neither the agent's close() nor destroy() reaches it.
  const toProxy = new Set<Socket>();
  const connector = undici.buildConnector(connect);
  const tracked: Undici.buildConnector.connector = (opts, callback) =>
    connector(opts, (...[error, socket]) => {
      if (error !== null || socket === null) return callback(error ?? new Error('no socket to the proxy'), null);
      toProxy.add(socket);
      socket.once('close', () => toProxy.delete(socket));
      callback(null, socket);
    });
  const proxied = {
    connect,
    proxyTls: connect,
    requestTls: connect,
    clientFactory: (origin: URL, opts: object): Dispatcher =>
      new undici.Pool(origin, { ...opts, connect: tracked, headersTimeout: options.connectTimeout }),
  };
  const make = (connections: number | null): Dispatcher =>
    options.proxy
      ? new undici.EnvHttpProxyAgent({ ...proxied, connections })
      : new undici.Agent({ connect, connections });
  // Bounded: a burst of requests queues for a connection instead of opening one each (descriptors).
  // Long-lived streams get an agent of their own, unbounded, so that they cannot starve the rest;
  // notifications and replies one of their own, small, so that waiting calls cannot starve them.
  return new DispatcherClient(
    make(options.maxConnections),
    true,
    make,
    options.proxy ? { bound: options.connectTimeout, sockets: toProxy } : undefined,
  );
}
