// The authorization request: its PKCE pair, and its URL (the endpoint's own query kept, no parameter sent twice).
import * as oauth from 'oauth4webapi';
import { assertPkceS256, type AuthorizationServerMetadata } from '../discovery/server-metadata.js';
import { scopeList, scopeString, scopeUnion } from '../scopes.js';

/** A PKCE pair (RFC 7636): a fresh verifier, and its S256 challenge. */
export interface PkcePair {
  /** A secret: it proves, at the token endpoint, that the code is this client's. */
  readonly codeVerifier: string;
  /** `BASE64URL(SHA-256(ASCII(code_verifier)))`. */
  readonly codeChallenge: string;
  readonly codeChallengeMethod: 'S256';
}

/** A PKCE pair for one authorization request — only at a server that advertises S256 (`PkceNotSupportedError`). */
export async function pkceFor(as: AuthorizationServerMetadata): Promise<PkcePair> {
  assertPkceS256(as);
  const codeVerifier = oauth.generateRandomCodeVerifier();
  return {
    codeVerifier,
    codeChallenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    codeChallengeMethod: 'S256',
  };
}

export interface AuthorizationRequest {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly scope: string | undefined;
  readonly state: string;
  readonly codeChallenge: string;
  /** RFC 8707: the canonical URI of the MCP server. */
  readonly resource: string;
}

// Parameters this client sets: each appears exactly once in the request, whatever the endpoint's own
// query carried.
const OWN = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'code_challenge',
  'code_challenge_method',
  'resource',
] as const;

/**
 * The authorization URL. The endpoint's own query string is retained (RFC 6749 §3.1: a tenant, a
 * brand, a locale), but no parameter appears twice: the client's own replace any the endpoint carried,
 * and a `scope` the endpoint carried is merged into the one `scope` sent.
 */
export function buildAuthorizationUrl(endpoint: URL, request: AuthorizationRequest): URL {
  const url = new URL(endpoint.href);
  const endpointScope = url.searchParams.getAll('scope');
  const scope = scopeString(
    scopeUnion(
      endpointScope.flatMap((s) => scopeList(s)),
      request.scope,
    ),
  );
  const values: Record<(typeof OWN)[number], string> = {
    response_type: 'code',
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    state: request.state,
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
    resource: request.resource,
  };
  for (const name of OWN) url.searchParams.set(name, values[name]);
  if (scope === undefined) url.searchParams.delete('scope');
  else url.searchParams.set('scope', scope);
  return url;
}
