// The network facts `mcpc doctor` checks for a URL, along the route the transport takes.
//
// They are the proxy, DNS, TCP, TLS (direct or in a CONNECT tunnel), and plain HTTP requests.
import { lookup } from 'node:dns/promises';
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type PeerCertificate } from 'node:tls';
import {
  HttpClientUnavailableError,
  createHttpClient,
  defaultHttpClient,
  destroyQuietly,
  discard,
  header,
  proxiesFrom,
  readText,
  type HttpClient,
  type Proxies,
  type Proxy,
} from '@mcpc/http';
import { safe } from '../../output.js';
import { MAX_HOPS, STEP_MS, messageOf, withTimeout, type Report } from './report.js';

/** How requests to one URL travel: straight to its host, or through a proxy. */
export interface Route {
  readonly url: URL;
  readonly proxy: Proxy | undefined;
  /** The proxy decision for any URL (a redirect's, the OAuth metadata's); none through an https: proxy. */
  readonly proxies: Proxies | undefined;
  /**
   * Through an `https:` proxy, which only undici speaks (`EnvHttpProxyAgent`): the variable naming it.
   * Doctor does not look inside that route (DNS, TCP, TLS are the proxy's); its requests take it.
   */
  readonly httpsProxy?: string;
}

/** The proxy variables for each scheme, in the order the client reads them. */
const HTTP_VARIABLES = ['http_proxy', 'HTTP_PROXY'] as const;
const HTTPS_VARIABLES = ['https_proxy', 'HTTPS_PROXY'] as const;

const bare = (hostname: string): string => hostname.replace(/^\[|\]$/g, '');
const portOf = (url: URL): number => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/**
 * The proxy step: the proxy the transport will use for `url`, decided as it decides (`proxiesFrom` of
 * @mcpc/http reads the same variables the same way). Undefined when a variable cannot be used.
 */
export async function routeStep(url: URL, env: NodeJS.ProcessEnv, report: Report): Promise<Route | undefined> {
  let proxies: Proxies;
  let proxy: Proxy | undefined;
  let exemption: string | undefined;
  try {
    proxies = proxiesFrom(env);
    proxy = proxies.forUrl(url);
    exemption = proxies.exemption(url);
  } catch (error) {
    // An https: proxy is beyond Node's own client, not undici's: with undici here the transport uses it.
    if (error instanceof HttpClientUnavailableError && (await defaultHttpClient()) === 'undici') {
      // Which variable it is, read with the client's precedence (the lower-case one first).
      const pairs = url.protocol === 'https:' ? [HTTPS_VARIABLES, HTTP_VARIABLES] : [HTTP_VARIABLES];
      const variable =
        pairs
          .map(([lower, upper]) => (env[lower] !== undefined ? lower : upper))
          .find((name) => /^https:/i.test(env[name] ?? '')) ?? 'a proxy variable';
      report.step(
        'proxy',
        true,
        `${variable} names an https: proxy, which the transport uses through undici: DNS, TCP and TLS to the target are the proxy's, and are not checked here`,
      );
      return { url, proxy: undefined, proxies: undefined, httpsProxy: variable };
    }
    report.step('proxy', false, safe(messageOf(error), 300));
    report.problem(
      'a proxy variable cannot be used',
      'set it to an http:// URL, or unset it (an https:// proxy needs undici installed)',
    );
    return undefined;
  }
  if (proxy !== undefined)
    report.step(
      'proxy',
      true,
      `${proxy.variable} applies to this URL: through ${safe(proxy.hostname, 200)}:${proxy.port}${proxy.authorization === undefined ? '' : ' (with credentials)'}`,
    );
  else if (exemption !== undefined) report.step('proxy', true, `NO_PROXY matches ${safe(exemption, 100)}: direct`);
  else report.step('proxy', true, `no proxy variable for ${url.protocol.slice(0, -1)}: URLs: direct`);
  return { url, proxy, proxies };
}

/** Where the first hop goes: the proxy when there is one (the target's name is then the proxy's to resolve). */
function firstHop(route: Route): { host: string; port: number; what: string } {
  return route.proxy === undefined
    ? { host: bare(route.url.hostname), port: portOf(route.url), what: 'the host' }
    : { host: route.proxy.hostname, port: route.proxy.port, what: 'the proxy' };
}

export async function dnsStep(route: Route, report: Report): Promise<boolean> {
  const { host, what } = firstHop(route);
  try {
    const addresses = await withTimeout(lookup(host, { all: true }), STEP_MS, 'DNS');
    const via = route.proxy === undefined ? '' : 'proxy ';
    report.step('dns', true, `${via}${safe(host, 200)} → ${addresses.map((a) => a.address).join(', ')}`);
    return true;
  } catch (error) {
    report.step('dns', false, `${safe(host, 200)}: ${safe(messageOf(error), 300)}`);
    report.problem(
      `${what} ${safe(host, 200)} does not resolve`,
      route.proxy === undefined
        ? 'check the URL for a typo, or your DNS / VPN'
        : `check ${route.proxy.variable} for a typo, or your DNS / VPN`,
    );
    return false;
  }
}

export function tcpStep(route: Route, report: Report): Promise<boolean> {
  const { host, port } = firstHop(route);
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = netConnect({ host, port });
    const timer = setTimeout(() => socket.destroy(new Error(`no answer in ${STEP_MS} ms`)), STEP_MS);
    socket.once('connect', () => {
      clearTimeout(timer);
      const address = `${socket.remoteAddress}:${socket.remotePort}`;
      socket.destroy();
      const to = route.proxy === undefined ? '' : 'the proxy at ';
      report.step('tcp', true, `connected to ${to}${address} in ${Date.now() - started} ms`);
      resolve(true);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      report.step('tcp', false, `${safe(host, 200)}:${port}: ${safe(messageOf(error), 300)}`);
      report.problem(
        `nothing accepts connections on ${route.proxy === undefined ? '' : 'the proxy '}${safe(host, 200)}:${port}`,
        route.proxy === undefined
          ? "start the server (or check the URL's host and port), then run `mcpc doctor` again"
          : `start the proxy (or check ${route.proxy.variable}), then run \`mcpc doctor\` again`,
      );
      resolve(false);
    });
  });
}

/** A raw TCP tunnel to host:port through the proxy (`CONNECT`), as the transport opens one for an https: URL. */
function tunnel(proxy: Proxy, host: string, port: number): Promise<Socket> {
  const authority = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host: proxy.hostname, port: proxy.port });
    const fail = (error: Error): void => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(() => fail(new Error(`no answer to CONNECT in ${STEP_MS} ms`)), STEP_MS);
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) {
        if (head.length > 16_384) fail(new Error("the proxy's answer to CONNECT has no end within 16 KiB"));
        return;
      }
      socket.off('data', onData);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head.subarray(0, end).toString('latin1'))?.[1];
      if (status === undefined || !status.startsWith('2'))
        return fail(new Error(`the proxy answered CONNECT ${safe(authority, 200)} with ${status ?? 'no HTTP status'}`));
      clearTimeout(timer);
      // Paused until TLS takes the socket over, so nothing read past the headers is lost meanwhile.
      socket.pause();
      if (end + 4 < head.length) socket.unshift(head.subarray(end + 4));
      resolve(socket);
    };
    socket.on('data', onData);
    socket.once('connect', () =>
      socket.write(
        `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n` +
          (proxy.authorization === undefined ? '' : `Proxy-Authorization: ${proxy.authorization}\r\n`) +
          '\r\n',
      ),
    );
    socket.once('error', fail);
    socket.once('close', () => fail(new Error('the proxy closed the connection before answering CONNECT')));
  });
}

function certName(part: PeerCertificate['subject'] | undefined): string {
  if (part === undefined) return '?';
  const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v.join(', ') : v);
  return one(part.CN) ?? one(part.O) ?? '?';
}

/** The TLS handshake with the target: directly, or inside a CONNECT tunnel through the proxy. */
export async function tlsStep(route: Route, report: Report): Promise<boolean> {
  const host = bare(route.url.hostname);
  const port = portOf(route.url);
  let socket: Socket | undefined;
  if (route.proxy !== undefined) {
    try {
      socket = await tunnel(route.proxy, host, port);
    } catch (error) {
      report.step('tls', false, `CONNECT ${safe(host, 200)}:${port}: ${safe(messageOf(error), 300)}`);
      report.problem(
        `the proxy did not open a tunnel to ${safe(host, 200)}:${port}`,
        `check that the proxy allows this host and port (and ${route.proxy.variable}'s credentials, if it needs them)`,
      );
      return false;
    }
  }
  return new Promise((resolve) => {
    const tls = tlsConnect({
      ...(socket === undefined ? { host, port } : { socket }),
      servername: /^[\d.:]+$/.test(host) ? undefined : host,
      ALPNProtocols: ['http/1.1'],
    });
    const timer = setTimeout(() => tls.destroy(new Error(`no TLS handshake in ${STEP_MS} ms`)), STEP_MS);
    tls.once('secureConnect', () => {
      clearTimeout(timer);
      const cert = tls.getPeerCertificate();
      const detail =
        `${tls.getProtocol() ?? 'TLS'}${socket === undefined ? '' : ' through the proxy'}, certificate for ${safe(certName(cert.subject), 200)} issued by ${safe(certName(cert.issuer), 200)}, ` +
        `valid until ${cert.valid_to ?? '?'}`;
      tls.destroy();
      report.step('tls', true, detail);
      resolve(true);
    });
    tls.once('error', (error) => {
      clearTimeout(timer);
      tls.destroy();
      const code = (error as { code?: string }).code ?? '';
      report.step('tls', false, safe(messageOf(error), 400));
      report.problem(
        `the TLS handshake with ${safe(host, 200)}:${port} failed (${safe(code || error.message, 200)})`,
        /CERT|SELF_SIGNED|UNABLE_TO/.test(code)
          ? `the certificate is not trusted: add its CA with NODE_EXTRA_CA_CERTS=ca.pem (or fix the server's chain${socket === undefined ? '' : "; a proxy that inspects TLS presents its own: add the proxy's CA"})`
          : 'check that the port speaks HTTPS (http:// for a plain server)',
      );
      resolve(false);
    });
  });
}

/**
 * Plain HTTP requests for the probe and the metadata, through the HTTP client the transport uses (and
 * so through the proxy the environment names): one per diagnosis, closed after it.
 */
export function doctorHttp(env: NodeJS.ProcessEnv): HttpClient {
  return createHttpClient({ env, connectTimeout: STEP_MS, maxConnections: 4 });
}

/** POST initialize, following redirects (at most 5), as a plain request: the hops, and the last response. */
export async function probe(
  http: HttpClient,
  signal: AbortSignal,
  route: Route,
  headers: Record<string, string>,
  report: Report,
): Promise<{ status: number; wwwAuthenticate: string | null; url: URL } | 'silent proxy' | undefined> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'mcpc-doctor', version: '0' } },
  });
  const hops: string[] = [];
  let current = route.url;
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    let res;
    try {
      res = await http.request({
        url: current,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          ...headers,
        },
        body,
        signal,
        headersTimeout: STEP_MS,
        bodyTimeout: STEP_MS,
      });
    } catch (error) {
      report.step('http', false, `POST ${safe(current.href, 300)}: ${safe(messageOf(error), 300)}`);
      // A proxy that took the connection and then said nothing: name it, since the target was never reached.
      const code = String((error as { code?: unknown } | null)?.code ?? '');
      if (route.proxy !== undefined && /TIMEOUT/.test(code)) {
        report.problem(
          `the proxy ${safe(route.proxy.hostname, 200)}:${route.proxy.port} accepted the connection but did not answer within ${STEP_MS / 1000} s`,
          'check the proxy (HTTP_PROXY / HTTPS_PROXY), or exempt this host with NO_PROXY',
        );
        return 'silent proxy';
      }
      return undefined;
    }
    // Not read: an initialize answered with an SSE stream that stays open would hold the step.
    destroyQuietly(res.body);
    const type = header(res, 'content-type')?.split(';')[0] ?? 'no body type';
    hops.push(`POST ${safe(current.href, 300)} → ${res.statusCode} (${safe(type, 60)})`);
    const session = header(res, 'mcp-session-id');
    if (session !== undefined) {
      // Polite: the probe's own session is closed at once (bounded: its answer is not waited for long).
      await http
        .request({
          url: current,
          method: 'DELETE',
          headers: { 'mcp-session-id': session, ...headers },
          body: undefined,
          signal,
          headersTimeout: 2_000,
          bodyTimeout: 2_000,
        })
        .then(discard, () => {});
    }
    const location = header(res, 'location');
    if (res.statusCode >= 300 && res.statusCode < 400 && location !== undefined && hop < MAX_HOPS) {
      current = new URL(location, current);
      continue;
    }
    const proxy = route.proxies?.forUrl(current);
    const via =
      route.httpsProxy !== undefined
        ? ` (through the https: proxy ${route.httpsProxy} names)`
        : proxy === undefined
          ? ''
          : ` (through the proxy ${safe(proxy.hostname, 200)}:${proxy.port})`;
    report.step('http', res.statusCode < 500, hops.join('; ') + via);
    if (hops.length > 1) {
      report.problem(
        `the URL redirects (${hops.length - 1} hop${hops.length > 2 ? 's' : ''})`,
        `use the final URL: ${safe(current.href, 300)}`,
      );
    }
    if (res.statusCode === 404 || res.statusCode === 405)
      report.problem(
        `POST ${safe(current.href, 300)} answers ${res.statusCode}: no MCP endpoint at this path`,
        'check the URL path (servers commonly use /mcp, or /sse for the older transport)',
      );
    if (res.statusCode >= 300 && res.statusCode < 400)
      report.problem(`more than ${MAX_HOPS} redirects`, 'the URL redirects in a loop: check the server URL');
    return { status: res.statusCode, wwwAuthenticate: header(res, 'www-authenticate') ?? null, url: current };
  }
  return undefined;
}

/** GET a JSON object (OAuth metadata), within 1 MiB: its status (0: unreachable) and the object, if it is one. */
export async function getJson(
  http: HttpClient,
  signal: AbortSignal,
  url: string,
): Promise<{ status: number; json?: Record<string, unknown> }> {
  let res;
  try {
    res = await http.request({
      url: new URL(url),
      method: 'GET',
      headers: { accept: 'application/json' },
      body: undefined,
      signal,
      headersTimeout: STEP_MS,
      bodyTimeout: STEP_MS,
    });
  } catch (error) {
    return { status: 0, json: { error: messageOf(error) } };
  }
  if (res.statusCode < 200 || res.statusCode >= 300) {
    await discard(res);
    return { status: res.statusCode };
  }
  try {
    const json: unknown = JSON.parse(await readText(res.body, header(res, 'content-encoding'), 1024 * 1024));
    return typeof json === 'object' && json !== null && !Array.isArray(json)
      ? { status: res.statusCode, json: json as Record<string, unknown> }
      : { status: res.statusCode };
  } catch {
    return { status: res.statusCode };
  }
}
