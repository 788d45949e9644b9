// Token endpoint requests (code, refresh, client credentials, jwt-bearer) and the checked token response.
import * as oauth from 'oauth4webapi';
import { escapeForLog } from '@mcpc/jsonrpc';
import { InvalidResponseError, OAuthError, TokenRequestError, UnsupportedTokenTypeError } from '../errors.js';
import {
  chooseAuthMethod,
  clientAuthentication,
  type ClientSecrets,
  type TokenEndpointAuthMethod,
} from './client-auth.js';
import { customFetchFor, insecureAllowed, type HttpSettings } from '../http.js';
import { endpoint, type AuthorizationServerMetadata } from '../discovery/server-metadata.js';
import type { DPoPKey } from '../dpop/dpop.js';

/** A token response, checked: what the provider stores. */
export interface IssuedTokens {
  readonly accessToken: string;
  readonly tokenType: 'Bearer' | 'DPoP';
  readonly refreshToken: string | undefined;
  readonly expiresIn: number | undefined;
  readonly scope: string | undefined;
}

/** Everything a token request needs besides its grant. */
export interface TokenEndpointContext {
  readonly settings: HttpSettings;
  readonly as: AuthorizationServerMetadata;
  readonly client: ClientSecrets;
  readonly method: TokenEndpointAuthMethod;
  /** RFC 8707: the canonical MCP server URI, on every token request. */
  readonly resource: string;
  readonly dpop: DPoPKey | undefined;
  readonly signal?: AbortSignal | undefined;
}

/**
 * The context of one token request: its client authentication chosen from what the server supports and
 * the client holds, and the DPoP key, once made (`dpop` undefined: DPoP is off).
 */
export async function tokenEndpointContext(
  settings: HttpSettings,
  as: AuthorizationServerMetadata,
  client: ClientSecrets,
  resource: string,
  dpop: { key(): Promise<DPoPKey> } | undefined,
  signal?: AbortSignal,
): Promise<TokenEndpointContext> {
  const method = chooseAuthMethod(as, client);
  return { settings, as, client, method, resource, dpop: await dpop?.key(), signal };
}

/**
 * `token_type` is required (RFC 6749 §5.1) with no default, and a client must not use a type it does
 * not understand (§7.1): Bearer, or DPoP when this request carried a DPoP proof. Checked on the raw
 * body, before oauth4webapi (which accepts DPoP tokens unasked) reads it.
 */
async function checkTokenType(response: Response, dpop: boolean): Promise<void> {
  if (response.status !== 200) return;
  let body: unknown;
  try {
    body = await response.clone().json();
  } catch {
    return; // oauth4webapi reports the malformed body
  }
  const type = (body as { token_type?: unknown } | null)?.token_type;
  if (typeof type !== 'string') throw new UnsupportedTokenTypeError(undefined, 'issued');
  const lower = type.toLowerCase();
  if (lower === 'bearer' || (lower === 'dpop' && dpop)) return;
  throw new UnsupportedTokenTypeError(type, 'issued');
}

function toIssued(json: oauth.TokenEndpointResponse, dpop: boolean): IssuedTokens {
  const type = json.token_type.toLowerCase();
  if (type !== 'bearer' && !(type === 'dpop' && dpop)) throw new UnsupportedTokenTypeError(json.token_type, 'issued');
  return {
    accessToken: json.access_token,
    tokenType: type === 'dpop' ? 'DPoP' : 'Bearer',
    refreshToken: json.refresh_token,
    expiresIn: typeof json.expires_in === 'number' ? json.expires_in : undefined,
    scope: typeof json.scope === 'string' ? json.scope : undefined,
  };
}

/** A failed grant as this package's errors: the server's OAuth error, a refused client, an invalid response. */
export function mapError(grant: string, as: AuthorizationServerMetadata, cause: unknown): Error {
  if (cause instanceof OAuthError) return cause;
  if (cause instanceof oauth.ResponseBodyError) {
    return new TokenRequestError(
      grant,
      `the token endpoint of ${as.issuer} refused the ${grant} grant: ${escapeForLog(cause.error)}${cause.error_description === undefined ? '' : ` (${escapeForLog(cause.error_description)})`}`,
      { error: cause.error, errorDescription: cause.error_description, status: cause.status, cause },
    );
  }
  if (cause instanceof oauth.WWWAuthenticateChallengeError) {
    return new TokenRequestError(
      grant,
      `the token endpoint of ${as.issuer} refused the client (HTTP ${cause.status})`,
      { status: cause.status, cause },
    );
  }
  if (cause instanceof oauth.UnsupportedOperationError) return new UnsupportedTokenTypeError(undefined, 'issued');
  if (cause instanceof oauth.OperationProcessingError) {
    return new InvalidResponseError(`the token response of ${as.issuer} is not valid: ${cause.message}`, { cause });
  }
  return new TokenRequestError(
    grant,
    `the ${grant} grant at ${as.issuer} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    { cause },
  );
}

/**
 * Send a grant, with one retry when the server asks for a DPoP nonce (`use_dpop_nonce`: the handle
 * kept the `DPoP-Nonce` it sent), and check the answer.
 */
async function grant(
  ctx: TokenEndpointContext,
  name: string,
  request: (
    options: oauth.TokenEndpointRequestOptions,
    auth: oauth.ClientAuth,
    client: oauth.Client,
  ) => Promise<Response>,
  process: (response: Response, client: oauth.Client) => Promise<oauth.TokenEndpointResponse>,
): Promise<IssuedTokens> {
  const token = endpoint(ctx.settings, ctx.as, 'token_endpoint');
  const client: oauth.Client = { client_id: ctx.client.clientId, token_endpoint_auth_method: ctx.method };
  const auth = await clientAuthentication(ctx.method, ctx.client);
  const options: oauth.TokenEndpointRequestOptions = {
    [oauth.customFetch]: customFetchFor(ctx.settings, 'token request', ctx.signal),
    [oauth.allowInsecureRequests]: insecureAllowed(ctx.settings, token.href),
    additionalParameters: { resource: ctx.resource },
    ...(ctx.dpop === undefined ? {} : { DPoP: ctx.dpop.handle }),
    ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
  };
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await request(options, auth, client);
      await checkTokenType(response, ctx.dpop !== undefined);
      return toIssued(await process(response, client), ctx.dpop !== undefined);
    } catch (cause) {
      if (attempt === 0 && ctx.dpop !== undefined && oauth.isDPoPNonceError(cause)) continue;
      throw mapError(name, ctx.as, cause);
    }
  }
}

const withParams = (
  options: oauth.TokenEndpointRequestOptions,
  extra: Record<string, string | undefined>,
): oauth.TokenEndpointRequestOptions => {
  const params = new URLSearchParams(options.additionalParameters as Record<string, string>);
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) params.set(k, v);
  return { ...options, additionalParameters: params };
};

/** Redeem an authorization code (PKCE verifier, the same redirect URI, `resource`). */
export function exchangeCode(
  ctx: TokenEndpointContext,
  callback: URLSearchParams,
  redirectUri: string,
  codeVerifier: string,
): Promise<IssuedTokens> {
  return grant(
    ctx,
    'authorization_code',
    (options, auth, client) =>
      oauth.authorizationCodeGrantRequest(ctx.as, client, auth, callback, redirectUri, codeVerifier, options),
    (response, client) => oauth.processAuthorizationCodeResponse(ctx.as, client, response),
  );
}

/** Refresh (RFC 6749 §6), with `resource`; `scope` narrows or repeats what was granted. */
export function refreshTokens(ctx: TokenEndpointContext, refreshToken: string): Promise<IssuedTokens> {
  return grant(
    ctx,
    'refresh_token',
    (options, auth, client) => oauth.refreshTokenGrantRequest(ctx.as, client, auth, refreshToken, options),
    (response, client) => oauth.processRefreshTokenResponse(ctx.as, client, response),
  );
}

/** The client credentials grant (machine to machine), with `resource` and the scope asked for. */
export function clientCredentials(ctx: TokenEndpointContext, scope: string | undefined): Promise<IssuedTokens> {
  return grant(
    ctx,
    'client_credentials',
    (options, auth, client) => {
      const { additionalParameters, ...rest } = withParams(options, { scope });
      return oauth.clientCredentialsGrantRequest(ctx.as, client, auth, additionalParameters ?? {}, rest);
    },
    (response, client) => oauth.processClientCredentialsResponse(ctx.as, client, response),
  );
}

/** What an assertion source is told for one JWT bearer grant request. */
export interface AssertionContext {
  /** The MCP server the token is for. */
  readonly serverUrl: URL;
  /** The authorization server the grant goes to: the audience an assertion is made for. */
  readonly issuer: string;
  readonly tokenEndpoint: string;
  /** RFC 8707: the MCP server's resource identifier, as its metadata names it. */
  readonly resource: string;
  /** The scope the grant request asks for, if any. */
  readonly scope: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Where the JWT of a `jwt-bearer` grant comes from: called for every grant request, so it can hand out
 * a fresh one (a workload platform rotates its tokens; an ID-JAG lives minutes).
 */
export type JwtBearerAssertion = (context: AssertionContext) => string | Promise<string>;

/** RFC 7523 §2.1: the grant type of a JWT presented as an authorization grant. */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * The JWT bearer grant (RFC 7523 §2.1): `assertion` is the grant (a workload's platform token, an
 * ID-JAG from an enterprise IdP), sent with `resource` and the scope asked for. The client still
 * authenticates as its method says (`none` for a public workload).
 */
export function jwtBearer(
  ctx: TokenEndpointContext,
  assertion: string,
  scope: string | undefined,
): Promise<IssuedTokens> {
  return grant(
    ctx,
    'jwt-bearer',
    (options, auth, client) => {
      const { additionalParameters, ...rest } = withParams(options, { assertion, scope });
      return oauth.genericTokenEndpointRequest(
        ctx.as,
        client,
        auth,
        JWT_BEARER_GRANT,
        additionalParameters ?? {},
        rest,
      );
    },
    (response, client) => oauth.processGenericTokenEndpointResponse(ctx.as, client, response),
  );
}
