// The authorization code flow with PKCE: the request and its stored record, the callback, the code exchange.
import * as oauth from 'oauth4webapi';
import type { ProviderContext } from '../context.js';
import { recorded, type Discovered, type ServerBinding } from '../discovery/binding.js';
import { assertPkceS256, endpoint } from '../discovery/server-metadata.js';
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
import { buildAuthorizationUrl } from './authorization-request.js';
import { callbackParameters, checkResponseIssuer, validateCallback } from './authorization-response.js';
import { requireRedirectUri } from './client-resolution.js';
import { exchangeCode, tokenEndpointContext } from './token-request.js';

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
    const { store, serverKey, settings } = this.#ctx;
    assertPkceS256(d.as);
    const target = redirectUri ?? requireRedirectUri(this.#ctx.redirectUri);
    checkRedirectUri(target);
    const authorizationEndpoint = endpoint(settings, d.as, 'authorization_endpoint');
    const client = await this.#ctx.clientIds.forAuthorizationCode(d.issuer, d.as, true, signal);
    const scopes = await this.#scopes.scopeFor(d, extra);
    // MCP 2026-07-28: a client that wants refresh tokens MAY ask for offline_access where the server lists it.
    const requested =
      Array.isArray(d.as.scopes_supported) && d.as.scopes_supported.includes('offline_access')
        ? scopeUnion(scopes, ['offline_access'])
        : scopes;
    const scope = scopeString(requested);
    const state = oauth.generateRandomState();
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const record: PendingAuthorization = {
      state,
      codeVerifier,
      issuer: d.as.issuer,
      clientId: client.clientId,
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
      clientId: client.clientId,
      redirectUri: target,
      scope,
      state,
      codeChallenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
      resource: d.prm.resource,
    });
    return { authorizationUrl, state, redirectUri: target, issuer: d.as.issuer };
  }

  /** The redirect back: its request found by `state`, `iss` checked, the code redeemed with that request's verifier. */
  async complete(callback: string | URL | URLSearchParams, signal?: AbortSignal): Promise<StoredTokens> {
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
    const validated = validateCallback(params, as, record.clientId, record.state);
    const d = recorded(record.issuer, record.resource, as);
    const client = await this.#ctx.clientIds.forAuthorizationCode(d.issuer, d.as, false, signal);
    if (client.clientId !== record.clientId)
      throw new ClientRegistrationError(
        'the client registration changed while the user was authorizing; authorize again',
      );
    const ctx = await tokenEndpointContext(this.#ctx.settings, as, client, record.resource, this.#ctx.dpop, signal);
    const issued = await exchangeCode(ctx, validated, record.redirectUri, record.codeVerifier);
    await this.#binding.assertStillBound(record.issuer);
    return this.#tokens.store(record.issuer, record.resource, client.clientId, issued, record.scope);
  }
}
