// RFC 9728 protected resource metadata: the well-known URLs, fetching, and validating what the resource names.
import * as oauth from 'oauth4webapi';
import { escapeForLog } from '@mcpc/jsonrpc';
import { DiscoveryError, InvalidResponseError } from '../errors.js';
import { checkOutgoing, getJson, type HttpSettings } from '../http.js';

/** RFC 9728 protected-resource metadata: the parts this client uses, validated. */
export interface ProtectedResourceMetadata {
  /** The resource identifier: what `resource` (RFC 8707) carries. */
  readonly resource: string;
  /** At least one, each a URL that passed the peer-URL policy. */
  readonly authorizationServers: readonly string[];
  readonly scopesSupported: readonly string[] | undefined;
  /** Where the document was read from. */
  readonly url: string;
  /** The whole document as validated (what a debugger shows); absent when there is none (a 2025-03-26 server). */
  readonly document?: Readonly<Record<string, unknown>>;
}

/**
 * The well-known URLs to try when a challenge names no `resource_metadata`, in the order MCP requires:
 * path-aware first (`/.well-known/oauth-protected-resource/<path>`), then the root.
 */
export function wellKnownResourceMetadataUrls(serverUrl: URL): string[] {
  const root = `${serverUrl.origin}/.well-known/oauth-protected-resource`;
  const path = serverUrl.pathname.replace(/\/$/, '');
  return path === '' ? [root] : [`${root}${path}`, root];
}

/**
 * A resource identifier matches the server when it is the server URL or a prefix of it on a path
 * segment boundary, on the same origin: servers commonly name their origin (`https://mcp.example`) as
 * the resource of `https://mcp.example/mcp`.
 */
export function resourceMatches(resource: string, serverUrl: URL): boolean {
  let r: URL;
  try {
    r = new URL(resource);
  } catch {
    return false;
  }
  if (r.origin !== serverUrl.origin || r.hash !== '' || r.search !== '') return false;
  const base = r.pathname.replace(/\/$/, '');
  const path = serverUrl.pathname.replace(/\/$/, '');
  return base === '' || path === base || path.startsWith(`${base}/`);
}

const stringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

async function parse(
  response: Response,
  url: string,
  serverUrl: URL,
  settings: HttpSettings,
): Promise<ProtectedResourceMetadata> {
  let body: unknown;
  try {
    body = await response.clone().json();
  } catch (cause) {
    throw new InvalidResponseError(`the protected resource metadata at ${url} is not JSON`, { cause });
  }
  const doc = body as Record<string, unknown> | null;
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc) || typeof doc.resource !== 'string') {
    throw new InvalidResponseError(`the protected resource metadata at ${url} has no "resource"`);
  }
  if (!resourceMatches(doc.resource, serverUrl)) {
    throw new DiscoveryError(
      'protected-resource',
      `the protected resource metadata at ${url} is for ${JSON.stringify(escapeForLog(doc.resource))}, not for ${serverUrl.href}`,
      { tried: [url] },
    );
  }
  let validated: oauth.ResourceServer;
  try {
    // oauth4webapi checks the status, the media type and the shape; we checked which resource it names.
    validated = await oauth.processResourceDiscoveryResponse(new URL(doc.resource), response);
  } catch (cause) {
    throw new InvalidResponseError(
      `the protected resource metadata at ${url} is not valid: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
  const servers = validated.authorization_servers;
  if (!stringArray(servers) || servers.length === 0) {
    throw new DiscoveryError(
      'protected-resource',
      `the protected resource metadata at ${url} lists no authorization_servers`,
      { tried: [url] },
    );
  }
  // An authorization server named by the peer is a peer URL: HTTPS, and no private addresses.
  for (const s of servers) checkOutgoing(settings, s, 'authorization server');
  const scopes = validated.scopes_supported;
  return {
    resource: doc.resource,
    authorizationServers: servers,
    scopesSupported: stringArray(scopes) ? scopes : undefined,
    url,
    document: validated as Readonly<Record<string, unknown>>,
  };
}

/**
 * RFC 9728 discovery: the `resource_metadata` of the challenge when there is one (it must pass the
 * peer-URL policy, or discovery fails closed: no well-known fallback), else the path-aware and root
 * well-known URLs.
 */
export async function discoverProtectedResource(
  settings: HttpSettings,
  serverUrl: URL,
  resourceMetadataUrl: string | undefined,
  signal?: AbortSignal,
): Promise<ProtectedResourceMetadata>;
/** `allowMissing`: `undefined` rather than an error when every well-known URL answered 404 (a server that predates RFC 9728). */
export async function discoverProtectedResource(
  settings: HttpSettings,
  serverUrl: URL,
  resourceMetadataUrl: string | undefined,
  signal: AbortSignal | undefined,
  options: { readonly allowMissing: true },
): Promise<ProtectedResourceMetadata | undefined>;
export async function discoverProtectedResource(
  settings: HttpSettings,
  serverUrl: URL,
  resourceMetadataUrl: string | undefined,
  signal?: AbortSignal,
  options?: { readonly allowMissing: true },
): Promise<ProtectedResourceMetadata | undefined> {
  if (resourceMetadataUrl !== undefined) {
    // Throws InsecureUrlError before anything is sent.
    const url = checkOutgoing(settings, resourceMetadataUrl, 'resource_metadata');
    const response = await getJson(settings, url.href, 'resource_metadata', signal);
    if (response.status !== 200) {
      throw new DiscoveryError(
        'protected-resource',
        `the resource_metadata ${url.href} answered HTTP ${response.status}`,
        { tried: [url.href] },
      );
    }
    return parse(response, url.href, serverUrl, settings);
  }
  const tried: string[] = [];
  let allMissing = true;
  for (const url of wellKnownResourceMetadataUrls(serverUrl)) {
    tried.push(url);
    const response = await getJson(settings, url, 'protected resource metadata', signal);
    if (response.status === 200) return parse(response, url, serverUrl, settings);
    if (response.status !== 404) allMissing = false;
  }
  if (allMissing && options?.allowMissing === true) return undefined;
  throw new DiscoveryError(
    'protected-resource',
    `no protected resource metadata for ${serverUrl.href} (tried ${tried.join(', ')})`,
    { tried },
  );
}
