// HTTPS through an HTTP proxy for Node's client: an https.Agent whose sockets are CONNECT tunnels, then TLS.
import type * as NodeHttp from 'node:http';
import type { Agent as HttpAgent, AgentOptions, IncomingMessage, RequestOptions } from 'node:http';
import type * as NodeHttps from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import { HttpErrorCode } from './codes.js';
import { ProxyConnectError } from './errors.js';
import type { Proxies } from './proxy.js';
import { ClientTimeoutError } from './timeouts.js';

type Created = (error: Error | null, socket?: Socket) => void;

/** What Node's Agent passes to `createConnection`: the request's options with its own (TLS ones included). */
type TunnelOptions = ConnectionOptions & { readonly host?: string; readonly port?: number };

/**
 * An https.Agent (keep-alive, `maxSockets`, TLS sessions as usual) whose new sockets are made by asking
 * the proxy to `CONNECT` to the target, then doing the TLS handshake inside that tunnel: the proxy sees
 * only the host and port, never the request. The tunnel and the handshake together must finish within
 * `connectTimeout` (the request's own connect watch cannot see them: the socket it gets is already up).
 */
export function tunnellingAgent(
  http: typeof NodeHttp,
  https: typeof NodeHttps,
  proxies: Proxies,
  options: AgentOptions,
  connectTimeout: number,
): HttpAgent {
  class TunnellingAgent extends https.Agent {
    /** Tunnels still being opened: Node's Agent does not know of them until they are up, so `destroy()` ends them here. */
    readonly #opening = new Set<(error: Error) => void>();

    // Node's Agent takes the socket from the callback when this returns nothing.
    override createConnection(
      connectOptions: RequestOptions,
      created?: (error: Error | null, socket: Duplex) => void,
    ): undefined {
      const opening = this.#opening;
      tunnel(http, proxies, connectOptions as TunnelOptions, connectTimeout, once(created), opening);
      return undefined;
    }

    override destroy(): void {
      super.destroy();
      for (const fail of [...this.#opening])
        fail(new Error('the HTTP client was closed while a proxy tunnel was opening'));
    }
  }
  return new TunnellingAgent(options);
}

function tunnel(
  http: typeof NodeHttp,
  proxies: Proxies,
  options: TunnelOptions,
  timeoutMs: number,
  created: Created,
  opening: Set<(error: Error) => void>,
): void {
  const host = options.host ?? 'localhost';
  const port = options.port ?? 443;
  // The authority of CONNECT: an IPv6 address in brackets.
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const proxy = proxies.forUrl(new URL(`https://${authority}`));
  if (proxy === undefined) return created(new Error(`no proxy for ${authority}`)); // The client asked for a tunnel only with one.
  const headers: Record<string, string> = { host: authority };
  if (proxy.authorization !== undefined) headers['proxy-authorization'] = proxy.authorization;
  const connect = http.request({
    hostname: proxy.hostname,
    port: proxy.port,
    method: 'CONNECT',
    path: authority,
    headers,
    agent: false,
  });
  let socket: Socket | undefined;
  let done = false;
  const fail = (error: Error): void => {
    if (done) return;
    done = true;
    opening.delete(fail);
    clearTimeout(timer);
    connect.destroy();
    socket?.destroy();
    created(error);
  };
  opening.add(fail);
  const timer = setTimeout(() => fail(new ClientTimeoutError(HttpErrorCode.ConnectTimeout, timeoutMs)), timeoutMs);
  connect.once('error', fail);
  connect.once('response', (res: IncomingMessage) => {
    // Any answer but a tunnel (a proxy that does not CONNECT answers as to a plain request).
    res.resume();
    fail(new ProxyConnectError(res.statusCode ?? 0, authority));
  });
  connect.once('connect', (res: IncomingMessage, raw: Socket, head: Buffer) => {
    socket = raw;
    if (res.statusCode !== 200) return fail(new ProxyConnectError(res.statusCode ?? 0, authority));
    // Bytes the proxy sent past its answer belong to the TLS stream.
    if (head.length > 0) raw.unshift(head);
    const servername = options.servername ?? (/^[\d.]+$|:/.test(host) ? undefined : host);
    const tls: TLSSocket = tlsConnect({
      ...options,
      host,
      port,
      socket: raw,
      ...(servername !== undefined && { servername }),
    });
    socket = tls;
    tls.once('error', fail);
    tls.once('secureConnect', () => {
      if (done) return;
      done = true;
      opening.delete(fail);
      clearTimeout(timer);
      tls.off('error', fail);
      created(null, tls);
    });
  });
  connect.end();
}

/** Node's callback, called once: with the socket, or with the error (and no socket). */
function once(created: ((error: Error | null, socket: Duplex) => void) | undefined): Created {
  let called = false;
  return (error, socket) => {
    if (called) return;
    called = true;
    created?.(error, socket as Duplex);
  };
}
