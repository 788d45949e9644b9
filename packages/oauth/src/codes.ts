// The `code` strings of the errors @mcpc/oauth raises, one constant each: match on these, not on literals.

export const OAuthErrorCode = Object.freeze({
  /** `OAuthError` with no more specific code. */
  Error: 'MCPC_OAUTH_ERROR',
  /** `OAuthError`: an authorization server or metadata endpoint could not be reached. */
  Network: 'MCPC_OAUTH_NETWORK',
  /** `OAuthConfigError`. */
  Config: 'MCPC_OAUTH_CONFIG',
  /** `InsecureUrlError`. */
  InsecureUrl: 'MCPC_OAUTH_INSECURE_URL',
  /** `DiscoveryError`. */
  Discovery: 'MCPC_OAUTH_DISCOVERY',
  /** `IssuerMismatchError`. */
  IssuerMismatch: 'MCPC_OAUTH_ISSUER_MISMATCH',
  /** `PkceNotSupportedError`. */
  PkceUnsupported: 'MCPC_OAUTH_PKCE_UNSUPPORTED',
  /** `ClientRegistrationError`. */
  Registration: 'MCPC_OAUTH_REGISTRATION',
  /** `AuthorizationRequiredError`. */
  AuthorizationRequired: 'MCPC_OAUTH_AUTHORIZATION_REQUIRED',
  /** `AuthorizationResponseError`. */
  AuthorizationResponse: 'MCPC_OAUTH_AUTHORIZATION_RESPONSE',
  /** `AuthorizationDeniedError`. */
  AuthorizationDenied: 'MCPC_OAUTH_AUTHORIZATION_DENIED',
  /** `TokenRequestError`. */
  TokenRequest: 'MCPC_OAUTH_TOKEN_REQUEST',
  /** `UnsupportedTokenTypeError`. */
  TokenType: 'MCPC_OAUTH_TOKEN_TYPE',
  /** `InsufficientScopeError`. */
  InsufficientScope: 'MCPC_OAUTH_INSUFFICIENT_SCOPE',
  /** `AuthorizationServerChangedError`. */
  AuthorizationServerChanged: 'MCPC_OAUTH_AUTHORIZATION_SERVER_CHANGED',
  /** `OAuthStorageError`. */
  Storage: 'MCPC_OAUTH_STORAGE',
  /** `AuthorizationAbandonedError`. */
  AuthorizationAbandoned: 'MCPC_OAUTH_AUTHORIZATION_ABANDONED',
  /** `AuthorizationTimeoutError`. */
  Timeout: 'MCPC_OAUTH_TIMEOUT',
  /** `InvalidResponseError`. */
  InvalidResponse: 'MCPC_OAUTH_INVALID_RESPONSE',
  /** `OAuthStepError` (`@mcpc/oauth/steps`): its `cause` is the library's own error, with its own code. */
  Step: 'MCPC_OAUTH_STEP',
} as const);
export type OAuthErrorCode = (typeof OAuthErrorCode)[keyof typeof OAuthErrorCode];
