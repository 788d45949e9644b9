// Requests through node:http / node:https (keep-alive, bounded pools, timeouts), directly or through a proxy.
import type * as NodeHttp from 'node:http';
import type { Agent as HttpAgent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import type * as NodeHttps from 'node:https';
import type { Socket } from 'node:net';
import type { AbortLink } from './abort.js';
import { HttpErrorCode } from './codes.js';
import { CONTROL_CONNECTIONS } from './pools.js';
import type { Proxies } from './proxy.js';
import { ClientTimeoutError } from './timeouts.js';
import { tunnellingAgent } from './tunnel.js';
import type { HttpClient, HttpRequest, HttpResponse } from './types.js';

type Target = Pick<RequestOptions, 'protocol' | 'hostname' | 'port' | 'path'>;

/** The agents of one pool: direct http, direct https, and (with a proxy) https through a CONNECT tunnel. */
interface Agents {
  readonly http: HttpAgent;
  readonly https: HttpAgent;
  readonly tunnel: HttpAgent | undefined;
}

/**
 * Requests through `node:http` / `node:https` with keep-alive agents: what the transport uses when
 * undici is not installed. It keeps undici's semantics where the transport relies on them — a connect
 * timeout, a timeout for the response headers, an idle timeout between body chunks (none when 0), the
 * body as raw bytes (never decompressed here), abort by signal at any point. With `proxies` (the proxy
 * variables), an `http:` request goes to the proxy in absolute form, an `https:` one through a `CONNECT`
 * tunnel, on sockets of their own (see tunnel.ts), unless `NO_PROXY` exempts its host.
 */
class NodeHttpClient implements HttpClient {
  readonly #http: typeof NodeHttp;
  readonly #https: typeof NodeHttps;
  readonly #proxies: Proxies | undefined;
  readonly #agents: Agents;
  /** For long-lived streams, outside the bound (see `HttpRequest.longLived`); made on first use. */
  #streamAgents: Agents | undefined;
  /** For notifications and replies, a few sockets of their own (see `HttpRequest.control`); made on first use. */
  #controlAgents: Agents | undefined;
  readonly #connectTimeout: number;
  // Requests go to one or two URLs over and over: each is turned into request options once.
  readonly #targets = new WeakMap<URL, Target>();

  constructor(
    http: typeof NodeHttp,
    https: typeof NodeHttps,
    connectTimeout: number,
    maxConnections: number,
    proxies: Proxies | undefined,
  ) {
    this.#http = http;
    this.#https = https;
    this.#proxies = proxies;
    this.#connectTimeout = connectTimeout;
    // Bounded: a burst of requests queues in the agent for a socket instead of opening one each.
    this.#agents = this.#makeAgents(maxConnections);
  }

  request(r: HttpRequest): Promise<HttpResponse> {
    return new Promise<HttpResponse>((resolve, reject) => {
      const secure = r.url.protocol === 'https:';
      const agents =
        r.longLived === true
          ? (this.#streamAgents ??= this.#makeAgents(Infinity))
          : r.control === true
            ? (this.#controlAgents ??= this.#makeAgents(CONTROL_CONNECTIONS))
            : this.#agents;
      const proxy = this.#proxies?.forUrl(r.url);
      const target = this.#target(r.url);
      let options: RequestOptions = {
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        path: target.path,
        method: r.method,
        // With a body (a POST), as Node's raw list, Host and Content-Length included; else an object
        // (end() then sets Content-Length).
        headers: r.body === undefined ? r.headers : rawHeaders(r.url, r.headers, r.body),
        agent: secure ? agents.https : agents.http,
        // No `signal` here: the agent would hand it to the socket it creates, which outlives the request
        // in the pool; aborting a finished request would then kill a connection another one is using.
      };
      if (proxy !== undefined && secure) options.agent = agents.tunnel;
      else if (proxy !== undefined) {
        // Plain HTTP through a proxy: the request goes to the proxy, naming the whole target URL.
        const headers: Record<string, string> = { ...r.headers, host: r.url.host };
        if (proxy.authorization !== undefined) headers['proxy-authorization'] = proxy.authorization;
        options = {
          ...options,
          protocol: 'http:',
          hostname: proxy.hostname,
          port: proxy.port,
          path: r.url.href,
          headers,
        };
      }
      const req: ClientRequest = (secure ? this.#https : this.#http).request(options);
      let settled = false;
      const fail = (error: Error): void => {
        if (settled) return;
        settled = true;
        clearTimeout(headersTimer);
        reject(error);
      };
      // Ended by us (abort, timeout): the promise is rejected here, and the request destroyed without
      // an error, so no socket reports one to nobody.
      const end = (error: Error): void => {
        fail(error);
        req.destroy();
      };
      const headersTimer = setTimeout(
        () => end(new ClientTimeoutError(HttpErrorCode.HeadersTimeout, r.headersTimeout)),
        r.headersTimeout,
      );
      if (r.abort !== undefined) abortOnLink(req, r.abort, end);
      else abortOnSignal(req, r.signal, end);
      req.once('socket', (socket: Socket) => this.#watchConnect(socket, secure, end));
      // Not once: a request can report more than one error, and an unheard one would crash the host.
      req.on('error', fail);
      req.once('response', (res: IncomingMessage) => {
        // Whoever reads the body hears of its errors; one nobody is reading yet must not crash the host.
        res.on('error', ignore);
        if (settled) return void res.destroy();
        settled = true;
        clearTimeout(headersTimer);
        watchBody(res, r.bodyTimeout);
        resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: res });
      });
      req.end(r.body);
    });
  }

  async close(): Promise<void> {
    for (const agents of [this.#agents, this.#streamAgents, this.#controlAgents]) {
      agents?.http.destroy();
      agents?.https.destroy();
      agents?.tunnel?.destroy();
    }
  }

  #makeAgents(maxSockets: number): Agents {
    const options = { keepAlive: true, timeout: KEEP_ALIVE_MS, maxSockets };
    const tunnel =
      this.#proxies === undefined
        ? undefined
        : tunnellingAgent(this.#http, this.#https, this.#proxies, options, this.#connectTimeout);
    return { http: new this.#http.Agent(options), https: new this.#https.Agent(options), tunnel };
  }

  /** A new socket must connect (and, for https, finish its handshake) within the connect timeout. */
  #watchConnect(socket: Socket, secure: boolean, end: (error: Error) => void): void {
    if (!socket.connecting) return; // A kept-alive socket, already connected.
    const ready = secure ? 'secureConnect' : 'connect';
    const timer = setTimeout(
      () => end(new ClientTimeoutError(HttpErrorCode.ConnectTimeout, this.#connectTimeout)),
      this.#connectTimeout,
    );
    const done = (): void => {
      clearTimeout(timer);
      socket.off(ready, done);
      socket.off('close', done);
    };
    socket.once(ready, done);
    socket.once('close', done);
  }

  #target(url: URL): Target {
    let target = this.#targets.get(url);
    if (target === undefined) {
      target = {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port === '' ? undefined : Number(url.port),
        path: url.pathname + url.search,
      };
      this.#targets.set(url, target);
    }
    return target;
  }
}

/**
 * Ends the body with a timeout error when no chunk arrives for `ms` (0: never), on the socket's own
 * idle timer. Once the body has ended, the agent sets the socket's timeout for its time in the pool.
 */
function watchBody(res: IncomingMessage, ms: number): void {
  const socket = res.socket;
  // Re-armed only when it changes: a socket handed from one call to the next keeps its idle timer
  // (every read and write restarts it), and setTimeout makes a new timer each time.
  if (socket.timeout !== ms) socket.setTimeout(ms);
  if (ms === 0) return;
  // Destroyed with the error (its reader hears it); the socket goes with it, reporting nothing itself.
  const onIdle = (): void => {
    res.destroy(new ClientTimeoutError(HttpErrorCode.BodyTimeout, ms));
  };
  socket.on('timeout', onIdle);
  res.once('close', () => socket.off('timeout', onIdle));
}

const ignore = (): void => {};

/**
 * A request's headers as Node's raw list ([name, value, …]): Node validates and writes them in one
 * pass, where an object costs a `setHeader` each and a second walk (1.6 µs a POST of five headers).
 * Node adds no Host or Content-Length to a raw list, so they are here — as Node would make them
 * (`url.host` brackets an IPv6 address and omits a default port) unless the headers carry their own.
 */
function rawHeaders(url: URL, headers: Readonly<Record<string, string>>, body: string): string[] {
  const raw: string[] = [];
  let host = false;
  let length = false;
  for (const name in headers) {
    // Names are matched as Node would, whatever their case.
    if (name.length === 4 && name.toLowerCase() === 'host') host = true;
    else if (name.length === 14 && name.toLowerCase() === 'content-length') length = true;
    raw.push(name, headers[name]!);
  }
  if (!host) raw.push('host', url.host);
  if (!length) raw.push('content-length', String(Buffer.byteLength(body)));
  return raw;
}

/** Ends the request (and its response, if it has one) when `signal` fires, until the request closes. */
function abortOnSignal(req: ClientRequest, signal: AbortSignal, end: (error: Error) => void): void {
  const onAbort = (): void => end(abortError(signal.reason));
  if (signal.aborted) return onAbort();
  signal.addEventListener('abort', onAbort, { once: true });
  req.once('close', () => signal.removeEventListener('abort', onAbort));
}

/** The same, on an AbortLink: no EventTarget listener to add and remove per request. */
function abortOnLink(req: ClientRequest, link: AbortLink, end: (error: Error) => void): void {
  if (link.aborted) return end(abortError(link.reason));
  req.once(
    'close',
    link.onAbort(() => end(abortError(link.reason))),
  );
}

const abortError = (reason: unknown): Error =>
  Object.assign(new Error('the request was aborted', { cause: reason }), { name: 'AbortError', code: 'ABORT_ERR' });

// A free socket is closed after this long idle, before a server's usual 5 s keep-alive timeout would
// close it under a request (undici's default is the same); a server's shorter Keep-Alive hint wins.
const KEEP_ALIVE_MS = 4_000;

export async function nodeClient(options: {
  readonly connectTimeout: number;
  readonly maxConnections: number;
  readonly proxies?: Proxies | undefined;
}): Promise<HttpClient> {
  const [http, https] = await Promise.all([import('node:http'), import('node:https')]);
  return new NodeHttpClient(http, https, options.connectTimeout, options.maxConnections, options.proxies);
}
