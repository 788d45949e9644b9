// What the playground sees of each server: JSON-RPC frames (a wrapped transport), HTTP exchanges (an interceptor).
import type { ServerConfig, Transport } from '@mcpc/client';
import { context, ROOT_CONTEXT } from '@opentelemetry/api';
import { EnvHttpProxyAgent, type Dispatcher } from 'undici';
import type { HttpExchange, JsonObject } from '../contract/api.js';

/** Frames and exchanges kept per server. */
export const RING_SIZE = 2_000;

/** A bounded list: the newest `size` items, oldest first. */
export class Ring<T> {
  private items: T[] = [];

  constructor(readonly size: number) {}

  push(item: T): void {
    this.items.push(item);
    if (this.items.length > this.size) this.items.splice(0, this.items.length - this.size);
  }

  find(match: (item: T) => boolean): T | undefined {
    for (let i = this.items.length - 1; i >= 0; i--) {
      const item = this.items[i]!;
      if (match(item)) return item;
    }
    return undefined;
  }

  toArray(): T[] {
    return [...this.items];
  }
}

export interface FrameHooks {
  onFrame: (dir: 'out' | 'in', message: JsonObject) => void;
  onOpen: () => void;
  onClose: () => void;
}

type Sink = Parameters<Transport['start']>[0];

/** The transport, with each frame it carries reported to `onFrame` (and its closing to `onClose`). */
function capturedTransport(transport: Transport, hooks: FrameHooks): Transport {
  return new Proxy(transport, {
    get(target, property) {
      if (property === 'start')
        return (sink: Sink) => {
          hooks.onOpen();
          return target.start({
            message: (message, info) => {
              hooks.onFrame('in', message as unknown as JsonObject);
              // Out of any span: a stream opened while connecting would otherwise carry the connect span's
              // context into every message it brings (a server's own request belongs to no call of ours).
              context.with(ROOT_CONTEXT, () => sink.message(message, info));
            },
            error: (error) => sink.error(error),
            close: (cause) => {
              sink.close(cause);
              hooks.onClose();
            },
          });
        };
      if (property === 'send')
        return (...args: Parameters<Transport['send']>) => {
          hooks.onFrame('out', args[0] as unknown as JsonObject);
          return target.send(...args);
        };
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The config, whose transports (the fallbacks' too, as detection tries them) report their frames. */
export function captured(config: ServerConfig, hooks: FrameHooks): ServerConfig {
  const { fallback } = config;
  return {
    ...config,
    open: async (context) => capturedTransport(await config.open(context), hooks),
    ...(fallback !== undefined && {
      fallback: (error: unknown) => {
        const next = fallback(error);
        return next === undefined ? undefined : captured(next, hooks);
      },
    }),
  };
}

/** `Bearer …abcd`: the scheme and the last 4 characters of the credential. */
export function redactAuthorization(value: string): string {
  const m = /^(\S+)\s+(.*)$/.exec(value.trim());
  if (m === null) return `…${value.slice(-4)}`;
  return `${m[1]} …${(m[2] ?? '').slice(-4)}`;
}

const SECRET_HEADERS = new Set(['cookie', 'set-cookie', 'proxy-authorization']);

/** Headers as a plain object of strings, credentials redacted. */
export function headerObject(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (k: unknown, v: unknown) => {
    const key = String(k).toLowerCase();
    const value = Array.isArray(v) ? v.map(String).join(', ') : Buffer.isBuffer(v) ? v.toString('latin1') : String(v);
    out[key] = key === 'authorization' ? redactAuthorization(value) : SECRET_HEADERS.has(key) ? '(redacted)' : value;
  };
  if (headers === null || headers === undefined) return out;
  if (Array.isArray(headers)) {
    const list: unknown[] = headers;
    if (list.length > 0 && Array.isArray(list[0])) for (const [k, v] of list as [unknown, unknown][]) add(k, v);
    else for (let i = 0; i + 1 < list.length; i += 2) add(list[i], list[i + 1]);
  } else if (typeof headers === 'object') {
    const h = headers as { [Symbol.iterator]?: unknown; entries?: () => Iterable<[unknown, unknown]> };
    if (typeof h[Symbol.iterator] === 'function' && typeof h.entries === 'function')
      for (const [k, v] of h.entries()) add(k, v);
    else for (const [k, v] of Object.entries(headers)) if (v !== undefined) add(k, v);
  }
  return out;
}

/**
 * An undici dispatcher (proxy variables honoured, like the transports' default) that reports every exchange:
 * once when the request goes out, again at the response headers, and at the end (same `seq`).
 * @param nextSeq numbers exchanges (per server, across reconnects)
 */
export function capturingDispatcher(
  report: (exchange: HttpExchange) => void,
  nextSeq: () => number,
): { dispatcher: Dispatcher; close: () => Promise<void> } {
  const interceptor: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
    const started = performance.now();
    const exchange: HttpExchange = {
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
    const end = (error: Error | undefined) => {
      if (ended) return;
      ended = true;
      exchange.durationMs = Math.round((performance.now() - started) * 10) / 10;
      if (error !== undefined) exchange.error = error.message || String(error);
      snapshot();
    };
    const wrapped: Dispatcher.DispatchHandler = {
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

function safeUrl(origin: unknown, path: unknown): string {
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
 */
export function rpcOf(body: unknown, headers: Record<string, string>): string | undefined {
  const header = Object.entries(headers).find(([k]) => k.toLowerCase() === 'mcp-method')?.[1];
  if (typeof header === 'string' && header !== '') return header.slice(0, 100);
  if (typeof body !== 'string' || body.length > RPC_BODY_LIMIT) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const one = (m: unknown): string | undefined => {
    if (m === null || typeof m !== 'object') return undefined;
    const method: unknown = (m as { method?: unknown }).method;
    return typeof method === 'string' ? method.slice(0, 100) : 'response';
  };
  if (Array.isArray(parsed)) {
    const list: unknown[] = parsed;
    const names = list
      .slice(0, 5)
      .map(one)
      .filter((n) => n !== undefined);
    return names.length === 0 ? undefined : `batch: ${names.join(', ')}${list.length > 5 ? ', …' : ''}`;
  }
  return one(parsed);
}
