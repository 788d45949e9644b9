// Which proxy a request goes through: HTTP(S)_PROXY and NO_PROXY, read as undici's EnvHttpProxyAgent reads them.
import { HttpClientUnavailableError, ProxyConfigError } from './errors.js';

/** Environment variables, as `process.env` holds them. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** A proxy to go through: an `http:` URL, and the credentials of its userinfo, if any. */
export interface Proxy {
  readonly hostname: string;
  readonly port: number;
  /** `Basic …` from the proxy URL's userinfo (percent-decoded), sent as `Proxy-Authorization`. */
  readonly authorization: string | undefined;
  /** The variable that named it (`https_proxy`, `HTTP_PROXY`, …): for messages that explain a route. */
  readonly variable: string;
}

/** The proxy for each request URL, as the environment set it when this was made. */
export interface Proxies {
  /** The proxy for `url`, or undefined to go direct (no variable for its scheme, or `NO_PROXY`). */
  forUrl(url: URL): Proxy | undefined;
  /** The `NO_PROXY` entry (or `*`) that sends `url` direct although a proxy is set for its scheme, if one does. */
  exemption(url: URL): string | undefined;
}

const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy'];

/** Whether the environment asks for a proxy (`NO_PROXY` alone does not: it only exempts hosts from one). */
export function proxyConfigured(env: Environment): boolean {
  return PROXY_VARIABLES.some((name) => (env[name] ?? '') !== '');
}

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

/**
 * Reads the proxy variables once, with undici's precedence: lower case first (`http_proxy`, then
 * `HTTP_PROXY`); `https:` URLs use `HTTPS_PROXY`, else the HTTP one; `NO_PROXY` is a list (commas or
 * spaces) of host names, each matching itself and its subdomains (`example.com`, `.example.com` and
 * `*.example.com` alike), optionally with `:port`, or `*` for every host. Unlike undici, a later change
 * to `NO_PROXY` is not seen: the transport reads its environment once, as it is made. A variable that
 * cannot be used (`ProxyConfigError`, or `HttpClientUnavailableError` for an `https:` proxy) fails only
 * the URLs it would carry: `forUrl` throws for those, so an unusable `HTTPS_PROXY` does not stop `http:`.
 */
export function proxiesFrom(env: Environment): Proxies {
  const http = proxyNamedBy(env, 'http_proxy', 'HTTP_PROXY');
  const https = proxyNamedBy(env, 'https_proxy', 'HTTPS_PROXY') ?? http;
  const noProxy = parseNoProxy(env.no_proxy ?? env.NO_PROXY ?? '');
  const exemption = (url: URL): string | undefined => {
    // `host` minus the port, not `hostname`: the brackets of an IPv6 address stay, as undici keeps them.
    const hostname = url.host.replace(/:\d*$/, '').toLowerCase();
    const port = Number.parseInt(url.port, 10) || DEFAULT_PORTS[url.protocol] || 0;
    return noProxy(hostname, port);
  };
  return {
    forUrl(url: URL): Proxy | undefined {
      const proxy = url.protocol === 'https:' ? https : http;
      return proxy === undefined || exemption(url) !== undefined ? undefined : proxy();
    },
    exemption(url: URL): string | undefined {
      return (url.protocol === 'https:' ? https : http) === undefined ? undefined : exemption(url);
    },
  };
}

/**
 * The proxy the first set of two variables names (lower case first, as undici reads them), parsed now;
 * undefined when neither is set. Why it cannot be used is thrown when it is asked for.
 */
function proxyNamedBy(env: Environment, lower: string, upper: string): (() => Proxy) | undefined {
  const variable = env[lower] !== undefined ? lower : upper;
  const value = env[variable];
  if (!value) return undefined;
  try {
    const proxy = parseProxy(value, variable);
    return () => proxy;
  } catch (error) {
    return () => {
      throw error;
    };
  }
}

function parseProxy(value: string, variable: string): Proxy {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ProxyConfigError(variable, 'it is not a URL');
  }
  // An https: proxy (TLS to the proxy itself) is undici's; Node's client here speaks plain HTTP to it.
  if (url.protocol === 'https:') throw new HttpClientUnavailableError(`${variable} names an https: proxy`);
  if (url.protocol !== 'http:')
    throw new ProxyConfigError(
      variable,
      `its scheme is ${url.protocol.slice(0, 20)} (only http: and, with undici, https:)`,
    );
  let authorization: string | undefined;
  try {
    authorization =
      url.username === '' && url.password === ''
        ? undefined
        : `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  } catch {
    throw new ProxyConfigError(variable, 'its credentials are not valid percent-encoding');
  }
  return { hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(url.port) || 80, authorization, variable };
}

interface NoProxyEntry {
  readonly hostname: string;
  /** 0: any port. */
  readonly port: number;
  /** As written in `NO_PROXY`. */
  readonly text: string;
}

/** `NO_PROXY` as a lookup: the entry that sends a host (lower case, IPv6 in brackets) and port direct, if any. */
function parseNoProxy(value: string): (hostname: string, port: number) => string | undefined {
  if (value === '*') return () => '*';
  const entries: NoProxyEntry[] = [];
  for (const entry of value.split(/[,\s]/)) {
    if (entry === '') continue;
    const parsed = /^(.+):(\d+)$/.exec(entry);
    // A leading `.` or `*.` only says "and subdomains", which every entry means anyway.
    entries.push({
      hostname: (parsed?.[1] ?? entry).replace(/^\*?\./, '').toLowerCase(),
      port: parsed === null ? 0 : Number.parseInt(parsed[2]!, 10),
      text: entry,
    });
  }
  return (hostname, port) =>
    entries.find(
      (e) => (e.port === 0 || e.port === port) && (hostname === e.hostname || hostname.endsWith(`.${e.hostname}`)),
    )?.text;
}
