// Which URLs may be used: peer URLs (HTTPS, no private addresses), redirect URIs, client metadata URLs.
import { InsecureUrlError, OAuthConfigError } from '../errors.js';

/** What a host part of a URL is, judged from its text alone: names are never resolved. */
export type HostClass = 'loopback' | 'private' | 'link-local' | 'unspecified' | 'reserved' | 'public' | 'name';

const ipv4Octets = (host: string): number[] | undefined => {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (m === null) return undefined;
  const octets = m.slice(1).map(Number);
  return octets.every((o) => o <= 255) ? octets : undefined;
};

function classifyIpv4([a = 0, b = 0]: number[]): HostClass {
  if (a === 0) return 'unspecified';
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  // Carrier-grade NAT and the benchmarking range are inside someone's network as surely as 10/8 is.
  if ((a === 100 && b >= 64 && b <= 127) || (a === 198 && (b === 18 || b === 19))) return 'private';
  if (a === 169 && b === 254) return 'link-local';
  if (a >= 224) return 'reserved';
  return 'public';
}

/** Eight 16-bit groups of an IPv6 literal (without brackets), or undefined when it is not one. */
function ipv6Groups(host: string): number[] | undefined {
  let text = host.toLowerCase();
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (lastColon === -1) return undefined;
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = ipv4Octets(last);
    if (v4 === undefined) return undefined;
    tail = [((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0)];
    text = text.slice(0, lastColon + 1);
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string): number[] | undefined => {
    if (part === '') return [];
    const groups = part.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
    return groups.some(Number.isNaN) ? undefined : groups;
  };
  const head = parse(halves[0] ?? '');
  const rest = halves.length === 2 ? parse(halves[1] ?? '') : [];
  if (head === undefined || rest === undefined) return undefined;
  const explicit = head.length + rest.length + tail.length;
  if (halves.length === 1) return explicit === 8 ? [...head, ...tail] : undefined;
  if (explicit > 7) return undefined;
  return [...head, ...new Array<number>(8 - explicit).fill(0), ...rest, ...tail];
}

function classifyIpv6(g: number[]): HostClass {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = (hi: number, lo: number) => classifyIpv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (g.every((x) => x === 0)) return 'unspecified';
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0 && g6 === 0 && g7 === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) addresses reach the IPv4 address inside them.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return embedded(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b) return embedded(g6, g7);
  if (g0 === 0x2002) return embedded(g1, g2); // 6to4
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xfe00) === 0xfc00 || (g0 & 0xffc0) === 0xfec0) return 'private';
  if ((g0 & 0xff00) === 0xff00) return 'reserved';
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0) return 'reserved'; // IPv4-compatible and other ::/80 oddities
  return 'public';
}

/**
 * Classify the host of a URL from its text (`URL.hostname`: IPv6 in brackets, IPv4 already in
 * dotted-quad form). `localhost` and `*.localhost` are loopback by definition (RFC 6761); any other name
 * is `'name'`: it is not resolved, so a public name pointing at a private address is not caught here.
 */
export function classifyHost(hostname: string): HostClass {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (host.startsWith('[') && host.endsWith(']')) {
    const groups = ipv6Groups(host.slice(1, -1));
    return groups === undefined ? 'reserved' : classifyIpv6(groups);
  }
  const v4 = ipv4Octets(host);
  if (v4 !== undefined) return classifyIpv4(v4);
  if (host.includes(':')) {
    const groups = ipv6Groups(host);
    return groups === undefined ? 'reserved' : classifyIpv6(groups);
  }
  return 'name';
}

export const isLoopbackUrl = (url: URL): boolean => classifyHost(url.hostname) === 'loopback';

/**
 * A local stack: the configured MCP server is on the loopback interface, so its authorization server
 * may be too, over plain HTTP.
 */
export const isLocalStack = (serverUrl: URL): boolean => isLoopbackUrl(serverUrl);

export interface PeerUrlPolicy {
  /** The configured server URL is on loopback: loopback URLs, plain HTTP included, are allowed. */
  readonly localStack: boolean;
}

/**
 * Check a URL the peer handed us (a `resource_metadata`, an authorization server, an endpoint from its
 * metadata). It must be HTTPS, carry no credentials or fragment, and not name a literal loopback, private
 * or link-local address — except that a local stack may use loopback, over HTTP or HTTPS. Throws
 * {@link InsecureUrlError}; the caller then sends nothing (fail closed).
 */
export function checkPeerUrl(value: unknown, purpose: string, policy: PeerUrlPolicy): URL {
  if (typeof value !== 'string' || value.length === 0 || value.length > 4096) {
    throw new InsecureUrlError(typeof value === 'string' ? value : String(value), purpose, 'not a URL string');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InsecureUrlError(value, purpose, 'not a valid absolute URL');
  }
  if (url.username !== '' || url.password !== '') throw new InsecureUrlError(value, purpose, 'it carries credentials');
  if (url.hash !== '' || value.includes('#')) throw new InsecureUrlError(value, purpose, 'it has a fragment');
  const host = classifyHost(url.hostname);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new InsecureUrlError(value, purpose, `the ${url.protocol} scheme is not allowed`);
  if (host === 'loopback') {
    if (!policy.localStack)
      throw new InsecureUrlError(value, purpose, 'it names the loopback interface, and the MCP server is not local');
    return url;
  }
  if (host !== 'public' && host !== 'name') throw new InsecureUrlError(value, purpose, `it names a ${host} address`);
  if (url.protocol !== 'https:') throw new InsecureUrlError(value, purpose, 'it is not HTTPS');
  return url;
}

const FORBIDDEN_SCHEMES = new Set([
  'javascript:',
  'data:',
  'file:',
  'vbscript:',
  'about:',
  'blob:',
  'filesystem:',
  'ftp:',
  'ws:',
  'wss:',
]);

/**
 * A redirect URI must be HTTPS, plain HTTP on the loopback interface, or an RFC 8252 private-use scheme
 * (a reverse domain name such as `com.example.app:/cb`). MCP 2026-07-28, Communication Security.
 */
export function checkRedirectUri(value: unknown, purpose = 'redirect_uri'): URL {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) {
    throw new InsecureUrlError(typeof value === 'string' ? value : String(value), purpose, 'not a URI string');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InsecureUrlError(value, purpose, 'not a valid absolute URI');
  }
  if (value.includes('#')) throw new InsecureUrlError(value, purpose, 'a redirect URI must not have a fragment');
  if (url.protocol === 'https:') {
    if (url.username !== '' || url.password !== '')
      throw new InsecureUrlError(value, purpose, 'it carries credentials');
    return url;
  }
  if (url.protocol === 'http:') {
    if (url.username !== '' || url.password !== '')
      throw new InsecureUrlError(value, purpose, 'it carries credentials');
    const host = url.hostname.toLowerCase();
    if (host === 'localhost' || classifyHost(host) === 'loopback') return url;
    throw new InsecureUrlError(value, purpose, 'plain HTTP is allowed on the loopback interface only');
  }
  if (FORBIDDEN_SCHEMES.has(url.protocol))
    throw new InsecureUrlError(value, purpose, `the ${url.protocol} scheme is not allowed`);
  // RFC 8252 §7.1: a private-use scheme is a reverse domain name the app controls, so it has a dot.
  if (/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/i.test(url.protocol)) return url;
  throw new InsecureUrlError(
    value,
    purpose,
    'it is neither HTTPS, loopback HTTP, nor a private-use (reverse domain) scheme',
  );
}

/** A redirect URI a native app uses (loopback or private-use scheme): DCR's `application_type: native`. */
export function isNativeRedirectUri(url: URL): boolean {
  if (url.protocol === 'http:') return true; // checkRedirectUri allows http only on loopback
  if (url.protocol === 'https:') return isLoopbackUrl(url);
  return true;
}

/**
 * A Client ID Metadata Document URL doubles as the client id: it must be HTTPS with a path, and carry no
 * fragment, credentials or dot segments (draft-ietf-oauth-client-id-metadata-document §3).
 */
export function checkClientIdMetadataUrl(value: unknown): string {
  if (typeof value !== 'string') throw new OAuthConfigError('clientIdMetadataUrl must be a string');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OAuthConfigError(`clientIdMetadataUrl ${JSON.stringify(value)} is not a valid URL`);
  }
  const rawPath = value.replace(/^https:\/\/[^/?#]*/i, '').split(/[?#]/)[0] ?? '';
  if (url.protocol !== 'https:') throw new OAuthConfigError('clientIdMetadataUrl must be an https: URL');
  if (rawPath === '' || rawPath === '/')
    throw new OAuthConfigError('clientIdMetadataUrl must have a path (e.g. https://app.example/oauth/client.json)');
  if (value.includes('#')) throw new OAuthConfigError('clientIdMetadataUrl must not have a fragment');
  if (url.username !== '' || url.password !== '')
    throw new OAuthConfigError('clientIdMetadataUrl must not carry credentials');
  if (rawPath.split('/').some((s) => s.replace(/%2e/gi, '.') === '.' || s.replace(/%2e/gi, '.') === '..')) {
    throw new OAuthConfigError('clientIdMetadataUrl must not contain dot segments');
  }
  return value;
}
