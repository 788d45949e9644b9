// Every error @mcpc/oauth throws: OAuthError and its subclasses, each with a stable code.
import { McpError } from '@mcpc/jsonrpc';
import { brand } from './brand.js';
import { OAuthErrorCode } from './codes.js';
import type { Exchange } from './steps/recorder.js';

/**
 * The root of every error `@mcpc/oauth` throws. Messages never carry a token, a code, a verifier or a
 * secret; strings that came from a peer are escaped before they are quoted.
 */
export class OAuthError extends McpError {
  static {
    brand(this, 'OAuthError');
  }

  constructor(message: string, options?: { code?: string; cause?: unknown }) {
    super(message, { code: options?.code ?? OAuthErrorCode.Error, cause: options?.cause });
  }
}

/** The provider's options are unusable (a redirect URI that is neither loopback nor HTTPS, credentials naming no issuer, …). */
export class OAuthConfigError extends OAuthError {
  static {
    brand(this, 'OAuthConfigError');
  }

  constructor(message: string) {
    super(message, { code: OAuthErrorCode.Config });
  }
}

/**
 * A URL from the peer (a `resource_metadata`, an authorization server, an endpoint in its metadata) or a
 * redirect URI was refused: not HTTPS, or a literal loopback, private or link-local address. Nothing was
 * sent to it.
 */
export class InsecureUrlError extends OAuthError {
  static {
    brand(this, 'InsecureUrlError');
  }
  /** The refused URL, as text (it is not a secret: it came from the peer or the configuration). */
  readonly url: string;
  /** What the URL was for: `'resource_metadata'`, `'token_endpoint'`, `'redirect_uri'`… */
  readonly purpose: string;

  constructor(url: string, purpose: string, reason: string) {
    super(`refused ${purpose} ${JSON.stringify(url.slice(0, 300))}: ${reason}`, { code: OAuthErrorCode.InsecureUrl });
    this.url = url;
    this.purpose = purpose;
  }
}

/** Protected-resource or authorization-server metadata could not be found, or is not usable. */
export class DiscoveryError extends OAuthError {
  static {
    brand(this, 'DiscoveryError');
  }
  /** Which document: RFC 9728 (`'protected-resource'`) or RFC 8414 / OpenID (`'authorization-server'`). */
  readonly document: 'protected-resource' | 'authorization-server';
  /** The URLs that were tried, in order. */
  readonly tried: readonly string[];

  constructor(
    document: 'protected-resource' | 'authorization-server',
    message: string,
    options?: { tried?: readonly string[]; cause?: unknown },
  ) {
    super(message, { code: OAuthErrorCode.Discovery, cause: options?.cause });
    this.document = document;
    this.tried = options?.tried ?? [];
  }
}

/**
 * An issuer did not match: the `issuer` of a metadata document differs from the issuer it was fetched
 * for, or the `iss` of an authorization response differs from the one recorded with the request (RFC
 * 9207), or is missing where the server promised it.
 */
export class IssuerMismatchError extends OAuthError {
  static {
    brand(this, 'IssuerMismatchError');
  }
  readonly where: 'metadata' | 'authorization-response';
  readonly expected: string;

  constructor(where: 'metadata' | 'authorization-response', expected: string, detail: string) {
    super(
      `${where === 'metadata' ? 'authorization server metadata' : 'the authorization response'} ${detail} (expected issuer ${JSON.stringify(expected)})`,
      {
        code: OAuthErrorCode.IssuerMismatch,
      },
    );
    this.where = where;
    this.expected = expected;
  }
}

/** The authorization server does not advertise PKCE with S256 (`code_challenge_methods_supported`), so authorization does not proceed. */
export class PkceNotSupportedError extends OAuthError {
  static {
    brand(this, 'PkceNotSupportedError');
  }
  readonly issuer: string;

  constructor(issuer: string) {
    super(
      `the authorization server ${JSON.stringify(issuer)} does not advertise PKCE with S256 (code_challenge_methods_supported); refusing to authorize`,
      {
        code: OAuthErrorCode.PkceUnsupported,
      },
    );
    this.issuer = issuer;
  }
}

/** No client id could be had, or a registration response was malformed or refused. */
export class ClientRegistrationError extends OAuthError {
  static {
    brand(this, 'ClientRegistrationError');
  }

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { code: OAuthErrorCode.Registration, cause: options?.cause });
  }
}

/**
 * Authorization needs a user and none can be asked: no interaction is configured (a CI job, a server),
 * and no stored token or refresh token is usable.
 */
export class AuthorizationRequiredError extends OAuthError {
  static {
    brand(this, 'AuthorizationRequiredError');
  }
  readonly serverUrl: string;

  constructor(serverUrl: string, detail: string) {
    super(`authorization is required for ${serverUrl}: ${detail}`, { code: OAuthErrorCode.AuthorizationRequired });
    this.serverUrl = serverUrl;
  }
}

export type AuthorizationResponseProblem =
  'repeated-parameter' | 'missing-state' | 'unknown-state' | 'expired' | 'missing-code' | 'invalid';

/** The redirect back from the authorization server (the callback) was refused before any code was redeemed. */
export class AuthorizationResponseError extends OAuthError {
  static {
    brand(this, 'AuthorizationResponseError');
  }
  readonly problem: AuthorizationResponseProblem;

  constructor(problem: AuthorizationResponseProblem, message: string, options?: { cause?: unknown }) {
    super(message, { code: OAuthErrorCode.AuthorizationResponse, cause: options?.cause });
    this.problem = problem;
  }
}

/** The authorization server answered the authorization request with an error (`access_denied`, …), after its `iss` was checked. */
export class AuthorizationDeniedError extends OAuthError {
  static {
    brand(this, 'AuthorizationDeniedError');
  }
  readonly error: string;
  readonly errorDescription: string | undefined;

  constructor(error: string, errorDescription: string | undefined) {
    super(
      `the authorization server refused the authorization request: ${error}${errorDescription === undefined ? '' : ` (${errorDescription})`}`,
      {
        code: OAuthErrorCode.AuthorizationDenied,
      },
    );
    this.error = error;
    this.errorDescription = errorDescription;
  }
}

/** The token endpoint refused a grant (an OAuth error response) or answered with something that is not a token response. */
export class TokenRequestError extends OAuthError {
  static {
    brand(this, 'TokenRequestError');
  }
  readonly grant: string;
  /** The OAuth `error` code, when the server sent one (`invalid_grant`, …). */
  readonly error: string | undefined;
  readonly errorDescription: string | undefined;
  readonly status: number | undefined;

  constructor(
    grant: string,
    message: string,
    options?: {
      error?: string | undefined;
      errorDescription?: string | undefined;
      status?: number | undefined;
      cause?: unknown;
    },
  ) {
    super(message, { code: OAuthErrorCode.TokenRequest, cause: options?.cause });
    this.grant = grant;
    this.error = options?.error;
    this.errorDescription = options?.errorDescription;
    this.status = options?.status;
  }
}

/**
 * A token whose `token_type` this client does not understand: not `Bearer` (nor `DPoP` with DPoP on), or
 * none at all. RFC 6749 §5.1 makes the type required with no default, and §7.1 forbids using a token of
 * a type the client does not understand.
 */
export class UnsupportedTokenTypeError extends OAuthError {
  static {
    brand(this, 'UnsupportedTokenTypeError');
  }
  readonly tokenType: string | undefined;

  constructor(tokenType: string | undefined, where: 'issued' | 'stored') {
    super(
      `${where === 'issued' ? 'the authorization server issued' : 'storage holds'} a token of type ${tokenType === undefined ? '(none)' : JSON.stringify(tokenType.slice(0, 40))}; only Bearer${where === 'issued' ? ' (or DPoP, when DPoP is enabled)' : ''} is used`,
      { code: OAuthErrorCode.TokenType },
    );
    this.tokenType = tokenType;
  }
}

/**
 * HTTP 403 with `error="insufficient_scope"`: the token lacks a scope. `scope` is what the challenge
 * names; it is recorded, so the next authorization asks for it together with what was asked before.
 */
export class InsufficientScopeError extends OAuthError {
  static {
    brand(this, 'InsufficientScopeError');
  }
  readonly scope: string | undefined;
  readonly errorDescription: string | undefined;
  readonly resourceMetadata: string | undefined;

  constructor(scope: string | undefined, errorDescription: string | undefined, resourceMetadata: string | undefined) {
    super(
      `the server requires more scope${scope === undefined ? '' : ` (${scope})`}${errorDescription === undefined ? '' : `: ${errorDescription}`}; authorize again to grant it`,
      {
        code: OAuthErrorCode.InsufficientScope,
      },
    );
    this.scope = scope;
    this.errorDescription = errorDescription;
    this.resourceMetadata = resourceMetadata;
  }
}

/**
 * The resource's authorization server changed while a code exchange or refresh was in flight. Its token
 * was discarded: it is not stored over the current server's token, nor presented.
 */
export class AuthorizationServerChangedError extends OAuthError {
  static {
    brand(this, 'AuthorizationServerChangedError');
  }
  readonly issuer: string;
  readonly currentIssuer: string | undefined;

  constructor(issuer: string, currentIssuer: string | undefined) {
    super(
      `the token from ${JSON.stringify(issuer)} was discarded: the resource's authorization server is now ${currentIssuer === undefined ? 'unknown' : JSON.stringify(currentIssuer)}`,
      {
        code: OAuthErrorCode.AuthorizationServerChanged,
      },
    );
    this.issuer = issuer;
    this.currentIssuer = currentIssuer;
  }
}

/** Storage could not keep something the flow needs (a registration, the per-request record). */
export class OAuthStorageError extends OAuthError {
  static {
    brand(this, 'OAuthStorageError');
  }

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { code: OAuthErrorCode.Storage, cause: options?.cause });
  }
}

/** The user did not complete authorization in time (`BrowserOAuth`'s `timeoutMs`). */
export class AuthorizationTimeoutError extends OAuthError {
  static {
    brand(this, 'AuthorizationTimeoutError');
  }
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`authorization was not completed within ${timeoutMs} ms`, { code: OAuthErrorCode.Timeout });
    this.timeoutMs = timeoutMs;
  }
}

/**
 * A popup authorization ended without a redirect back: the browser blocked the popup (open it in the
 * click's handler and pass it in), or the user closed it.
 */
export class AuthorizationAbandonedError extends OAuthError {
  static {
    brand(this, 'AuthorizationAbandonedError');
  }
  readonly reason: 'popup-blocked' | 'popup-closed';

  constructor(reason: 'popup-blocked' | 'popup-closed') {
    super(
      reason === 'popup-blocked'
        ? 'the browser blocked the authorization popup (open it in a click handler and pass it as `popup`)'
        : 'the authorization popup was closed before it redirected back',
      { code: OAuthErrorCode.AuthorizationAbandoned },
    );
    this.reason = reason;
  }
}

/** A response from an authorization server or a resource's metadata endpoint was malformed. */
export class InvalidResponseError extends OAuthError {
  static {
    brand(this, 'InvalidResponseError');
  }

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { code: OAuthErrorCode.InvalidResponse, cause: options?.cause });
  }
}

/**
 * A step of `@mcpc/oauth/steps` failed. `cause` is what the library threw (a `DiscoveryError`, an
 * `IssuerMismatchError`…: its `code` says what went wrong, and `reason` repeats it); `exchanges` and `log`
 * are every HTTP exchange the step made and every line the library logged, up to the failure.
 */
export class OAuthStepError extends OAuthError {
  static {
    brand(this, 'OAuthStepError');
  }
  readonly step: string;
  /** The `code` of `cause` (`MCPC_OAUTH_…`), or undefined when it has none (an abort). */
  readonly reason: string | undefined;
  readonly exchanges: readonly Exchange[];
  readonly log: readonly string[];

  constructor(step: string, cause: unknown, exchanges: readonly Exchange[] = [], log: readonly string[] = []) {
    super(cause instanceof Error ? cause.message : String(cause), { code: OAuthErrorCode.Step, cause });
    const code = (cause as { code?: unknown } | null)?.code;
    this.step = step;
    this.reason = typeof code === 'string' ? code : undefined;
    this.exchanges = exchanges;
    this.log = log;
  }
}

// This package's errors in `AnyMcpcError` (see @mcpc/jsonrpc's `McpcErrors`).
declare module '@mcpc/jsonrpc' {
  interface McpcErrors {
    '@mcpc/oauth.AuthorizationAbandonedError': AuthorizationAbandonedError & {
      readonly code: typeof OAuthErrorCode.AuthorizationAbandoned;
    };
    '@mcpc/oauth.AuthorizationDeniedError': AuthorizationDeniedError & {
      readonly code: typeof OAuthErrorCode.AuthorizationDenied;
    };
    '@mcpc/oauth.AuthorizationRequiredError': AuthorizationRequiredError & {
      readonly code: typeof OAuthErrorCode.AuthorizationRequired;
    };
    '@mcpc/oauth.AuthorizationResponseError': AuthorizationResponseError & {
      readonly code: typeof OAuthErrorCode.AuthorizationResponse;
    };
    '@mcpc/oauth.AuthorizationServerChangedError': AuthorizationServerChangedError & {
      readonly code: typeof OAuthErrorCode.AuthorizationServerChanged;
    };
    '@mcpc/oauth.AuthorizationTimeoutError': AuthorizationTimeoutError & {
      readonly code: typeof OAuthErrorCode.Timeout;
    };
    '@mcpc/oauth.ClientRegistrationError': ClientRegistrationError & {
      readonly code: typeof OAuthErrorCode.Registration;
    };
    '@mcpc/oauth.DiscoveryError': DiscoveryError & { readonly code: typeof OAuthErrorCode.Discovery };
    '@mcpc/oauth.InsecureUrlError': InsecureUrlError & { readonly code: typeof OAuthErrorCode.InsecureUrl };
    '@mcpc/oauth.InsufficientScopeError': InsufficientScopeError & {
      readonly code: typeof OAuthErrorCode.InsufficientScope;
    };
    '@mcpc/oauth.InvalidResponseError': InvalidResponseError & { readonly code: typeof OAuthErrorCode.InvalidResponse };
    '@mcpc/oauth.IssuerMismatchError': IssuerMismatchError & { readonly code: typeof OAuthErrorCode.IssuerMismatch };
    '@mcpc/oauth.OAuthConfigError': OAuthConfigError & { readonly code: typeof OAuthErrorCode.Config };
    '@mcpc/oauth.OAuthError': OAuthError & {
      readonly code: typeof OAuthErrorCode.Error | typeof OAuthErrorCode.Network;
    };
    '@mcpc/oauth.OAuthStepError': OAuthStepError & { readonly code: typeof OAuthErrorCode.Step };
    '@mcpc/oauth.OAuthStorageError': OAuthStorageError & { readonly code: typeof OAuthErrorCode.Storage };
    '@mcpc/oauth.PkceNotSupportedError': PkceNotSupportedError & {
      readonly code: typeof OAuthErrorCode.PkceUnsupported;
    };
    '@mcpc/oauth.TokenRequestError': TokenRequestError & { readonly code: typeof OAuthErrorCode.TokenRequest };
    '@mcpc/oauth.UnsupportedTokenTypeError': UnsupportedTokenTypeError & {
      readonly code: typeof OAuthErrorCode.TokenType;
    };
  }
}
