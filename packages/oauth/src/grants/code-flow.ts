// The authorization code flow with PKCE: the request and its stored record, the callback, the code exchange.
import * as oauth from 'oauth4webapi';
import type { ProviderContext } from '../context.js';
import { recorded, type Discovered, type ServerBinding } from '../discovery/binding.js';
import { endpoint, type AuthorizationServerMetadata } from '../discovery/server-metadata.js';
import { checkRedirectUri } from '../discovery/url-policy.js';
import {
  AuthorizationRequiredError,
  AuthorizationResponseError,
  ClientRegistrationError,
  OAuthStorageError,
} from '../errors.js';
import type { StartedAuthorization } from '../provider-options.js';
import type { ScopeMemory } from '../scope-memory.js';
import { scopeString, scopeUnion } from '../scopes.js';
import { readPending, storageKey, toStored, type PendingAuthorization, type StoredTokens } from '../storage/storage.js';
import type { TokenLifecycle } from '../tokens.js';
import { buildAuthorizationUrl, pkceFor, type PkcePair } from './authorization-request.js';
import { callbackParameters, checkResponseIssuer, validateCallback } from './authorization-response.js';
import { requireRedirectUri } from './client-resolution.js';
import { exchangeCode, tokenEndpointContext } from './token-request.js';

/** What an authorization request needs once the client id and the PKCE pair are had. */
export interface AuthorizationRequestInput {
  readonly redirectUri: string;
  readonly clientId: string;
  readonly pkce: PkcePair;
  /** Scopes to ask for besides the configured ones (a challenge's). */
  readonly extra: readonly string[];
}

/** A callback that passed every check, its code not yet redeemed. */
export interface CheckedCallback {
  /** The request's own record (it holds the PKCE verifier: a secret). */
  readonly record: PendingAuthorization;
  /** The response parameters as validated (the code among them: a secret). */
  readonly params: URLSearchParams;
  readonly as: AuthorizationServerMetadata;
}

export class AuthorizationCodeFlow {
  readonly #ctx: ProviderContext;
  readonly #binding: ServerBinding;
  readonly #tokens: TokenLifecycle;
  readonly #scopes: ScopeMemory;

  constructor(ctx: ProviderContext, binding: ServerBinding, tokens: TokenLifecycle, scopes: ScopeMemory) {
    this.#ctx = ctx;
    this.#binding = binding;
    this.#tokens = tokens;
    this.#scopes = scopes;
  }

  /** The whole flow through the configured interaction; none configured: `AuthorizationRequiredError` at once. */
  async obtain(d: Discovered, extra: readonly string[], signal?: AbortSignal): Promise<StoredTokens> {
    const interaction = this.#ctx.options.interaction;
    if (interaction === undefined) {
      throw new AuthorizationRequiredError(
        this.#ctx.serverKey,
        'no usable stored token and no interaction to ask a user with (configure BrowserOAuth, or authorize interactively first so a refresh token is stored)',
      );
    }
    const redirectUri = requireRedirectUri(this.#ctx.redirectUri);
    const prepared = await interaction.prepare({ redirectUri, signal });
    try {
      const started = await this.start(d, prepared.redirectUri, extra, signal);
      const callback = await prepared.complete(started.authorizationUrl, { state: started.state, signal });
      return await this.complete(callback, signal);
    } finally {
      await prepared.close().catch(() => {});
    }
  }

  /** The authorization URL, its per-request record written to storage in one piece and read back. */
  async start(
    d: Discovered,
    redirectUri: string | undefined,
    extra: readonly string[],
    signal?: AbortSignal,
  ): Promise<StartedAuthorization> {
    const pkce = await pkceFor(d.as);
    const target = redirectUri ?? requireRedirectUri(this.#ctx.redirectUri);
    checkRedirectUri(target);
    endpoint(this.#ctx.settings, d.as, 'authorization_endpoint');
    const client = await this.#ctx.clientIds.forAuthorizationCode(d.issuer, d.as, true, signal);
    return this.request(d, { redirectUri: target, clientId: client.clientId, pkce, extra });
  }

  /**
   * The authorization request of a client id and a PKCE pair already had: the scope to ask for, the
   * request's record (state, verifier, expected issuer, client id, redirect URI) stored and read back, the URL.
   */
  async request(d: Discovered, request: AuthorizationRequestInput): Promise<StartedAuthorization> {
    const { store, serverKey, settings } = this.#ctx;
    const { redirectUri: target, clientId, pkce, extra } = request;
    checkRedirectUri(target);
    const authorizationEndpoint = endpoint(settings, d.as, 'authorization_endpoint');
    const scopes = await this.#scopes.scopeFor(d, extra);
    // MCP 2026-07-28: a client that wants refresh tokens MAY ask for offline_access where the server lists it.
    const requested =
      Array.isArray(d.as.scopes_supported) && d.as.scopes_supported.includes('offline_access')
        ? scopeUnion(scopes, ['offline_access'])
        : scopes;
    const scope = scopeString(requested);
    const state = oauth.generateRandomState();
    const codeVerifier = pkce.codeVerifier;
    const record: PendingAuthorization = {
      state,
      codeVerifier,
      issuer: d.as.issuer,
      clientId,
      redirectUri: target,
      serverUrl: serverKey,
      resource: d.prm.resource,
      ...(scope === undefined ? {} : { scope }),
      createdAt: Date.now(),
    };
    const key = storageKey.pending(state);
    try {
      await store.set(key, toStored(record));
    } catch (cause) {
      throw new OAuthStorageError(
        `the authorization request could not be recorded: ${cause instanceof Error ? cause.message : String(cause)}`,
        { cause },
      );
    }
    const back = readPending(await store.get(key));
    if (back?.codeVerifier !== codeVerifier || back.issuer !== record.issuer)
      throw new OAuthStorageError(
        'the authorization request record did not reach storage, so its callback could not be checked',
      );
    if (scopes.length > 0) await this.#scopes.record(d.issuer, scopes);
    const authorizationUrl = buildAuthorizationUrl(authorizationEndpoint, {
      clientId,
      redirectUri: target,
      scope,
      state,
      codeChallenge: pkce.codeChallenge,
      resource: d.prm.resource,
    });
    return { authorizationUrl, state, redirectUri: target, issuer: d.as.issuer };
  }

  /** The redirect back: checked (see {@link check}), then its code redeemed (see {@link redeem}). */
  async complete(callback: string | URL | URLSearchParams, signal?: AbortSignal): Promise<StoredTokens> {
    return this.redeem(await this.check(callback, signal), signal);
  }

  /**
   * The redirect back, before its code goes anywhere: no repeated parameter, its request found by `state`
   * (and that record spent), not expired, `iss` checked against the recorded issuer, then validated.
   */
  async check(callback: string | URL | URLSearchParams, signal?: AbortSignal): Promise<CheckedCallback> {
    const { store, serverKey, options } = this.#ctx;
    const params = callbackParameters(callback);
    const state = params.get('state');
    if (state === null || state === '')
      throw new AuthorizationResponseError('missing-state', 'the authorization response carries no state');
    const key = storageKey.pending(state);
    const record = readPending(await store.get(key));
    if (record === undefined || record.state !== state || record.serverUrl !== serverKey) {
      throw new AuthorizationResponseError(
        'unknown-state',
        'the authorization response names no authorization request of this client (state mismatch)',
      );
    }
    // The record is spent whatever happens next: a code is redeemed once, and a replay finds nothing.
    await store.delete(key);
    if (record.createdAt + (options.pendingTtlMs ?? 600_000) < Date.now())
      throw new AuthorizationResponseError('expired', 'the authorization request expired before its response arrived');
    const as = await this.#binding.metadataFor(record.issuer, signal);
    checkResponseIssuer(params, record.issuer, as);
    return { record, params: validateCallback(params, as, record.clientId, record.state), as };
  }

  /** Redeem a checked callback's code with its request's verifier, client and redirect URI; the tokens stored. */
  async redeem(checked: CheckedCallback, signal?: AbortSignal): Promise<StoredTokens> {
    const { record, params, as } = checked;
    const d = recorded(record.issuer, record.resource, as);
    const client = await this.#ctx.clientIds.forAuthorizationCode(d.issuer, d.as, false, signal);
    if (client.clientId !== record.clientId)
      throw new ClientRegistrationError(
        'the client registration changed while the user was authorizing; authorize again',
      );
    const ctx = await tokenEndpointContext(this.#ctx.settings, as, client, record.resource, this.#ctx.dpop, signal);
    const issued = await exchangeCode(ctx, params, record.redirectUri, record.codeVerifier);
    await this.#binding.assertStillBound(record.issuer);
    return this.#tokens.store(record.issuer, record.resource, client.clientId, issued, record.scope);
  }
}
