// The provider's public shapes: options, results, and the requests the transports' auth hook passes in.
import type { AuthChallenge, AuthContext, AuthResponse, Logger } from '@mcpc/jsonrpc';
import type { DPoPOptions } from './dpop/dpop.js';
import type { ClientInfo } from './grants/client-resolution.js';
import type { JwtBearerAssertion } from './grants/token-request.js';
import type { FetchFunction } from './http.js';
import type { AuthorizationInteraction } from './interaction.js';
import type { OAuthStorage } from './storage/storage.js';

export type { ClientInfo } from './grants/client-resolution.js';

export interface OAuthProviderOptions {
  /** The MCP server's endpoint URL. */
  readonly serverUrl: string | URL;
  /**
   * The redirect URI for the authorization code flow: loopback HTTP (`http://127.0.0.1/callback`; a
   * port left out is chosen by `BrowserOAuth` when it listens), HTTPS, or a private-use scheme.
   */
  readonly redirectUri?: string;
  /** Scopes to ask for, besides those a challenge names. Default: the challenge's, else the resource's `scopes_supported`. */
  readonly scope?: string | readonly string[];
  /** Where registrations and tokens are kept (default: a `MemoryStorage` of this provider's own). */
  readonly storage?: OAuthStorage;
  /** An HTTPS URL with a path, hosting this client's metadata document; used as the client id where the server supports it. */
  readonly clientIdMetadataUrl?: string;
  /** Pre-registered credentials, each naming its authorization server's issuer. */
  readonly clientInfo?: ClientInfo | readonly ClientInfo[];
  /** Sender-constrained tokens (RFC 9449): `true` for a generated ES256 key, or your own key pair. */
  readonly dpop?: boolean | DPoPOptions;
  /**
   * `'client_credentials'` for machine-to-machine access with pre-registered credentials;
   * `'jwt-bearer'` (RFC 7523) to present a JWT from `assertion` as the grant — workload identity
   * federation, or an ID-JAG from `enterpriseManagedAuthorization()`. Default `'authorization_code'`.
   */
  readonly grantType?: GrantType;
  /** For `grantType: 'jwt-bearer'`: the JWT, or a function asked for one at every grant request. */
  readonly assertion?: string | JwtBearerAssertion;
  /** How a user authorizes (`BrowserOAuth`, `headlessInteraction()`, your own). None: non-interactive. */
  readonly interaction?: AuthorizationInteraction;
  /**
   * On HTTP 403 `insufficient_scope`: `'raise'` (default) throws `InsufficientScopeError` and records the
   * scope for the next authorization; `'reauthorize'` runs that authorization through the interaction
   * at once and retries the request.
   */
  readonly stepUp?: 'raise' | 'reauthorize';
  /** For Dynamic Client Registration. */
  readonly clientName?: string;
  readonly clientUri?: string;
  /** The fetch OAuth requests go through (default: the global one). */
  readonly fetch?: FetchFunction;
  /** Milliseconds for one OAuth HTTP request (30 000). */
  readonly requestTimeoutMs?: number;
  /** Refresh this long before a token expires (30 000 ms). */
  readonly refreshMarginMs?: number;
  /** How long an authorization request stays redeemable (600 000 ms). */
  readonly pendingTtlMs?: number;
  readonly logger?: Logger;
}

/** How tokens are obtained: with a user (the authorization code flow), or machine to machine. */
export type GrantType = 'authorization_code' | 'client_credentials' | 'jwt-bearer';

/** What an authorization produced, without the secrets. */
export interface AuthorizationResult {
  readonly issuer: string;
  readonly tokenType: 'Bearer' | 'DPoP';
  readonly scope: string | undefined;
  readonly expiresAt: Date | undefined;
  readonly refreshable: boolean;
}

/** What `startAuthorization` returns: where to send the user. */
export interface StartedAuthorization {
  readonly authorizationUrl: URL;
  readonly state: string;
  readonly redirectUri: string;
  readonly issuer: string;
}

// The auth hook's shapes are the kernel's (`@mcpc/jsonrpc`), named here as this package's modules use them.
/** One request to the MCP server, as the transport's auth hook describes it. */
export type AuthContextLike = AuthContext;

/** A 401 or 403 from the MCP server. */
export type ChallengeLike = AuthChallenge;

/** Any response from the MCP server. */
export type ResponseLike = AuthResponse;
