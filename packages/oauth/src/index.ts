export { OAuthProvider, type OAuthProviderOptions, type ClientInfo, type GrantType, type AuthorizationResult, type StartedAuthorization } from './provider.js';
export { enterpriseManagedAuthorization, type EnterpriseManagedAuthorizationOptions, type EnterpriseIdentityProvider } from './enterprise-authorization.js';
export type { AssertionContext, JwtBearerAssertion } from './token-request.js';
export { BrowserOAuth, openSystemBrowser, type BrowserOAuthOptions } from './browser.js';
export { headlessInteraction, type AuthorizationInteraction, type PreparedInteraction, type HeadlessInteractionOptions } from './interaction.js';
export {
  storageKey,
  type OAuthStorage,
  type StoredValue,
  type StoredClient,
  type StoredTokens,
  type PendingAuthorization,
  type ResourceBinding,
} from './storage.js';
export { MemoryStorage } from './memory-storage.js';
export { FileStorage } from './file-storage.js';
export type { DPoPOptions, DPoPAlgorithm } from './dpop.js';
export type { ClientSecrets, ClientPrivateKey, TokenEndpointAuthMethod } from './client-auth.js';
export type { FetchFunction } from './http.js';
export { parseWwwAuthenticate, type Challenge } from './www-authenticate.js';
export { checkPeerUrl, checkRedirectUri, checkClientIdMetadataUrl, classifyHost, type HostClass, type PeerUrlPolicy } from './url-policy.js';
export { wellKnownResourceMetadataUrls } from './resource-metadata.js';
export { authorizationServerMetadataUrls } from './server-metadata.js';
export {
  OAuthError,
  OAuthConfigError,
  InsecureUrlError,
  DiscoveryError,
  IssuerMismatchError,
  PkceNotSupportedError,
  ClientRegistrationError,
  AuthorizationRequiredError,
  AuthorizationResponseError,
  AuthorizationDeniedError,
  TokenRequestError,
  UnsupportedTokenTypeError,
  InsufficientScopeError,
  AuthorizationServerChangedError,
  OAuthStorageError,
  AuthorizationTimeoutError,
  InvalidResponseError,
  type AuthorizationResponseProblem,
} from './errors.js';
