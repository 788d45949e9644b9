import * as oauth from 'oauth4webapi';
import { escapeForLog, safeLog, warningsToConsole, type Logger } from '@mcpc/jsonrpc';
import {
  AuthorizationRequiredError,
  AuthorizationResponseError,
  AuthorizationServerChangedError,
  ClientRegistrationError,
  InsufficientScopeError,
  OAuthConfigError,
  OAuthStorageError,
  TokenRequestError,
  UnsupportedTokenTypeError,
} from './errors.js';
import { buildAuthorizationUrl } from './authorization-request.js';
import { callbackParameters, checkResponseIssuer, validateCallback } from './authorization-response.js';
import { chooseAuthMethod, type ClientSecrets } from './client-auth.js';
import { ClientResolution, requireRedirectUri, type ClientInfo } from './client-resolution.js';
import { GuardedStorage } from './guarded-storage.js';
import { DPoPKey, type DPoPOptions } from './dpop.js';
import type { FetchFunction, HttpSettings } from './http.js';
import type { AuthorizationInteraction } from './interaction.js';
import { MemoryStorage } from './memory-storage.js';
import { defaultEndpoints, legacyResource } from './legacy-discovery.js';
import { discoverProtectedResource, type ProtectedResourceMetadata } from './resource-metadata.js';
import { assertPkceS256, discoverAuthorizationServer, endpoint, type AuthorizationServerMetadata } from './server-metadata.js';
import { scopeList, scopeString, scopeUnion } from './scopes.js';
import {
  readBinding,
  readPending,
  readScopes,
  readTokens,
  storageKey,
  toStored,
  type OAuthStorage,
  type PendingAuthorization,
  type ResourceBinding,
  type StoredClient,
  type StoredTokens,
} from './storage.js';
import { clientCredentials, exchangeCode, jwtBearer, refreshTokens, type IssuedTokens, type JwtBearerAssertion, type TokenEndpointContext } from './token-request.js';
import { checkClientIdMetadataUrl, checkRedirectUri, isLocalStack } from './url-policy.js';
import { headerValues, parseWwwAuthenticate, pickChallenge } from './www-authenticate.js';

export type { ClientInfo } from './client-resolution.js';

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

interface AuthContextLike {
  readonly method: string;
  readonly url: URL;
}

interface ChallengeLike extends AuthContextLike {
  readonly status: number;
  readonly wwwAuthenticate: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

interface Discovered {
  readonly prm: ProtectedResourceMetadata;
  readonly issuer: string;
  readonly as: AuthorizationServerMetadata;
}

/** The canonical form of the server URL used in keys and as the fallback `resource`: no fragment, no lone trailing slash. */
function canonical(url: URL): string {
  const u = new URL(url.href);
  u.hash = '';
  const text = u.href;
  return u.pathname === '/' && u.search === '' ? text.slice(0, -1) : text;
}

const MAX_METADATA_AGE_MS = 60 * 60 * 1000;

/**
 * OAuth 2.1 for one MCP server, as the HTTP transports' `auth`: it supplies `Authorization` (and a DPoP
 * proof) for every request, and answers 401/403 challenges by discovering the authorization server,
 * refreshing, or authorizing anew. It satisfies `HttpAuth` of `@mcpc/transport-streamable-http`
 * structurally; neither package imports the other.
 */
export class OAuthProvider {
  readonly serverUrl: URL;
  readonly #serverKey: string;
  readonly #options: OAuthProviderOptions;
  readonly #store: GuardedStorage;
  readonly #clientIds: ClientResolution;
  readonly #settings: HttpSettings;
  readonly #logger: Logger;
  readonly #clients: readonly ClientInfo[];
  readonly #grantType: GrantType;
  readonly #redirectUri: string | undefined;
  readonly #cimd: string | undefined;
  readonly #dpopReady: Promise<DPoPKey> | undefined;
  #dpop: DPoPKey | undefined;
  readonly #metadata = new Map<string, { readonly as: AuthorizationServerMetadata; readonly at: number }>();
  readonly #refreshing = new Map<string, Promise<StoredTokens | undefined>>();
  #binding: ResourceBinding | undefined;
  #recovering: Promise<'retry' | 'fail'> | undefined;
  #presented: string | undefined;
  /** A token got by answering a 401, until a response shows it works: refused, it is not replaced again. */
  #unproven: string | undefined;
  #lastResourceMetadata: string | undefined;

  constructor(options: OAuthProviderOptions) {
    this.serverUrl = new URL(options.serverUrl);
    if (this.serverUrl.protocol !== 'https:' && this.serverUrl.protocol !== 'http:') throw new OAuthConfigError('serverUrl must be an http: or https: URL');
    this.#serverKey = canonical(this.serverUrl);
    this.#options = options;
    this.#store = new GuardedStorage(options.storage ?? new MemoryStorage());
    this.#logger = options.logger ?? warningsToConsole;
    if (options.redirectUri !== undefined) {
      checkRedirectUri(options.redirectUri);
      // Kept as written: the authorization server compares redirect URIs as strings.
      this.#redirectUri = options.redirectUri;
    }
    this.#cimd = options.clientIdMetadataUrl === undefined ? undefined : checkClientIdMetadataUrl(options.clientIdMetadataUrl);
    const clients = options.clientInfo === undefined ? [] : Array.isArray(options.clientInfo) ? (options.clientInfo as readonly ClientInfo[]) : [options.clientInfo as ClientInfo];
    for (const c of clients) {
      // A client id (and its secret) belongs to one authorization server: one that names none would be
      // sent wherever discovery leads, so it is refused before anything is sent anywhere.
      if (typeof c.issuer !== 'string' || c.issuer === '') {
        throw new OAuthConfigError('pre-registered credentials (clientInfo) must name the issuer of the authorization server that issued them');
      }
      if (typeof c.clientId !== 'string' || c.clientId === '') throw new OAuthConfigError('clientInfo.clientId must be a non-empty string');
    }
    this.#clients = clients;
    this.#grantType = options.grantType ?? 'authorization_code';
    if (!['authorization_code', 'client_credentials', 'jwt-bearer'].includes(this.#grantType)) throw new OAuthConfigError(`grantType ${JSON.stringify(this.#grantType)} is not supported`);
    if (this.#grantType !== 'authorization_code' && clients.length === 0) {
      throw new OAuthConfigError(`the ${this.#grantType} grant needs pre-registered credentials (clientInfo) naming the authorization server`);
    }
    if (this.#grantType === 'jwt-bearer' && typeof options.assertion !== 'string' && typeof options.assertion !== 'function') {
      throw new OAuthConfigError('the jwt-bearer grant needs an assertion (a JWT, or a function returning one)');
    }
    this.#settings = {
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
      policy: { localStack: isLocalStack(this.serverUrl) },
      trustedOrigin: this.serverUrl.origin,
      timeoutMs: options.requestTimeoutMs ?? 30_000,
      maxBodyBytes: 1024 * 1024,
    };
    this.#clientIds = new ClientResolution({
      storage: this.#store,
      serverKey: this.#serverKey,
      configured: clients,
      clientIdMetadataUrl: this.#cimd,
      redirectUri: this.#redirectUri,
      clientName: options.clientName ?? 'mcpc',
      clientUri: options.clientUri,
      settings: this.#settings,
      logger: this.#logger,
    });
    if (options.dpop !== undefined && options.dpop !== false) {
      this.#dpopReady = DPoPKey.create(options.dpop === true ? {} : options.dpop).then((k) => (this.#dpop = k));
      this.#dpopReady.catch(() => {}); // reported where it is awaited
    }
  }

  // ─── HttpAuth ──────────────────────────────────────────────────────────────────────────────────

  /** Headers for one request to the MCP server: `Authorization` and, for a DPoP token, its proof. */
  async headers(context: AuthContextLike): Promise<Record<string, string>> {
    // The token is this server's: never sent to another origin, whatever the transport asks.
    if (context.url.origin !== this.serverUrl.origin) return {};
    const binding = await this.#currentBinding();
    if (binding === undefined) return {};
    let tokens = await this.#loadTokens(binding.issuer);
    if (tokens === undefined) return {};
    if (this.#expired(tokens)) {
      tokens = tokens.refreshToken === undefined ? undefined : await this.#refreshQuietly(tokens);
      if (tokens === undefined) return {};
    }
    this.#presented = tokens.accessToken;
    if (tokens.tokenType === 'DPoP') {
      const key = await this.#dpopKey();
      if (key === undefined) return {};
      return { authorization: `DPoP ${tokens.accessToken}`, dpop: await key.proof(context.method, context.url, tokens.accessToken) };
    }
    return { authorization: `Bearer ${tokens.accessToken}` };
  }

  /** A 401 or 403 from the MCP server. Resolves `'retry'` once new credentials are in place. */
  async challenge(challenge: ChallengeLike): Promise<'retry' | 'fail'> {
    const values = headerValues(challenge.headers, 'www-authenticate');
    const challenges = parseWwwAuthenticate(values.length > 0 ? values : challenge.wwwAuthenticate);
    const c = pickChallenge(challenges, ['bearer', 'dpop']);
    const resourceMetadata = c?.params.resource_metadata;
    if (challenge.status === 403) {
      if (c?.params.error !== 'insufficient_scope') return 'fail';
      return this.#insufficientScope(c.params.scope, c.params.error_description, resourceMetadata, this.#presented);
    }
    if (challenge.status !== 401) return 'fail';
    const dpopChallenge = challenges.find((x) => x.scheme === 'dpop');
    if (this.#dpop !== undefined && dpopChallenge?.params.error === 'use_dpop_nonce') {
      const nonce = headerValues(challenge.headers, 'dpop-nonce')[0];
      if (nonce !== undefined) this.#dpop.noteNonce(challenge.url, nonce);
      return 'retry';
    }
    if (this.#recovering !== undefined) {
      // Another request is already getting new credentials: use what it gets.
      await this.#recovering.catch(() => {});
      return 'retry';
    }
    const presented = this.#presented;
    const run = this.#recover(resourceMetadata, c?.params.scope, presented);
    this.#recovering = run;
    try {
      return await run;
    } finally {
      if (this.#recovering === run) this.#recovering = undefined;
    }
  }

  /** Every response: a `DPoP-Nonce` the resource server sends is kept for the next proof; a success proves the token. */
  responded(response: { readonly url: URL; readonly status: number; readonly headers: Readonly<Record<string, string | string[] | undefined>> }): void {
    if (response.status < 400) this.#unproven = undefined;
    if (this.#dpop === undefined) return;
    const nonce = headerValues(response.headers, 'dpop-nonce')[0];
    if (nonce !== undefined) this.#dpop.noteNonce(response.url, nonce);
  }

  // ─── What a host calls ─────────────────────────────────────────────────────────────────────────

  /**
   * Authorize now: discover the authorization server, then run the client credentials grant or the
   * authorization code flow through the interaction. Asks for the configured scope, `scope`, and
   * everything asked of this authorization server before (a step-up keeps what it had).
   */
  async authorize(options: { readonly scope?: string | readonly string[]; readonly signal?: AbortSignal } = {}): Promise<AuthorizationResult> {
    const d = await this.#discover(this.#lastResourceMetadata, options.signal);
    const tokens = await this.#obtain(d, scopeList(options.scope), options.signal);
    return this.#result(tokens);
  }

  /**
   * The first half of the authorization code flow, for hosts that send the user themselves: the
   * authorization URL, with its per-request record (state, PKCE verifier, expected issuer, client id,
   * redirect URI) written to storage in one piece and read back.
   */
  async startAuthorization(options: { readonly redirectUri?: string; readonly scope?: string | readonly string[]; readonly signal?: AbortSignal } = {}): Promise<StartedAuthorization> {
    const d = await this.#discover(this.#lastResourceMetadata, options.signal);
    return this.#start(d, options.redirectUri, scopeList(options.scope), options.signal);
  }

  /**
   * The second half: the redirect back (a callback URL, or its query). Refuses repeated parameters,
   * finds the request by `state`, checks `iss` against the issuer recorded with it (RFC 9207) before
   * the code goes anywhere, then redeems the code with that request's verifier, client and redirect URI.
   * Only that request's record is removed.
   */
  async completeAuthorization(callback: string | URL | URLSearchParams, options: { readonly signal?: AbortSignal } = {}): Promise<AuthorizationResult> {
    return this.#result(await this.#complete(callback, options.signal));
  }

  /** Discover which authorization server the MCP server uses now (RFC 9728, then RFC 8414). */
  async discover(options: { readonly resourceMetadataUrl?: string; readonly signal?: AbortSignal } = {}): Promise<{ readonly issuer: string; readonly resource: string; readonly authorizationServers: readonly string[] }> {
    const d = await this.#discover(options.resourceMetadataUrl ?? this.#lastResourceMetadata, options.signal);
    return { issuer: d.issuer, resource: d.prm.resource, authorizationServers: d.prm.authorizationServers };
  }

  /**
   * Refresh the token in use now, with its refresh token (rotated where the server rotates them). The
   * provider refreshes on its own when a token nears expiry or the server refuses it; this is for a host
   * that wants a fresh one now (before a long job). `AuthorizationRequiredError` when there is no refresh
   * token, or the server refused it (the token is then deleted).
   */
  async refresh(): Promise<AuthorizationResult> {
    const binding = await this.#currentBinding();
    const tokens = binding === undefined ? undefined : await this.#loadTokens(binding.issuer);
    if (tokens?.refreshToken === undefined) throw new AuthorizationRequiredError(this.#serverKey, 'there is no refresh token to refresh with; authorize first');
    const refreshed = await this.#refreshQuietly(tokens);
    if (refreshed === undefined) throw new AuthorizationRequiredError(this.#serverKey, 'the refresh token was refused; authorize again');
    return this.#result(refreshed);
  }

  /** The tokens that would be presented now (a copy; they are secrets — handle with care). */
  async tokens(): Promise<StoredTokens | undefined> {
    const binding = await this.#currentBinding();
    return binding === undefined ? undefined : this.#loadTokens(binding.issuer);
  }

  /**
   * Store pre-registered credentials for one authorization server in this server's slot: the slot
   * authorization and refresh read, ahead of `clientInfo` (so a rotated secret written here is used).
   */
  async setClientInfo(issuer: string, info: Omit<ClientSecrets, 'privateKey' | 'privateKeyAlg' | 'keyId'>): Promise<void> {
    const record: StoredClient = {
      kind: 'preregistered',
      issuer,
      clientId: info.clientId,
      ...(info.clientSecret === undefined ? {} : { clientSecret: info.clientSecret }),
      ...(info.tokenEndpointAuthMethod === undefined ? {} : { tokenEndpointAuthMethod: info.tokenEndpointAuthMethod }),
    };
    await this.#store.set(storageKey.client(this.#serverKey, issuer), toStored(record));
  }

  /** Forget the tokens of the authorization server in use (registrations are kept). */
  async signOut(): Promise<void> {
    const binding = await this.#currentBinding();
    if (binding !== undefined) await this.#store.delete(storageKey.tokens(this.#serverKey, binding.issuer));
    this.#presented = undefined;
  }

  // ─── Internals ─────────────────────────────────────────────────────────────────────────────────

  async #dpopKey(): Promise<DPoPKey | undefined> {
    return this.#dpopReady === undefined ? undefined : await this.#dpopReady;
  }

  #expired(tokens: StoredTokens): boolean {
    return tokens.expiresAt !== undefined && tokens.expiresAt - (this.#options.refreshMarginMs ?? 30_000) <= Date.now();
  }

  async #currentBinding(): Promise<ResourceBinding | undefined> {
    if (this.#binding !== undefined) return this.#binding;
    const stored = readBinding(await this.#store.get(storageKey.binding(this.#serverKey)));
    if (stored !== undefined) this.#binding = stored;
    return stored;
  }

  /** The binding as storage has it now (another provider on the same storage may have moved it). */
  async #freshBinding(): Promise<ResourceBinding | undefined> {
    const stored = readBinding(await this.#store.get(storageKey.binding(this.#serverKey)));
    return stored ?? this.#binding;
  }

  async #setBinding(binding: ResourceBinding): Promise<void> {
    this.#binding = binding;
    await this.#store.set(storageKey.binding(this.#serverKey), toStored(binding));
  }

  /** The token set for one authorization server, if it may be presented; a token of a type not understood is refused and deleted. */
  async #loadTokens(issuer: string): Promise<StoredTokens | undefined> {
    const key = storageKey.tokens(this.#serverKey, issuer);
    const read = readTokens(await this.#store.get(key));
    if (read === undefined) return undefined;
    if ('badType' in read) {
      safeLog(this.#logger, 'warn', `[mcpc/oauth] ${new UnsupportedTokenTypeError(read.badType, 'stored').message}; it was deleted`);
      await this.#store.delete(key);
      return undefined;
    }
    if (read.issuer !== issuer) return undefined; // never present one server's token for another
    if (read.tokenType === 'DPoP') {
      const dpop = await this.#dpopKey();
      if (dpop === undefined || read.dpopJkt !== dpop.jkt) {
        safeLog(this.#logger, 'warn', `[mcpc/oauth] a stored DPoP token for ${this.#serverKey} is bound to a key this provider does not hold; it was deleted`);
        await this.#store.delete(key);
        return undefined;
      }
    }
    return read;
  }

  async #storeTokens(issuer: string, resource: string, clientId: string, issued: IssuedTokens, requestedScope: string | undefined, previous?: StoredTokens): Promise<StoredTokens> {
    const record: StoredTokens = {
      issuer,
      resource,
      clientId,
      accessToken: issued.accessToken,
      tokenType: issued.tokenType,
      ...((issued.refreshToken ?? previous?.refreshToken) === undefined ? {} : { refreshToken: (issued.refreshToken ?? previous?.refreshToken) as string }),
      ...(issued.expiresIn === undefined ? {} : { expiresAt: Date.now() + issued.expiresIn * 1000 }),
      ...((issued.scope ?? previous?.scope ?? requestedScope) === undefined ? {} : { scope: (issued.scope ?? previous?.scope ?? requestedScope) as string }),
      ...((previous?.requestedScope ?? requestedScope) === undefined ? {} : { requestedScope: (previous?.requestedScope ?? requestedScope) as string }),
      ...(issued.tokenType === 'DPoP' && this.#dpop !== undefined ? { dpopJkt: this.#dpop.jkt } : {}),
      obtainedAt: Date.now(),
    };
    await this.#store.set(storageKey.tokens(this.#serverKey, issuer), toStored(record));
    return record;
  }

  #result(tokens: StoredTokens): AuthorizationResult {
    return {
      issuer: tokens.issuer,
      tokenType: tokens.tokenType,
      scope: tokens.scope,
      expiresAt: tokens.expiresAt === undefined ? undefined : new Date(tokens.expiresAt),
      refreshable: tokens.refreshToken !== undefined,
    };
  }

  /**
   * `legacy`: the MCP server's origin as its own (2025-03-26) authorization server, whose default
   * endpoints stand in for metadata it does not publish. Default: what the binding says.
   */
  async #metadataFor(issuer: string, signal?: AbortSignal, legacy?: boolean): Promise<AuthorizationServerMetadata> {
    const cached = this.#metadata.get(issuer);
    if (cached !== undefined && Date.now() - cached.at < MAX_METADATA_AGE_MS) return cached.as;
    const binding = await this.#currentBinding();
    const fallback = (legacy ?? (binding?.legacy === true && binding.issuer === issuer)) && issuer === this.serverUrl.origin;
    const as = fallback
      ? ((await discoverAuthorizationServer(this.#settings, issuer, signal, { allowMissing: true })) ?? defaultEndpoints(issuer))
      : await discoverAuthorizationServer(this.#settings, issuer, signal);
    this.#metadata.set(issuer, { as, at: Date.now() });
    return as;
  }

  /**
   * Without a challenge to go by, ask the server for one: a request without credentials that it
   * answers 401 names its `resource_metadata`. Only the headers are read.
   */
  async #probe(signal?: AbortSignal): Promise<string | undefined> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.#settings.timeoutMs);
    const abort = () => controller.abort();
    signal?.addEventListener('abort', abort, { once: true });
    try {
      const response = await this.#settings.fetch(this.serverUrl.href, {
        method: 'GET',
        headers: { accept: 'application/json, text/event-stream' },
        redirect: 'manual',
        signal: controller.signal,
      });
      const header = response.headers.get('www-authenticate') ?? undefined;
      await response.body?.cancel().catch(() => {});
      if (response.status !== 401) return undefined;
      return pickChallenge(parseWwwAuthenticate(header), ['bearer', 'dpop'])?.params.resource_metadata;
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      controller.abort();
    }
  }

  /** `probe`: without a `resource_metadata`, ask the server for a challenge first (not when one was just answered). */
  async #discover(resourceMetadata: string | undefined, signal?: AbortSignal, probe = true): Promise<Discovered> {
    const rm = resourceMetadata ?? (probe ? await this.#probe(signal) : undefined);
    const found = await discoverProtectedResource(this.#settings, this.serverUrl, rm, signal, { allowMissing: true });
    // No RFC 9728 metadata anywhere (and no challenge naming any): a 2025-03-26 server, its own authorization server.
    const legacy = found === undefined;
    const prm = found ?? legacyResource(this.serverUrl, this.#serverKey);
    if (rm !== undefined) this.#lastResourceMetadata = rm;
    const previous = await this.#currentBinding();
    const issuer = this.#chooseIssuer(prm.authorizationServers, previous);
    const as = await this.#metadataFor(issuer, signal, legacy);
    if (previous?.issuer !== issuer || previous.resource !== prm.resource || (previous.legacy === true) !== legacy) {
      if (previous !== undefined && previous.issuer !== issuer) {
        safeLog(this.#logger, 'info', `[mcpc/oauth] ${this.#serverKey} now uses the authorization server ${escapeForLog(issuer)} (was ${escapeForLog(previous.issuer)})`);
      }
      // The previous server's token stays under its own key, for when that server is in use again.
      await this.#setBinding(legacy ? { issuer, resource: prm.resource, legacy: true } : { issuer, resource: prm.resource });
    }
    return { prm, issuer, as };
  }

  /** RFC 9728 §7.6 leaves the choice to the client: the one in use if still listed, else one we hold credentials for, else the first. */
  #chooseIssuer(servers: readonly string[], previous: ResourceBinding | undefined): string {
    if (previous !== undefined && servers.includes(previous.issuer)) return previous.issuer;
    const known = servers.find((s) => this.#clients.some((c) => c.issuer === s));
    return known ?? (servers[0] as string);
  }

  /** A 401: new credentials in place (`'retry'`), or `'fail'` when getting them again could only loop. */
  async #recover(resourceMetadata: string | undefined, challengeScope: string | undefined, presented: string | undefined): Promise<'retry' | 'fail'> {
    const previous = await this.#currentBinding();
    const d = await this.#discover(resourceMetadata, undefined, false);
    const trying = (tokens: StoredTokens): 'retry' => {
      this.#unproven = tokens.accessToken;
      return 'retry';
    };
    if (previous !== undefined && previous.issuer !== d.issuer) {
      // The server named another authorization server: the token it refused is retired wherever it is kept.
      await this.#retire(previous.issuer, presented);
      const aside = await this.#loadTokens(d.issuer);
      if (aside !== undefined && aside.accessToken !== presented && !this.#expired(aside)) return trying(aside);
    } else {
      const current = await this.#loadTokens(d.issuer);
      // Someone already replaced the refused token: the retry presents the new one.
      if (current !== undefined && presented !== undefined && current.accessToken !== presented && !this.#expired(current)) return 'retry';
      if (presented !== undefined && presented === this.#unproven) {
        // Refused as soon as it was got, by the server that issued it: another refresh or authorization
        // would be refused the same way — a loop, with a user in it when it is interactive.
        safeLog(this.#logger, 'warn', `[mcpc/oauth] ${this.#serverKey} refused the token ${escapeForLog(d.issuer)} just issued; not getting another (authorize() starts over)`);
        return 'fail';
      }
      if (current?.refreshToken !== undefined) {
        const refreshed = await this.#refreshQuietly(current);
        if (refreshed !== undefined) return trying(refreshed);
      } else if (current !== undefined) {
        await this.#retire(d.issuer, presented ?? current.accessToken);
      }
    }
    return trying(await this.#obtain(d, scopeList(challengeScope), undefined));
  }

  /** Delete a refused token from its slot — only if the slot still holds that token. */
  async #retire(issuer: string, accessToken: string | undefined): Promise<void> {
    const key = storageKey.tokens(this.#serverKey, issuer);
    const read = readTokens(await this.#store.get(key));
    if (read === undefined) return;
    if (accessToken === undefined || 'badType' in read || read.accessToken === accessToken) await this.#store.delete(key);
    if (this.#presented === accessToken) this.#presented = undefined;
  }

  async #insufficientScope(scope: string | undefined, description: string | undefined, resourceMetadata: string | undefined, presented: string | undefined): Promise<'retry' | 'fail'> {
    const binding = await this.#currentBinding();
    if (binding !== undefined && scope !== undefined) {
      // Recorded per authorization server, in storage: the next authorization — here, or after a restart — asks for it too.
      await this.#recordScopes(binding.issuer, scopeList(scope));
    }
    if (this.#options.stepUp === 'reauthorize' && this.#options.interaction !== undefined && this.#grantType === 'authorization_code') {
      const held = binding === undefined ? undefined : await this.#loadTokens(binding.issuer);
      const challenged = scopeList(scope);
      // What the token was asked with, granted or not: asking again for scope a server already granted
      // (and still refuses) or already declined gets the same answer.
      const covered = held !== undefined && challenged.every((s) => scopeList(held.scope).includes(s) || scopeList(held.requestedScope).includes(s));
      if (covered && held.accessToken !== presented) return 'retry'; // another request already got a token with that scope
      if (!covered) {
        const d = await this.#discover(resourceMetadata ?? this.#lastResourceMetadata, undefined);
        await this.#obtain(d, challenged, undefined);
        return 'retry';
      }
      // The refused token was already asked with every scope the challenge names (or it names none):
      // authorizing again would ask for the same and get the same answer — a loop, with a user in it.
      safeLog(this.#logger, 'info', `[mcpc/oauth] ${this.#serverKey} asks for scope this token was already asked with; not authorizing again`);
    }
    throw new InsufficientScopeError(scope, description, resourceMetadata);
  }

  async #recordScopes(issuer: string, scopes: readonly string[]): Promise<void> {
    const key = storageKey.scopes(this.#serverKey, issuer);
    const requested = scopeUnion(readScopes(await this.#store.get(key)), scopes);
    await this.#store.set(key, { requested });
  }

  /**
   * The scope for a new authorization at one server: the configured scope (else the challenge's, else
   * the resource's `scopes_supported`), the challenge's, and everything asked of or granted by this
   * server before — never another server's.
   */
  async #scopeFor(d: Discovered, extra: readonly string[]): Promise<string[]> {
    const configured = scopeList(this.#options.scope);
    const base = configured.length > 0 || extra.length > 0 ? configured : scopeList(d.prm.scopesSupported);
    const previous = readScopes(await this.#store.get(storageKey.scopes(this.#serverKey, d.issuer)));
    const held = readTokens(await this.#store.get(storageKey.tokens(this.#serverKey, d.issuer)));
    const granted = held !== undefined && !('badType' in held) && held.issuer === d.issuer ? held.scope : undefined;
    return scopeUnion(base, extra, previous, granted);
  }

  async #obtain(d: Discovered, extra: readonly string[], signal?: AbortSignal): Promise<StoredTokens> {
    if (this.#grantType !== 'authorization_code') return this.#machineGrant(d, extra, signal);
    const interaction = this.#options.interaction;
    if (interaction === undefined) {
      throw new AuthorizationRequiredError(
        this.#serverKey,
        'no usable stored token and no interaction to ask a user with (configure BrowserOAuth, or authorize interactively first so a refresh token is stored)',
      );
    }
    const redirectUri = requireRedirectUri(this.#redirectUri);
    const prepared = await interaction.prepare({ redirectUri, signal });
    try {
      const started = await this.#start(d, prepared.redirectUri, extra, signal);
      const callback = await prepared.complete(started.authorizationUrl, { state: started.state, signal });
      return await this.#complete(callback, signal);
    } finally {
      await prepared.close().catch(() => {});
    }
  }

  /** The grants without a user: client credentials, or a JWT bearer assertion — with this server's pre-registered credentials only. */
  async #machineGrant(d: Discovered, extra: readonly string[], signal?: AbortSignal): Promise<StoredTokens> {
    const client = await this.#clientIds.preRegistered(d.issuer);
    if (client === undefined) throw this.#clientIds.noCredentials(d.issuer);
    const scope = scopeString(await this.#scopeFor(d, extra));
    const ctx = await this.#tokenContext(d.as, client, d.prm.resource, signal);
    const issued = this.#grantType === 'jwt-bearer' ? await jwtBearer(ctx, await this.#assertion(d, scope, signal), scope) : await clientCredentials(ctx, scope);
    await this.#assertStillBound(d.issuer);
    if (scope !== undefined) await this.#recordScopes(d.issuer, scopeList(scope));
    return this.#storeTokens(d.issuer, d.prm.resource, client.clientId, issued, scope);
  }

  /** The JWT for a jwt-bearer grant at this server, from the configured source. */
  async #assertion(d: Discovered, scope: string | undefined, signal?: AbortSignal): Promise<string> {
    const source = this.#options.assertion;
    const assertion =
      typeof source === 'function'
        ? await source({ serverUrl: this.serverUrl, issuer: d.issuer, tokenEndpoint: endpoint(this.#settings, d.as, 'token_endpoint').href, resource: d.prm.resource, scope, signal })
        : source;
    if (typeof assertion !== 'string' || assertion === '') throw new OAuthConfigError('the jwt-bearer assertion source returned no JWT');
    return assertion;
  }

  async #tokenContext(as: AuthorizationServerMetadata, client: ClientSecrets, resource: string, signal?: AbortSignal): Promise<TokenEndpointContext> {
    return {
      settings: this.#settings,
      as,
      client,
      method: chooseAuthMethod(as, client),
      resource,
      dpop: await this.#dpopKey(),
      signal,
    };
  }

  async #start(d: Discovered, redirectUri: string | undefined, extra: readonly string[], signal?: AbortSignal): Promise<StartedAuthorization> {
    assertPkceS256(d.as);
    const target = redirectUri ?? requireRedirectUri(this.#redirectUri);
    checkRedirectUri(target);
    const authorizationEndpoint = endpoint(this.#settings, d.as, 'authorization_endpoint');
    const client = await this.#clientIds.forAuthorizationCode(d.issuer, d.as, true, signal);
    const scopes = await this.#scopeFor(d, extra);
    // MCP 2026-07-28: a client that wants refresh tokens MAY ask for offline_access where the server lists it.
    const requested = Array.isArray(d.as.scopes_supported) && d.as.scopes_supported.includes('offline_access') ? scopeUnion(scopes, ['offline_access']) : scopes;
    const scope = scopeString(requested);
    const state = oauth.generateRandomState();
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const record: PendingAuthorization = {
      state,
      codeVerifier,
      issuer: d.as.issuer,
      clientId: client.clientId,
      redirectUri: target,
      serverUrl: this.#serverKey,
      resource: d.prm.resource,
      ...(scope === undefined ? {} : { scope }),
      createdAt: Date.now(),
    };
    const key = storageKey.pending(state);
    try {
      await this.#store.set(key, toStored(record));
    } catch (cause) {
      throw new OAuthStorageError(`the authorization request could not be recorded: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    }
    const back = readPending(await this.#store.get(key));
    if (back?.codeVerifier !== codeVerifier || back.issuer !== record.issuer) throw new OAuthStorageError('the authorization request record did not reach storage, so its callback could not be checked');
    if (scopes.length > 0) await this.#recordScopes(d.issuer, scopes);
    const authorizationUrl = buildAuthorizationUrl(authorizationEndpoint, {
      clientId: client.clientId,
      redirectUri: target,
      scope,
      state,
      codeChallenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
      resource: d.prm.resource,
    });
    return { authorizationUrl, state, redirectUri: target, issuer: d.as.issuer };
  }

  async #complete(callback: string | URL | URLSearchParams, signal?: AbortSignal): Promise<StoredTokens> {
    const params = callbackParameters(callback);
    const state = params.get('state');
    if (state === null || state === '') throw new AuthorizationResponseError('missing-state', 'the authorization response carries no state');
    const key = storageKey.pending(state);
    const record = readPending(await this.#store.get(key));
    if (record === undefined || record.state !== state || record.serverUrl !== this.#serverKey) {
      throw new AuthorizationResponseError('unknown-state', 'the authorization response names no authorization request of this client (state mismatch)');
    }
    // The record is spent whatever happens next: a code is redeemed once, and a replay finds nothing.
    await this.#store.delete(key);
    if (record.createdAt + (this.#options.pendingTtlMs ?? 600_000) < Date.now()) throw new AuthorizationResponseError('expired', 'the authorization request expired before its response arrived');
    const as = await this.#metadataFor(record.issuer, signal);
    checkResponseIssuer(params, record.issuer, as);
    const validated = validateCallback(params, as, record.clientId, record.state);
    const d: Discovered = { prm: { resource: record.resource, authorizationServers: [record.issuer], scopesSupported: undefined, url: '' }, issuer: record.issuer, as };
    const client = await this.#clientIds.forAuthorizationCode(d.issuer, d.as, false, signal);
    if (client.clientId !== record.clientId) throw new ClientRegistrationError('the client registration changed while the user was authorizing; authorize again');
    const ctx = await this.#tokenContext(as, client, record.resource, signal);
    const issued = await exchangeCode(ctx, validated, record.redirectUri, record.codeVerifier);
    await this.#assertStillBound(record.issuer);
    return this.#storeTokens(record.issuer, record.resource, client.clientId, issued, record.scope);
  }

  /** A token from a server that stopped being this resource's while the request was in flight is discarded. */
  async #assertStillBound(issuer: string): Promise<void> {
    const now = await this.#freshBinding();
    if (now?.issuer !== issuer) {
      safeLog(this.#logger, 'warn', `[mcpc/oauth] discarded a token from ${escapeForLog(issuer)}: ${this.#serverKey} now uses ${now === undefined ? 'no known server' : escapeForLog(now.issuer)}`);
      throw new AuthorizationServerChangedError(issuer, now?.issuer);
    }
  }

  /** Refresh, once at a time per server; `undefined` (and the token deleted) when the server refuses. */
  #refreshQuietly(tokens: StoredTokens): Promise<StoredTokens | undefined> {
    const running = this.#refreshing.get(tokens.issuer);
    if (running !== undefined) return running;
    const run = this.#refresh(tokens).finally(() => this.#refreshing.delete(tokens.issuer));
    this.#refreshing.set(tokens.issuer, run);
    return run;
  }

  async #refresh(tokens: StoredTokens): Promise<StoredTokens | undefined> {
    const refreshToken = tokens.refreshToken;
    if (refreshToken === undefined) return undefined;
    const as = await this.#metadataFor(tokens.issuer);
    const d: Discovered = { prm: { resource: tokens.resource, authorizationServers: [tokens.issuer], scopesSupported: undefined, url: '' }, issuer: tokens.issuer, as };
    let client: ClientSecrets;
    try {
      // The same record authorization uses, read afresh: a secret the host rotated in the slot is the one sent.
      client = this.#grantType !== 'authorization_code' ? ((await this.#clientIds.preRegistered(tokens.issuer)) ?? { clientId: '' }) : await this.#clientIds.forAuthorizationCode(d.issuer, d.as, false);
    } catch {
      client = { clientId: '' };
    }
    if (client.clientId !== tokens.clientId) {
      await this.#retire(tokens.issuer, tokens.accessToken);
      return undefined;
    }
    let issued: IssuedTokens;
    try {
      issued = await refreshTokens(await this.#tokenContext(as, client, tokens.resource), refreshToken);
    } catch (error) {
      if (error instanceof TokenRequestError && error.error !== undefined) {
        safeLog(this.#logger, 'info', `[mcpc/oauth] the refresh at ${escapeForLog(tokens.issuer)} was refused (${escapeForLog(error.error)}); the token was deleted`);
        await this.#retire(tokens.issuer, tokens.accessToken);
        return undefined;
      }
      throw error;
    }
    const now = await this.#freshBinding();
    if (now?.issuer !== tokens.issuer) {
      safeLog(this.#logger, 'warn', `[mcpc/oauth] discarded a refreshed token from ${escapeForLog(tokens.issuer)}: ${this.#serverKey} now uses ${now === undefined ? 'no known server' : escapeForLog(now.issuer)}`);
      return undefined;
    }
    return this.#storeTokens(tokens.issuer, tokens.resource, tokens.clientId, issued, tokens.scope, tokens);
  }
}
