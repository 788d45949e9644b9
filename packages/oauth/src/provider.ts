// OAuthProvider: the facade a transport's `auth` option and a host call, over discovery, grants, tokens and step-up.
import { providerContext, type ProviderContext } from './context.js';
import { ServerBinding } from './discovery/binding.js';
import { AuthorizationRequiredError } from './errors.js';
import type { ClientSecrets } from './grants/client-auth.js';
import { AuthorizationCodeFlow } from './grants/code-flow.js';
import { MachineGrant } from './grants/machine-grant.js';
import type { AuthChallenge, AuthContext, AuthProvider, AuthResponse } from '@mcpc/jsonrpc';
import type { AuthorizationResult, OAuthProviderOptions, StartedAuthorization } from './provider-options.js';
import { ChallengeRecovery } from './recovery.js';
import { ScopeMemory } from './scope-memory.js';
import { scopeList } from './scopes.js';
import { StepUp } from './step-up.js';
import type { StoredTokens } from './storage/storage.js';
import { authorizationResult, TokenLifecycle, type ObtainTokens } from './tokens.js';

export type {
  OAuthProviderOptions,
  GrantType,
  AuthorizationResult,
  StartedAuthorization,
  ClientInfo,
} from './provider-options.js';

/**
 * OAuth 2.1 for one MCP server, as the HTTP transports' `auth`: it supplies `Authorization` (and a DPoP
 * proof) for every request, and answers 401/403 challenges by discovering the authorization server,
 * refreshing, or authorizing anew. It implements the kernel's auth hook (`AuthProvider` of
 * `@mcpc/jsonrpc`), which every HTTP transport takes; no transport package is imported.
 */
export class OAuthProvider implements AuthProvider {
  readonly serverUrl: URL;
  readonly #ctx: ProviderContext;
  readonly #binding: ServerBinding;
  readonly #tokens: TokenLifecycle;
  readonly #codeFlow: AuthorizationCodeFlow;
  readonly #recovery: ChallengeRecovery;
  /** The configured grant: with a user (through the interaction), or machine to machine. */
  readonly #obtain: ObtainTokens;

  constructor(options: OAuthProviderOptions) {
    const ctx = providerContext(options);
    this.serverUrl = ctx.serverUrl;
    this.#ctx = ctx;
    this.#binding = new ServerBinding(ctx);
    this.#tokens = new TokenLifecycle(ctx, this.#binding);
    const scopes = new ScopeMemory(ctx);
    this.#codeFlow = new AuthorizationCodeFlow(ctx, this.#binding, this.#tokens, scopes);
    const machine = new MachineGrant(ctx, this.#binding, this.#tokens, scopes);
    const codeFlow = this.#codeFlow;
    this.#obtain = (d, extra, signal) =>
      ctx.grantType === 'authorization_code' ? codeFlow.obtain(d, extra, signal) : machine.obtain(d, extra, signal);
    const stepUp = new StepUp(ctx, this.#binding, this.#tokens, scopes, this.#obtain);
    this.#recovery = new ChallengeRecovery(ctx, this.#binding, this.#tokens, stepUp, this.#obtain);
  }

  // ─── AuthProvider ──────────────────────────────────────────────────────────────────────────────

  /** Headers for one request to the MCP server: `Authorization` and, for a DPoP token, its proof. */
  headers(context: AuthContext): Promise<Record<string, string>> {
    return this.#tokens.headers(context);
  }

  /** A 401 or 403 from the MCP server. Resolves `'retry'` once new credentials are in place. */
  challenge(challenge: AuthChallenge): Promise<'retry' | 'fail'> {
    return this.#recovery.challenge(challenge);
  }

  /** Every response: a `DPoP-Nonce` the resource server sends is kept for the next proof; a success proves the token. */
  responded(response: AuthResponse): void {
    this.#recovery.responded(response);
  }

  // ─── What a host calls ─────────────────────────────────────────────────────────────────────────

  /**
   * Authorize now: discover the authorization server, then run the client credentials grant or the
   * authorization code flow through the interaction. Asks for the configured scope, `scope`, and
   * everything asked of this authorization server before (a step-up keeps what it had).
   */
  async authorize(
    options: { readonly scope?: string | readonly string[]; readonly signal?: AbortSignal } = {},
  ): Promise<AuthorizationResult> {
    const d = await this.#binding.discover(this.#binding.lastResourceMetadata, options.signal);
    return authorizationResult(await this.#obtain(d, scopeList(options.scope), options.signal));
  }

  /**
   * The first half of the authorization code flow, for hosts that send the user themselves: the
   * authorization URL, with its per-request record (state, PKCE verifier, expected issuer, client id,
   * redirect URI) written to storage in one piece and read back.
   */
  async startAuthorization(
    options: {
      readonly redirectUri?: string;
      readonly scope?: string | readonly string[];
      readonly signal?: AbortSignal;
    } = {},
  ): Promise<StartedAuthorization> {
    const d = await this.#binding.discover(this.#binding.lastResourceMetadata, options.signal);
    return this.#codeFlow.start(d, options.redirectUri, scopeList(options.scope), options.signal);
  }

  /**
   * The second half: the redirect back (a callback URL, or its query). Refuses repeated parameters,
   * finds the request by `state`, checks `iss` against the issuer recorded with it (RFC 9207) before
   * the code goes anywhere, then redeems the code with that request's verifier, client and redirect URI.
   * Only that request's record is removed.
   */
  async completeAuthorization(
    callback: string | URL | URLSearchParams,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<AuthorizationResult> {
    return authorizationResult(await this.#codeFlow.complete(callback, options.signal));
  }

  /** Discover which authorization server the MCP server uses now (RFC 9728, then RFC 8414). */
  async discover(
    options: { readonly resourceMetadataUrl?: string; readonly signal?: AbortSignal } = {},
  ): Promise<{ readonly issuer: string; readonly resource: string; readonly authorizationServers: readonly string[] }> {
    const d = await this.#binding.discover(
      options.resourceMetadataUrl ?? this.#binding.lastResourceMetadata,
      options.signal,
    );
    return { issuer: d.issuer, resource: d.prm.resource, authorizationServers: d.prm.authorizationServers };
  }

  /**
   * Refresh the token in use now, with its refresh token (rotated where the server rotates them). The
   * provider refreshes on its own when a token nears expiry or the server refuses it; this is for a host
   * that wants a fresh one now (before a long job). `AuthorizationRequiredError` when there is no refresh
   * token, or the server refused it (the token is then deleted).
   */
  async refresh(): Promise<AuthorizationResult> {
    const tokens = await this.#tokens.current();
    if (tokens?.refreshToken === undefined)
      throw new AuthorizationRequiredError(
        this.#ctx.serverKey,
        'there is no refresh token to refresh with; authorize first',
      );
    const refreshed = await this.#tokens.refresh(tokens);
    if (refreshed === undefined)
      throw new AuthorizationRequiredError(this.#ctx.serverKey, 'the refresh token was refused; authorize again');
    return authorizationResult(refreshed);
  }

  /** The tokens that would be presented now (a copy; they are secrets — handle with care). */
  tokens(): Promise<StoredTokens | undefined> {
    return this.#tokens.current();
  }

  /**
   * Store pre-registered credentials for one authorization server in this server's slot: the slot
   * authorization and refresh read, ahead of `clientInfo` (so a rotated secret written here is used).
   */
  async setClientInfo(
    issuer: string,
    info: Omit<ClientSecrets, 'privateKey' | 'privateKeyAlg' | 'keyId'>,
  ): Promise<void> {
    await this.#ctx.clientIds.storePreRegistered(issuer, info);
  }

  /** Forget the tokens of the authorization server in use (registrations are kept). */
  signOut(): Promise<void> {
    return this.#tokens.signOut();
  }
}
