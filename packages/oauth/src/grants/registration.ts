// Dynamic Client Registration (RFC 7591, deprecated by MCP 2026-07-28): the request and the checked response.
import * as oauth from 'oauth4webapi';
import { escapeForLog, type Logger } from '@mcpc/jsonrpc';
import { ClientRegistrationError, InsecureUrlError } from '../errors.js';
import { customFetchFor, insecureAllowed, type HttpSettings } from '../http.js';
import { endpoint, type AuthorizationServerMetadata } from '../discovery/server-metadata.js';
import { checkRedirectUri, isNativeRedirectUri } from '../discovery/url-policy.js';
import { noteDynamicRegistration } from '../deprecation.js';
import type { StoredClient } from '../storage/storage.js';

export interface DynamicRegistrationRequest {
  readonly redirectUri: string;
  readonly clientName: string;
  readonly clientUri?: string | undefined;
  readonly scope?: string | undefined;
  readonly grantTypes: readonly string[];
}

const optionalString = (v: unknown) => v === undefined || typeof v === 'string';
const optionalStrings = (v: unknown) => v === undefined || (Array.isArray(v) && v.every((x) => typeof x === 'string'));

/**
 * Type-check a registration response beyond what oauth4webapi checks (`client_id`, `client_secret`,
 * `client_secret_expires_at`): every field this client reads must have its RFC 7591 type, and every
 * redirect URI it registered must be loopback, HTTPS or a private-use scheme, and include ours.
 */
export function validateRegistration(body: Record<string, unknown>, redirectUri: string): void {
  const bad = (field: string, why = 'has the wrong type') =>
    new ClientRegistrationError(`the registration response's ${field} ${why}`);
  if (!optionalString(body.client_secret)) throw bad('client_secret');
  if (
    body.client_id_issued_at !== undefined &&
    (typeof body.client_id_issued_at !== 'number' || !Number.isFinite(body.client_id_issued_at))
  )
    throw bad('client_id_issued_at');
  if (
    body.client_secret_expires_at !== undefined &&
    (typeof body.client_secret_expires_at !== 'number' || !Number.isFinite(body.client_secret_expires_at))
  ) {
    throw bad('client_secret_expires_at');
  }
  for (const f of [
    'token_endpoint_auth_method',
    'client_name',
    'client_uri',
    'scope',
    'application_type',
    'registration_access_token',
    'registration_client_uri',
  ]) {
    if (!optionalString(body[f])) throw bad(f);
  }
  for (const f of ['redirect_uris', 'grant_types', 'response_types']) if (!optionalStrings(body[f])) throw bad(f);
  const uris = body.redirect_uris as string[] | undefined;
  if (uris !== undefined) {
    for (const u of uris) {
      try {
        checkRedirectUri(u, 'registered redirect_uri');
      } catch (e) {
        if (e instanceof InsecureUrlError)
          throw new ClientRegistrationError(
            `the registration response registers an unsafe redirect URI: ${e.message}`,
            { cause: e },
          );
        throw e;
      }
    }
    if (!uris.includes(redirectUri))
      throw bad('redirect_uris', `does not include the redirect URI that was asked for (${redirectUri})`);
  }
  const method = body.token_endpoint_auth_method;
  if (method !== undefined && !['none', 'client_secret_basic', 'client_secret_post'].includes(method as string)) {
    throw bad(
      'token_endpoint_auth_method',
      `names ${JSON.stringify(escapeForLog(String(method)))}, which this client cannot use`,
    );
  }
}

/**
 * RFC 7591 §3.2.1 makes `client_secret_expires_at` REQUIRED when a secret is issued, and oauth4webapi
 * refuses a response without it. Servers that leave it out mean a secret that does not expire, so it is
 * read as 0 (what the RFC says for that) rather than failing the registration. Every other field is
 * still checked, here and in {@link validateRegistration}.
 */
async function withSecretExpiry(response: Response): Promise<Response> {
  if (response.status !== 201) return response;
  let body: unknown;
  try {
    body = await response.clone().json();
  } catch {
    return response; // oauth4webapi reports the malformed body
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return response;
  const fields = body as Record<string, unknown>;
  if (fields.client_secret === undefined || fields.client_secret_expires_at !== undefined) return response;
  return new Response(JSON.stringify({ ...fields, client_secret_expires_at: 0 }), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * RFC 7591 Dynamic Client Registration (deprecated by MCP 2026-07-28: one notice per process). Sends
 * `application_type` (native for loopback and private-use redirect URIs, else web), as MCP requires.
 */
export async function registerDynamically(
  settings: HttpSettings,
  as: AuthorizationServerMetadata,
  request: DynamicRegistrationRequest,
  logger: Logger,
  signal?: AbortSignal,
): Promise<StoredClient> {
  const url = endpoint(settings, as, 'registration_endpoint');
  noteDynamicRegistration(logger);
  const redirect = checkRedirectUri(request.redirectUri);
  const metadata: Record<string, oauth.JsonValue> = {
    redirect_uris: [request.redirectUri],
    client_name: request.clientName,
    token_endpoint_auth_method: 'none',
    grant_types: [...request.grantTypes],
    response_types: ['code'],
    application_type: isNativeRedirectUri(redirect) ? 'native' : 'web',
  };
  if (request.clientUri !== undefined) metadata.client_uri = request.clientUri;
  if (request.scope !== undefined) metadata.scope = request.scope;
  let body: Record<string, unknown>;
  try {
    const response = await oauth.dynamicClientRegistrationRequest(as, metadata, {
      [oauth.customFetch]: customFetchFor(settings, 'client registration', signal),
      [oauth.allowInsecureRequests]: insecureAllowed(settings, url.href),
      ...(signal === undefined ? {} : { signal }),
    });
    body = (await oauth.processDynamicClientRegistrationResponse(await withSecretExpiry(response))) as Record<
      string,
      unknown
    >;
  } catch (cause) {
    if (cause instanceof oauth.ResponseBodyError) {
      throw new ClientRegistrationError(
        `the authorization server ${as.issuer} refused the registration: ${escapeForLog(cause.error)}${cause.error_description === undefined ? '' : ` (${escapeForLog(cause.error_description)})`}`,
        { cause },
      );
    }
    if (cause instanceof ClientRegistrationError) throw cause;
    throw new ClientRegistrationError(
      `the registration at ${as.issuer} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
  validateRegistration(body, request.redirectUri);
  const client: StoredClient = {
    kind: 'dynamic',
    issuer: as.issuer,
    clientId: body.client_id as string,
    ...(typeof body.client_secret === 'string' ? { clientSecret: body.client_secret } : {}),
    ...(typeof body.client_secret_expires_at === 'number'
      ? { clientSecretExpiresAt: body.client_secret_expires_at }
      : {}),
    tokenEndpointAuthMethod:
      typeof body.token_endpoint_auth_method === 'string' ? body.token_endpoint_auth_method : 'none',
    redirectUris: (body.redirect_uris as string[] | undefined) ?? [request.redirectUri],
  };
  return client;
}
