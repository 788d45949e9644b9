// The public entry of @mcpc/oauth.
export {
  OAuthProvider,
  type OAuthProviderOptions,
  type ClientInfo,
  type GrantType,
  type AuthorizationResult,
  type StartedAuthorization,
} from './provider.js';
export {
  enterpriseManagedAuthorization,
  type EnterpriseManagedAuthorizationOptions,
  type EnterpriseIdentityProvider,
} from './grants/enterprise-authorization.js';
export type { AssertionContext, JwtBearerAssertion } from './grants/token-request.js';
export { BrowserOAuth, openSystemBrowser, type BrowserOAuthOptions } from './browser.js';
export {
  headlessInteraction,
  type AuthorizationInteraction,
  type PreparedInteraction,
  type HeadlessInteractionOptions,
} from './interaction.js';
export {
  storageKey,
  type OAuthStorage,
  type StoredValue,
  type StoredClient,
  type StoredTokens,
  type PendingAuthorization,
  type ResourceBinding,
} from './storage/storage.js';
export { MemoryStorage } from './storage/memory-storage.js';
export { IndexedDBStorage, type IndexedDBStorageOptions } from './web/indexeddb-storage.js';
export {
  redirectToAuthorization,
  completeRedirectAuthorization,
  isAuthorizationCallback,
  popupInteraction,
  sendPopupCallback,
  type CodeFlowProvider,
  type PopupInteractionOptions,
  type PopupWindow,
} from './web/page-flow.js';
export { FileStorage } from './storage/file-storage.js';
export type { DPoPOptions, DPoPAlgorithm } from './dpop/dpop.js';
export type { ClientSecrets, ClientPrivateKey, TokenEndpointAuthMethod } from './grants/client-auth.js';
export type { FetchFunction } from './http.js';
export { parseWwwAuthenticate, type Challenge } from './discovery/www-authenticate.js';
export {
  checkPeerUrl,
  checkRedirectUri,
  checkClientIdMetadataUrl,
  classifyHost,
  type HostClass,
  type PeerUrlPolicy,
} from './discovery/url-policy.js';
export { wellKnownResourceMetadataUrls } from './discovery/resource-metadata.js';
export { authorizationServerMetadataUrls } from './discovery/server-metadata.js';
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
  AuthorizationAbandonedError,
  InvalidResponseError,
  type AuthorizationResponseProblem,
} from './errors.js';
export { OAuthErrorCode } from './codes.js';
