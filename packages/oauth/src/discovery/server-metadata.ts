// RFC 8414 / OpenID authorization server metadata: the discovery order, the exact issuer check, PKCE support.
import * as oauth from 'oauth4webapi';
import { escapeForLog } from '@mcpc/jsonrpc';
import { DiscoveryError, InvalidResponseError, IssuerMismatchError, PkceNotSupportedError } from '../errors.js';
import { checkOutgoing, getJson, type HttpSettings } from '../http.js';

/** Authorization server metadata (RFC 8414 / OpenID Connect Discovery), as oauth4webapi validated it. */
export type AuthorizationServerMetadata = oauth.AuthorizationServer;

/**
 * The metadata URLs for an issuer, in the order MCP requires. With a path (`https://as/tenant1`): RFC
 * 8414 path insertion, OpenID path insertion, OpenID path appending. Without one: RFC 8414, then OpenID.
 * A terminating `/` of the issuer's path is removed first (RFC 8414 §3.1, OpenID Discovery §4).
 */
export function authorizationServerMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, '');
  const origin = url.origin;
  if (path === '')
    return [`${origin}/.well-known/oauth-authorization-server`, `${origin}/.well-known/openid-configuration`];
  return [
    `${origin}/.well-known/oauth-authorization-server${path}`,
    `${origin}/.well-known/openid-configuration${path}`,
    `${origin}${path}/.well-known/openid-configuration`,
  ];
}

/**
 * Fetch and validate an authorization server's metadata. The issuer must pass the URL policy; the first
 * well-known URL that answers 200 is used, and its `issuer` must be identical (plain string equality,
 * no normalization) to the issuer it was fetched for, or it is not used at all.
 */
export async function discoverAuthorizationServer(
  settings: HttpSettings,
  issuer: string,
  signal?: AbortSignal,
): Promise<AuthorizationServerMetadata>;
/** `allowMissing`: `undefined` rather than an error when every well-known URL answered 404. */
export async function discoverAuthorizationServer(
  settings: HttpSettings,
  issuer: string,
  signal: AbortSignal | undefined,
  options: { readonly allowMissing: true },
): Promise<AuthorizationServerMetadata | undefined>;
export async function discoverAuthorizationServer(
  settings: HttpSettings,
  issuer: string,
  signal?: AbortSignal,
  options?: { readonly allowMissing: true },
): Promise<AuthorizationServerMetadata | undefined> {
  const issuerUrl = checkOutgoing(settings, issuer, 'authorization server issuer');
  if (issuerUrl.search !== '')
    throw new DiscoveryError(
      'authorization-server',
      `the issuer ${JSON.stringify(issuer)} has a query component (RFC 8414 §2)`,
    );
  const tried: string[] = [];
  let allMissing = true;
  for (const url of authorizationServerMetadataUrls(issuer)) {
    tried.push(url);
    const response = await getJson(settings, url, 'authorization server metadata', signal);
    if (response.status !== 200) {
      if (response.status !== 404) allMissing = false;
      continue;
    }
    let as: oauth.AuthorizationServer;
    try {
      const body = (await response.clone().json()) as { issuer?: unknown } | null;
      // oauth4webapi compares normalized URLs; MCP requires the very string, so check that first.
      if (typeof body !== 'object' || body === null || body.issuer !== issuer) {
        const got = typeof body?.issuer === 'string' ? JSON.stringify(escapeForLog(body.issuer)) : 'no issuer';
        throw new IssuerMismatchError('metadata', issuer, `fetched from ${url} names ${got}`);
      }
      as = await oauth.processDiscoveryResponse(issuerUrl, response);
    } catch (cause) {
      if (cause instanceof IssuerMismatchError) throw cause;
      throw new InvalidResponseError(
        `the authorization server metadata at ${url} is not valid: ${cause instanceof Error ? cause.message : String(cause)}`,
        { cause },
      );
    }
    return as;
  }
  if (allMissing && options?.allowMissing === true) return undefined;
  throw new DiscoveryError(
    'authorization-server',
    `no authorization server metadata for ${issuer} (tried ${tried.join(', ')})`,
    { tried },
  );
}

/** PKCE must be advertised with S256 before an authorization request is made (MCP: refuse otherwise). */
export function assertPkceS256(as: AuthorizationServerMetadata): void {
  const methods = as.code_challenge_methods_supported;
  if (!Array.isArray(methods) || !methods.includes('S256')) throw new PkceNotSupportedError(as.issuer);
}

/** The endpoint named `name` in the metadata, checked against the URL policy before it is used. */
export function endpoint(
  settings: HttpSettings,
  as: AuthorizationServerMetadata,
  name: 'authorization_endpoint' | 'token_endpoint' | 'registration_endpoint',
): URL {
  const value = as[name];
  if (typeof value !== 'string')
    throw new DiscoveryError('authorization-server', `the metadata of ${as.issuer} has no ${name}`);
  return checkOutgoing(settings, value, name);
}
