// What the playground sees of each server: its JSON-RPC frames (a wrapped transport) and HTTP exchanges (an undici interceptor).
// @ts-check
import { EnvHttpProxyAgent } from 'undici';

/** Frames and exchanges kept per server. */
export const RING_SIZE = 2_000;

/**
 * @template T
 * A bounded list: the newest `size` items, oldest first.
 */
export class Ring {
  /** @param {number} size */
  constructor(size) {
    this.size = size;
    /** @type {T[]} */
    this.items = [];
  }
  /** @param {T} item */
  push(item) {
    this.items.push(item);
    if (this.items.length > this.size) this.items.splice(0, this.items.length - this.size);
  }
  /** @param {(item: T) => boolean} match */
  find(match) {
    for (let i = this.items.length - 1; i >= 0; i--) {
      const item = /** @type {T} */ (this.items[i]);
      if (match(item)) return item;
    }
    return undefined;
  }
  toArray() {
    return [...this.items];
  }
}

/** @typedef {{ seq: number, dir: 'out' | 'in', at: number, message: unknown, bytes: number }} Frame */
/**
 * @typedef {{ seq: number, method: string, url: string, status?: number, startedAt: number, durationMs?: number,
 *   requestHeaders: Record<string, string>, responseHeaders: Record<string, string>, sse: boolean, error?: string,
 *   rpc?: string }} Exchange
 */
/** @typedef {import('@mcpc/client').Transport} Transport */
/** @typedef {import('@mcpc/client').ServerConfig} ServerConfig */

/**
 * The transport, with each frame it carries reported to `onFrame` (and its closing to `onClose`).
 * @param {Transport} transport
 * @param {{ onFrame: (dir: 'out' | 'in', message: unknown) => void, onOpen: () => void, onClose: () => void }} hooks
 * @returns {Transport}
 */
function capturedTransport(transport, hooks) {
  return new Proxy(transport, {
    get(target, property) {
      if (property === 'start')
        return (/** @type {import('@mcpc/jsonrpc').TransportSink} */ sink) => {
          hooks.onOpen();
          return target.start({
            message: (message, info) => {
              hooks.onFrame('in', message);
              sink.message(message, info);
            },
            error: (error) => sink.error(error),
            close: (cause) => {
              sink.close(cause);
              hooks.onClose();
            },
          });
        };
      if (property === 'send')
        return (/** @type {Parameters<Transport['send']>} */ ...args) => {
          hooks.onFrame('out', args[0]);
          return target.send(...args);
        };
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * The config, whose transports (the fallbacks' too, as detection tries them) report their frames.
 * @param {ServerConfig} config
 * @param {Parameters<typeof capturedTransport>[1]} hooks
 * @returns {ServerConfig}
 */
export function captured(config, hooks) {
  const { fallback } = config;
  return {
    ...config,
    open: async (context) => capturedTransport(await config.open(context), hooks),
    ...(fallback !== undefined && {
      fallback: (/** @type {unknown} */ error) => {
        const next = fallback(error);
        return next === undefined ? undefined : captured(next, hooks);
      },
    }),
  };
}

/** `Bearer …abcd`: the scheme and the last 4 characters of the credential. */
export function redactAuthorization(/** @type {string} */ value) {
  const m = /^(\S+)\s+(.*)$/.exec(value.trim());
  if (m === null) return `…${value.slice(-4)}`;
  return `${m[1]} …${(m[2] ?? '').slice(-4)}`;
}

const SECRET_HEADERS = new Set(['cookie', 'set-cookie', 'proxy-authorization']);

/** Headers as a plain object of strings, credentials redacted. @param {unknown} headers */
export function headerObject(headers) {
  /** @type {Record<string, string>} */
  const out = {};
  /** @param {unknown} k @param {unknown} v */
  const add = (k, v) => {
    const key = String(k).toLowerCase();
    const value = Array.isArray(v) ? v.map(String).join(', ') : Buffer.isBuffer(v) ? v.toString('latin1') : String(v);
    out[key] = key === 'authorization' ? redactAuthorization(value) : SECRET_HEADERS.has(key) ? '(redacted)' : value;
  };
  if (headers === null || headers === undefined) return out;
  if (Array.isArray(headers)) {
    if (headers.length > 0 && Array.isArray(headers[0])) for (const [k, v] of headers) add(k, v);
    else for (let i = 0; i + 1 < headers.length; i += 2) add(headers[i], headers[i + 1]);
  } else if (typeof headers === 'object') {
    const h = /** @type {any} */ (headers);
    if (typeof h[Symbol.iterator] === 'function' && typeof h.entries === 'function')
      for (const [k, v] of h.entries()) add(k, v);
    else for (const [k, v] of Object.entries(h)) if (v !== undefined) add(k, v);
  }
  return out;
}

/**
 * An undici dispatcher (proxy variables honoured, like the transports' default) that reports every exchange:
 * once when the request goes out, again at the response headers, and at the end (same `seq`).
 * @param {(exchange: Exchange) => void} report
 * @param {() => number} nextSeq numbers exchanges (per server, across reconnects)
 */
export function capturingDispatcher(report, nextSeq) {
  /** @type {import('undici').Dispatcher.DispatcherComposeInterceptor} */
  const interceptor = (dispatch) => (opts, handler) => {
    const started = performance.now();
    /** @type {Exchange} */
    const exchange = {
      seq: nextSeq(),
      method: String(opts.method ?? 'GET'),
      url: safeUrl(opts.origin, opts.path),
      startedAt: Date.now(),
      requestHeaders: headerObject(opts.headers),
      responseHeaders: {},
      sse: false,
    };
    const rpc = rpcOf(opts.body, exchange.requestHeaders);
    if (rpc !== undefined) exchange.rpc = rpc;
    const snapshot = () => report({ ...exchange });
    snapshot();
    let ended = false;
    const end = (/** @type {Error | undefined} */ error) => {
      if (ended) return;
      ended = true;
      exchange.durationMs = Math.round((performance.now() - started) * 10) / 10;
      if (error !== undefined) exchange.error = error.message || String(error);
      snapshot();
    };
    /** @type {import('undici').Dispatcher.DispatchHandler} */
    const wrapped = {
      onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
      onRequestUpgrade: (controller, statusCode, headers, socket) =>
        handler.onRequestUpgrade?.(controller, statusCode, headers, socket),
      onResponseStart: (controller, statusCode, headers, statusMessage) => {
        exchange.status = statusCode;
        exchange.responseHeaders = headerObject(headers);
        exchange.sse = /^text\/event-stream\b/i.test(exchange.responseHeaders['content-type'] ?? '');
        snapshot();
        return handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
      },
      onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
      onResponseEnd: (controller, trailers) => {
        end(undefined);
        return handler.onResponseEnd?.(controller, trailers);
      },
      onResponseError: (controller, error) => {
        end(error);
        return handler.onResponseError?.(controller, error);
      },
    };
    return dispatch(opts, wrapped);
  };
  const agent = new EnvHttpProxyAgent();
  return { dispatcher: agent.compose(interceptor), close: () => agent.close().catch(() => {}) };
}

function safeUrl(/** @type {unknown} */ origin, /** @type {unknown} */ path) {
  try {
    return new URL(String(path ?? '/'), String(origin)).href;
  } catch {
    return `${String(origin)}${String(path ?? '')}`;
  }
}

/** How much of a request body is read to name its JSON-RPC method. */
const RPC_BODY_LIMIT = 256 * 1024;

/**
 * The JSON-RPC message an exchange carried, for the network view: its method (`tools/call`), `response`
 * for a reply to a server's request, the methods of a batch; from `Mcp-Method` when sent, else the body.
 * @param {unknown} body
 * @param {Record<string, string>} headers
 * @returns {string | undefined}
 */
export function rpcOf(body, headers) {
  const header = Object.entries(headers).find(([k]) => k.toLowerCase() === 'mcp-method')?.[1];
  if (typeof header === 'string' && header !== '') return header.slice(0, 100);
  if (typeof body !== 'string' || body.length > RPC_BODY_LIMIT) return undefined;
  let parsed;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const one = (/** @type {unknown} */ m) =>
    m !== null && typeof m === 'object'
      ? typeof (/** @type {{ method?: unknown }} */ (m).method) === 'string'
        ? String(/** @type {{ method: string }} */ (m).method).slice(0, 100)
        : 'response'
      : undefined;
  if (Array.isArray(parsed)) {
    const names = parsed
      .slice(0, 5)
      .map(one)
      .filter((n) => n !== undefined);
    return names.length === 0 ? undefined : `batch: ${names.join(', ')}${parsed.length > 5 ? ', …' : ''}`;
  }
  return one(parsed);
}
