// The storage contract, its keys, and the checked readers of each stored record.
/** A JSON value, as storage keeps it. */
export type StoredValue =
  null | boolean | number | string | readonly StoredValue[] | { readonly [key: string]: StoredValue | undefined };

/**
 * Where the provider keeps what must outlive a process: client registrations, tokens, the
 * per-request authorization record, which authorization server a resource uses, and the scopes asked
 * for. Keys are opaque strings built by {@link storageKey}; values are JSON objects. `MemoryStorage` and
 * `FileStorage` implement it; a keychain or a database can too.
 *
 * `set` must not resolve before the value is kept: the provider relies on it for records a flow needs,
 * and reads them back to be sure.
 */
export interface OAuthStorage {
  get(key: string): unknown | Promise<unknown>;
  set(key: string, value: StoredValue): void | Promise<void>;
  delete(key: string): void | Promise<void>;
}

/**
 * The keys the provider uses. Registration state and tokens are kept per MCP server *and* per
 * authorization server (its issuer), so two authorization servers behind one resource never share a
 * client id or a token; the pending authorization record is keyed by its `state`.
 */
export const storageKey = {
  /** Client credentials for one authorization server, as used for one MCP server. */
  client: (serverUrl: string, issuer: string): string => JSON.stringify(['client', serverUrl, issuer]),
  /** The token set an authorization server issued for one MCP server. */
  tokens: (serverUrl: string, issuer: string): string => JSON.stringify(['tokens', serverUrl, issuer]),
  /** The scopes already asked of an authorization server for one MCP server (what a step-up adds to). */
  scopes: (serverUrl: string, issuer: string): string => JSON.stringify(['scopes', serverUrl, issuer]),
  /** Which authorization server the MCP server uses now, as last discovered. */
  binding: (serverUrl: string): string => JSON.stringify(['binding', serverUrl]),
  /** One authorization request in flight: state, PKCE verifier, expected issuer, client id, redirect URI. */
  pending: (state: string): string => JSON.stringify(['pending', state]),
} as const;

/** Client credentials, bound to the authorization server that issued them. */
export interface StoredClient {
  /** `'preregistered'`: written by the host (or configured); `'dynamic'`: from Dynamic Client Registration. */
  readonly kind: 'preregistered' | 'dynamic';
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret?: string;
  /** Seconds since the epoch; 0 or absent: does not expire (RFC 7591). */
  readonly clientSecretExpiresAt?: number;
  readonly tokenEndpointAuthMethod?: string;
  readonly redirectUris?: readonly string[];
}

export interface StoredTokens {
  readonly issuer: string;
  readonly resource: string;
  readonly clientId: string;
  readonly accessToken: string;
  readonly tokenType: 'Bearer' | 'DPoP';
  readonly refreshToken?: string;
  /** Milliseconds since the epoch. */
  readonly expiresAt?: number;
  /** What the authorization server granted (its `scope`, or what was asked when it said nothing). */
  readonly scope?: string;
  /** What the grant asked for (a server may grant less): a step-up never asks again for what this token was asked with. */
  readonly requestedScope?: string;
  /** The JWK thumbprint of the DPoP key a DPoP token is bound to. */
  readonly dpopJkt?: string;
  readonly obtainedAt: number;
}

export interface PendingAuthorization {
  readonly state: string;
  readonly codeVerifier: string;
  /** The issuer from the validated metadata, recorded before the user is sent anywhere (RFC 9207). */
  readonly issuer: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly serverUrl: string;
  readonly resource: string;
  readonly scope?: string;
  readonly createdAt: number;
}

export interface ResourceBinding {
  readonly issuer: string;
  readonly resource: string;
  /** The server publishes no protected resource metadata (MCP 2025-03-26): its origin is its authorization server. */
  readonly legacy?: true;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optString = (v: unknown): boolean => v === undefined || typeof v === 'string';
const optNumber = (v: unknown): boolean => v === undefined || (typeof v === 'number' && Number.isFinite(v));

/** Read back a client record; anything malformed is treated as absent. */
export function readClient(v: unknown): StoredClient | undefined {
  if (!isObject(v)) return undefined;
  if (
    (v.kind !== 'preregistered' && v.kind !== 'dynamic') ||
    typeof v.issuer !== 'string' ||
    typeof v.clientId !== 'string' ||
    v.clientId === ''
  )
    return undefined;
  if (!optString(v.clientSecret) || !optNumber(v.clientSecretExpiresAt) || !optString(v.tokenEndpointAuthMethod))
    return undefined;
  if (
    v.redirectUris !== undefined &&
    !(Array.isArray(v.redirectUris) && v.redirectUris.every((u) => typeof u === 'string'))
  )
    return undefined;
  return v as unknown as StoredClient;
}

/**
 * Read back a token record. A record of the wrong shape is absent; one whose type is not understood is
 * reported as `{ badType }`, so the caller can refuse it by name rather than present it.
 */
export function readTokens(v: unknown): StoredTokens | { readonly badType: string | undefined } | undefined {
  if (!isObject(v)) return undefined;
  if (
    typeof v.issuer !== 'string' ||
    typeof v.resource !== 'string' ||
    typeof v.clientId !== 'string' ||
    typeof v.accessToken !== 'string' ||
    v.accessToken === ''
  )
    return undefined;
  if (
    !optString(v.refreshToken) ||
    !optNumber(v.expiresAt) ||
    !optString(v.scope) ||
    !optString(v.requestedScope) ||
    !optString(v.dpopJkt) ||
    !optNumber(v.obtainedAt)
  )
    return undefined;
  if (v.tokenType !== 'Bearer' && v.tokenType !== 'DPoP')
    return { badType: typeof v.tokenType === 'string' ? v.tokenType : undefined };
  return v as unknown as StoredTokens;
}

export function readPending(v: unknown): PendingAuthorization | undefined {
  if (!isObject(v)) return undefined;
  for (const k of ['state', 'codeVerifier', 'issuer', 'clientId', 'redirectUri', 'serverUrl', 'resource'])
    if (typeof v[k] !== 'string') return undefined;
  if (!optString(v.scope) || typeof v.createdAt !== 'number') return undefined;
  return v as unknown as PendingAuthorization;
}

export function readBinding(v: unknown): ResourceBinding | undefined {
  if (!isObject(v) || typeof v.issuer !== 'string' || typeof v.resource !== 'string') return undefined;
  return v.legacy === true
    ? { issuer: v.issuer, resource: v.resource, legacy: true }
    : { issuer: v.issuer, resource: v.resource };
}

export function readScopes(v: unknown): string[] {
  if (!isObject(v) || !Array.isArray(v.requested)) return [];
  return v.requested.filter((s): s is string => typeof s === 'string');
}

/** Drop `undefined` members, so a record is plain JSON. */
export function toStored(record: object): StoredValue {
  return JSON.parse(JSON.stringify(record)) as StoredValue;
}
