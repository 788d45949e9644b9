// OAuth's requests, sent through the proxy the environment names, the way the transport's go.
//
// Node 20's global fetch ignores HTTP(S)_PROXY.
import { bodyChunks, createHttpClient, discard, header, proxyConfigured, type HttpClient } from '@mcpc/http';
import type { FetchFunction } from '@mcpc/oauth';
import type { CliContext } from '../context.js';

/** Statuses whose response has no body, as `Response` insists. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
/** OAuth bounds each request itself (its own timeout); this only keeps a silent peer from holding one for ever. */
const STALL_MS = 60_000;
const never = new AbortController().signal;
/**
 * OAuth documents and token answers are small: a body is read whole here (its decoding errors then reach
 * OAuth's own error handling, as a network failure) within this bound, above `@mcpc/oauth`'s own cap.
 */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * The `fetch` for the CLI's OAuth providers: undefined (the global one) when no proxy variable is set;
 * else one that sends through `@mcpc/http`'s client, which honours `HTTP_PROXY`, `HTTPS_PROXY` and
 * `NO_PROXY` exactly as the HTTP transports do — so a login, a refresh and the metadata behind a 401
 * take the same route as the MCP requests they are for. One client per context, made on first use.
 */
export function proxiedFetch(ctx: Pick<CliContext, 'env'>): { fetch: FetchFunction } | Record<string, never> {
  if (!proxyConfigured(ctx.env)) return {};
  let http: HttpClient | undefined;
  const fetch: FetchFunction = async (input, init) => {
    http ??= createHttpClient({ env: ctx.env, maxConnections: 4 });
    const method = (init.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'POST')
      throw new TypeError(`an OAuth request is a GET or a POST, not ${method.slice(0, 20)}`);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    let body: string | undefined;
    if (typeof init.body === 'string') body = init.body;
    else if (init.body instanceof URLSearchParams) {
      body = init.body.toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded;charset=UTF-8';
    } else if (init.body !== undefined && init.body !== null)
      throw new TypeError('an OAuth request body is a string or URLSearchParams');
    const response = await http.request({
      url: new URL(input),
      method,
      headers,
      body,
      signal: init.signal ?? never,
      headersTimeout: STALL_MS,
      bodyTimeout: STALL_MS,
    });
    const encoding = header(response, 'content-encoding');
    const out = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      // The body handed on is decoded: its encoding and length no longer describe it.
      if (encoding !== undefined && (name === 'content-encoding' || name === 'content-length')) continue;
      for (const one of Array.isArray(value) ? value : [value]) out.append(name, one);
    }
    if (NULL_BODY.has(response.statusCode)) {
      await discard(response);
      return new Response(null, { status: response.statusCode, headers: out });
    }
    const chunks: Uint8Array[] = [];
    for await (const chunk of bodyChunks(response.body, encoding, MAX_BODY_BYTES)) chunks.push(chunk);
    return new Response(Buffer.concat(chunks), { status: response.statusCode, headers: out });
  };
  return { fetch };
}
