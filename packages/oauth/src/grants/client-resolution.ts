// Which client id to use at an authorization server: pre-registered, metadata document, or registration.
import type { Logger } from '@mcpc/jsonrpc';
import type { ClientSecrets } from './client-auth.js';
import { ClientRegistrationError, OAuthConfigError, OAuthStorageError } from '../errors.js';
import type { GuardedStorage } from '../storage/guarded-storage.js';
import type { HttpSettings } from '../http.js';
import { registerDynamically } from './registration.js';
import type { AuthorizationServerMetadata } from '../discovery/server-metadata.js';
import { readClient, storageKey, toStored, type StoredClient } from '../storage/storage.js';

/** Pre-registered client credentials. They name the authorization server that issued them. */
export interface ClientInfo extends ClientSecrets {
  /** The issuer identifier of the authorization server these credentials are for. Required. */
  readonly issuer: string;
}

/** Where a client id for the authorization code flow came from, in MCP's priority order. */
export type ClientSource = 'preregistered' | 'metadata-document' | 'stored-registration' | 'dynamic-registration';

/** The client an authorization code flow uses at one server, and where it came from. */
export interface ResolvedClient {
  readonly client: ClientSecrets;
  readonly source: ClientSource;
}

export interface ClientResolutionOptions {
  readonly storage: GuardedStorage;
  /** The MCP server's canonical URL: the storage slots are its own. */
  readonly serverKey: string;
  readonly configured: readonly ClientInfo[];
  /** The Client ID Metadata Document URL, when the host has one. */
  readonly clientIdMetadataUrl: string | undefined;
  /** The configured redirect URI: a registration names it, and one stored for another is not reused. */
  readonly redirectUri: string | undefined;
  readonly clientName: string;
  readonly clientUri: string | undefined;
  readonly settings: HttpSettings;
  readonly logger: Logger;
}

/**
 * Which client id (and credentials) the provider uses at one authorization server: the host's
 * pre-registered credentials for that server only, a Client ID Metadata Document, or a dynamic
 * registration — stored, and never written over pre-registered credentials.
 */
export class ClientResolution {
  readonly #o: ClientResolutionOptions;

  constructor(options: ClientResolutionOptions) {
    this.#o = options;
  }

  /** Pre-registered credentials for one server: what the host wrote to this server's slot, else `clientInfo`. */
  async preRegistered(issuer: string): Promise<ClientSecrets | undefined> {
    const stored = readClient(await this.#o.storage.get(storageKey.client(this.#o.serverKey, issuer)));
    const configured = this.#o.configured.find((c) => c.issuer === issuer);
    if (stored?.kind === 'preregistered' && stored.issuer === issuer) {
      // A key held in memory (private_key_jwt) goes with the same client id.
      const key = configured?.clientId === stored.clientId ? configured : undefined;
      return {
        clientId: stored.clientId,
        clientSecret: stored.clientSecret,
        tokenEndpointAuthMethod: stored.tokenEndpointAuthMethod ?? key?.tokenEndpointAuthMethod,
        privateKey: key?.privateKey,
        privateKeyAlg: key?.privateKeyAlg,
        keyId: key?.keyId,
      };
    }
    return configured;
  }

  /** Write pre-registered credentials for one server to this server's slot: read ahead of `configured`. */
  async storePreRegistered(
    issuer: string,
    info: Pick<ClientSecrets, 'clientId' | 'clientSecret' | 'tokenEndpointAuthMethod'>,
  ): Promise<void> {
    const record: StoredClient = {
      kind: 'preregistered',
      issuer,
      clientId: info.clientId,
      ...(info.clientSecret === undefined ? {} : { clientSecret: info.clientSecret }),
      ...(info.tokenEndpointAuthMethod === undefined ? {} : { tokenEndpointAuthMethod: info.tokenEndpointAuthMethod }),
    };
    await this.#o.storage.set(storageKey.client(this.#o.serverKey, issuer), toStored(record));
  }

  /** Why there are no credentials for `issuer`: never those of another authorization server. */
  noCredentials(issuer: string): ClientRegistrationError {
    const others = this.#o.configured.map((c) => c.issuer);
    return new ClientRegistrationError(
      others.length > 0
        ? `the pre-registered credentials are for ${others.map((o) => JSON.stringify(o)).join(', ')}, but ${this.#o.serverKey} uses ${JSON.stringify(issuer)}: they are not sent to another authorization server`
        : `no client credentials for ${JSON.stringify(issuer)}`,
    );
  }

  /**
   * The client for an authorization code flow at one server, in MCP's priority order: pre-registered
   * credentials, then a Client ID Metadata Document (when the server supports them), then a dynamic
   * registration already made, then — when `register` — a new one, which is written to storage and read
   * back before the flow goes on.
   */
  async forAuthorizationCode(
    issuer: string,
    as: AuthorizationServerMetadata,
    register: boolean,
    signal?: AbortSignal,
  ): Promise<ClientSecrets> {
    return (await this.resolve(issuer, as, register, signal)).client;
  }

  /** {@link forAuthorizationCode}, saying which of the four ways the client id was had. */
  async resolve(
    issuer: string,
    as: AuthorizationServerMetadata,
    register: boolean,
    signal?: AbortSignal,
  ): Promise<ResolvedClient> {
    const pre = await this.preRegistered(issuer);
    if (pre !== undefined) return { client: pre, source: 'preregistered' };
    if (this.#o.configured.length > 0) throw this.noCredentials(issuer);
    const cimd = this.#o.clientIdMetadataUrl;
    if (cimd !== undefined && as.client_id_metadata_document_supported === true)
      return { client: { clientId: cimd, tokenEndpointAuthMethod: 'none' }, source: 'metadata-document' };
    const storage = this.#o.storage;
    const key = storageKey.client(this.#o.serverKey, issuer);
    const stored = readClient(await storage.get(key));
    const redirectUri = this.#o.redirectUri;
    if (
      stored?.kind === 'dynamic' &&
      stored.issuer === issuer &&
      (redirectUri === undefined || stored.redirectUris === undefined || stored.redirectUris.includes(redirectUri))
    ) {
      const expires = stored.clientSecretExpiresAt;
      if (expires === undefined || expires === 0 || expires * 1000 > Date.now() + 60_000) {
        const client = {
          clientId: stored.clientId,
          clientSecret: stored.clientSecret,
          tokenEndpointAuthMethod: stored.tokenEndpointAuthMethod,
        };
        return { client, source: 'stored-registration' };
      }
    }
    if (!register) throw new ClientRegistrationError(`no client registration for ${JSON.stringify(issuer)} is stored`);
    if (typeof as.registration_endpoint !== 'string') {
      throw new ClientRegistrationError(
        `${JSON.stringify(issuer)} offers no way to get a client id: configure clientInfo (pre-registered credentials)${cimd === undefined ? ' or a clientIdMetadataUrl' : ' (it does not support Client ID Metadata Documents)'}`,
      );
    }
    const registered = await registerDynamically(
      this.#o.settings,
      as,
      {
        redirectUri: requireRedirectUri(redirectUri),
        clientName: this.#o.clientName,
        clientUri: this.#o.clientUri,
        grantTypes: ['authorization_code', 'refresh_token'],
      },
      this.#o.logger,
      signal,
    );
    // Re-read: credentials the host wrote meanwhile outrank what we registered, and are never overwritten.
    const now = readClient(await storage.get(key));
    if (now?.kind === 'preregistered' && now.issuer === issuer)
      return { client: (await this.preRegistered(issuer)) as ClientSecrets, source: 'preregistered' };
    try {
      await storage.set(key, toStored(registered));
    } catch (cause) {
      throw new OAuthStorageError(
        `the client registration for ${issuer} could not be stored, and the flow needs it: ${cause instanceof Error ? cause.message : String(cause)}`,
        { cause },
      );
    }
    const back = readClient(await storage.get(key));
    if (back?.clientId !== registered.clientId)
      throw new OAuthStorageError(`the client registration for ${issuer} did not reach storage, and the flow needs it`);
    const client = {
      clientId: registered.clientId,
      clientSecret: registered.clientSecret,
      tokenEndpointAuthMethod: registered.tokenEndpointAuthMethod,
    };
    return { client, source: 'dynamic-registration' };
  }
}

/** The redirect URI the authorization code flow needs. */
export function requireRedirectUri(redirectUri: string | undefined): string {
  if (redirectUri === undefined) throw new OAuthConfigError('the authorization code flow needs a redirectUri');
  return redirectUri;
}
