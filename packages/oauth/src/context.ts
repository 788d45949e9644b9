// The provider's options, checked once, and what its parts share: storage, HTTP settings, clients, DPoP key.
import { warningsToConsole, type Logger } from '@mcpc/jsonrpc';
import { isLocalStack, checkClientIdMetadataUrl, checkRedirectUri } from './discovery/url-policy.js';
import { ProviderDPoPKey } from './dpop/provider-key.js';
import { OAuthConfigError } from './errors.js';
import { ClientResolution, type ClientInfo } from './grants/client-resolution.js';
import type { HttpSettings } from './http.js';
import type { GrantType, OAuthProviderOptions } from './provider-options.js';
import { GuardedStorage } from './storage/guarded-storage.js';
import { MemoryStorage } from './storage/memory-storage.js';

export interface ProviderContext {
  readonly serverUrl: URL;
  /** The server URL as storage keys and the fallback `resource` carry it. */
  readonly serverKey: string;
  readonly options: OAuthProviderOptions;
  readonly store: GuardedStorage;
  readonly settings: HttpSettings;
  readonly logger: Logger;
  /** Pre-registered credentials as configured, each naming its issuer. */
  readonly clients: readonly ClientInfo[];
  readonly clientIds: ClientResolution;
  readonly grantType: GrantType;
  readonly redirectUri: string | undefined;
  /** Undefined when DPoP is off. */
  readonly dpop: ProviderDPoPKey | undefined;
}

/** The canonical form of the server URL used in keys and as the fallback `resource`: no fragment, no lone trailing slash. */
function canonical(url: URL): string {
  const u = new URL(url.href);
  u.hash = '';
  const text = u.href;
  return u.pathname === '/' && u.search === '' ? text.slice(0, -1) : text;
}

/** Check the options (`OAuthConfigError` before anything is sent anywhere) and build what the provider's parts share. */
export function providerContext(options: OAuthProviderOptions): ProviderContext {
  const serverUrl = new URL(options.serverUrl);
  if (serverUrl.protocol !== 'https:' && serverUrl.protocol !== 'http:')
    throw new OAuthConfigError('serverUrl must be an http: or https: URL');
  const serverKey = canonical(serverUrl);
  const store = new GuardedStorage(options.storage ?? new MemoryStorage());
  const logger = options.logger ?? warningsToConsole;
  let redirectUri: string | undefined;
  if (options.redirectUri !== undefined) {
    checkRedirectUri(options.redirectUri);
    // Kept as written: the authorization server compares redirect URIs as strings.
    redirectUri = options.redirectUri;
  }
  const cimd =
    options.clientIdMetadataUrl === undefined ? undefined : checkClientIdMetadataUrl(options.clientIdMetadataUrl);
  const clients =
    options.clientInfo === undefined
      ? []
      : Array.isArray(options.clientInfo)
        ? (options.clientInfo as readonly ClientInfo[])
        : [options.clientInfo as ClientInfo];
  for (const c of clients) {
    // A client id (and its secret) belongs to one authorization server: one that names none would be
    // sent wherever discovery leads, so it is refused before anything is sent anywhere.
    if (typeof c.issuer !== 'string' || c.issuer === '') {
      throw new OAuthConfigError(
        'pre-registered credentials (clientInfo) must name the issuer of the authorization server that issued them',
      );
    }
    if (typeof c.clientId !== 'string' || c.clientId === '')
      throw new OAuthConfigError('clientInfo.clientId must be a non-empty string');
  }
  const grantType = options.grantType ?? 'authorization_code';
  if (!['authorization_code', 'client_credentials', 'jwt-bearer'].includes(grantType))
    throw new OAuthConfigError(`grantType ${JSON.stringify(grantType)} is not supported`);
  if (grantType !== 'authorization_code' && clients.length === 0) {
    throw new OAuthConfigError(
      `the ${grantType} grant needs pre-registered credentials (clientInfo) naming the authorization server`,
    );
  }
  if (grantType === 'jwt-bearer' && typeof options.assertion !== 'string' && typeof options.assertion !== 'function') {
    throw new OAuthConfigError('the jwt-bearer grant needs an assertion (a JWT, or a function returning one)');
  }
  const settings: HttpSettings = {
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    policy: { localStack: isLocalStack(serverUrl) },
    trustedOrigin: serverUrl.origin,
    timeoutMs: options.requestTimeoutMs ?? 30_000,
    maxBodyBytes: 1024 * 1024,
  };
  const clientIds = new ClientResolution({
    storage: store,
    serverKey,
    configured: clients,
    clientIdMetadataUrl: cimd,
    redirectUri,
    clientName: options.clientName ?? 'mcpc',
    clientUri: options.clientUri,
    settings,
    logger,
  });
  const dpop =
    options.dpop !== undefined && options.dpop !== false
      ? new ProviderDPoPKey(options.dpop === true ? {} : options.dpop)
      : undefined;
  return { serverUrl, serverKey, options, store, settings, logger, clients, clientIds, grantType, redirectUri, dpop };
}
