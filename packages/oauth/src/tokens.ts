// The token lifecycle: what a request presents, stored token sets, refresh (once per server), retiring refused ones.
import { escapeForLog, safeLog } from '@mcpc/jsonrpc';
import type { ProviderContext } from './context.js';
import { recorded, type Discovered, type ServerBinding } from './discovery/binding.js';
import type { DPoPKey } from './dpop/dpop.js';
import { TokenRequestError, UnsupportedTokenTypeError } from './errors.js';
import type { ClientSecrets } from './grants/client-auth.js';
import { refreshTokens, tokenEndpointContext, type IssuedTokens } from './grants/token-request.js';
import type { AuthContextLike, AuthorizationResult } from './provider-options.js';
import { readTokens, storageKey, toStored, type StoredTokens } from './storage/storage.js';

/** A new token set from the discovered server, by the configured grant (the facade picks it). */
export type ObtainTokens = (d: Discovered, extra: readonly string[], signal?: AbortSignal) => Promise<StoredTokens>;

/** What an authorization produced, without the secrets. */
export function authorizationResult(tokens: StoredTokens): AuthorizationResult {
  return {
    issuer: tokens.issuer,
    tokenType: tokens.tokenType,
    scope: tokens.scope,
    expiresAt: tokens.expiresAt === undefined ? undefined : new Date(tokens.expiresAt),
    refreshable: tokens.refreshToken !== undefined,
  };
}

/**
 * The headers that present a token on one request to the MCP server: `Authorization: Bearer`, or for a
 * DPoP token `Authorization: DPoP` and a proof for this method and URL, bound to the token (`ath`).
 * None for a DPoP token without the key it is bound to.
 */
export async function presentToken(
  tokens: Pick<StoredTokens, 'accessToken' | 'tokenType'>,
  key: DPoPKey | undefined,
  method: string,
  url: URL,
): Promise<Record<string, string>> {
  if (tokens.tokenType !== 'DPoP') return { authorization: `Bearer ${tokens.accessToken}` };
  if (key === undefined) return {};
  return { authorization: `DPoP ${tokens.accessToken}`, dpop: await key.proof(method, url, tokens.accessToken) };
}

export class TokenLifecycle {
  readonly #ctx: ProviderContext;
  readonly #binding: ServerBinding;
  readonly #refreshing = new Map<string, Promise<StoredTokens | undefined>>();
  /** The access token the last request carried: a challenge refuses that one. */
  presented: string | undefined;

  constructor(ctx: ProviderContext, binding: ServerBinding) {
    this.#ctx = ctx;
    this.#binding = binding;
  }

  /** Headers for one request to the MCP server: `Authorization` and, for a DPoP token, its proof. */
  async headers(context: AuthContextLike): Promise<Record<string, string>> {
    // The token is this server's: never sent to another origin, whatever the transport asks.
    if (context.url.origin !== this.#ctx.serverUrl.origin) return {};
    let tokens = await this.current();
    if (tokens === undefined) return {};
    if (this.expired(tokens)) {
      tokens = tokens.refreshToken === undefined ? undefined : await this.refresh(tokens);
      if (tokens === undefined) return {};
    }
    this.presented = tokens.accessToken;
    return presentToken(tokens, await this.#ctx.dpop?.key(), context.method, context.url);
  }

  /** The token set of the authorization server in use, if it may be presented. */
  async current(): Promise<StoredTokens | undefined> {
    const binding = await this.#binding.current();
    return binding === undefined ? undefined : this.load(binding.issuer);
  }

  /** Forget the tokens of the authorization server in use (registrations are kept). */
  async signOut(): Promise<void> {
    const binding = await this.#binding.current();
    if (binding !== undefined) await this.#ctx.store.delete(storageKey.tokens(this.#ctx.serverKey, binding.issuer));
    this.presented = undefined;
  }

  expired(tokens: StoredTokens): boolean {
    return (
      tokens.expiresAt !== undefined && tokens.expiresAt - (this.#ctx.options.refreshMarginMs ?? 30_000) <= Date.now()
    );
  }

  /** The token set for one authorization server, if it may be presented; a token of a type not understood is refused and deleted. */
  async load(issuer: string): Promise<StoredTokens | undefined> {
    const { store, serverKey, logger } = this.#ctx;
    const key = storageKey.tokens(serverKey, issuer);
    const read = readTokens(await store.get(key));
    if (read === undefined) return undefined;
    if ('badType' in read) {
      safeLog(
        logger,
        'warn',
        `[mcpc/oauth] ${new UnsupportedTokenTypeError(read.badType, 'stored').message}; it was deleted`,
      );
      await store.delete(key);
      return undefined;
    }
    if (read.issuer !== issuer) return undefined; // never present one server's token for another
    if (read.tokenType === 'DPoP') {
      const dpop = await this.#ctx.dpop?.key();
      if (dpop === undefined || read.dpopJkt !== dpop.jkt) {
        safeLog(
          logger,
          'warn',
          `[mcpc/oauth] a stored DPoP token for ${serverKey} is bound to a key this provider does not hold; it was deleted`,
        );
        await store.delete(key);
        return undefined;
      }
    }
    return read;
  }

  async store(
    issuer: string,
    resource: string,
    clientId: string,
    issued: IssuedTokens,
    requestedScope: string | undefined,
    previous?: StoredTokens,
  ): Promise<StoredTokens> {
    const dpop = this.#ctx.dpop?.current;
    const record: StoredTokens = {
      issuer,
      resource,
      clientId,
      accessToken: issued.accessToken,
      tokenType: issued.tokenType,
      ...((issued.refreshToken ?? previous?.refreshToken) === undefined
        ? {}
        : { refreshToken: (issued.refreshToken ?? previous?.refreshToken) as string }),
      ...(issued.expiresIn === undefined ? {} : { expiresAt: Date.now() + issued.expiresIn * 1000 }),
      ...((issued.scope ?? previous?.scope ?? requestedScope) === undefined
        ? {}
        : { scope: (issued.scope ?? previous?.scope ?? requestedScope) as string }),
      ...((previous?.requestedScope ?? requestedScope) === undefined
        ? {}
        : { requestedScope: (previous?.requestedScope ?? requestedScope) as string }),
      ...(issued.tokenType === 'DPoP' && dpop !== undefined ? { dpopJkt: dpop.jkt } : {}),
      obtainedAt: Date.now(),
    };
    await this.#ctx.store.set(storageKey.tokens(this.#ctx.serverKey, issuer), toStored(record));
    return record;
  }

  /** Delete a refused token from its slot — only if the slot still holds that token. */
  async retire(issuer: string, accessToken: string | undefined): Promise<void> {
    const key = storageKey.tokens(this.#ctx.serverKey, issuer);
    const read = readTokens(await this.#ctx.store.get(key));
    if (read === undefined) return;
    if (accessToken === undefined || 'badType' in read || read.accessToken === accessToken)
      await this.#ctx.store.delete(key);
    if (this.presented === accessToken) this.presented = undefined;
  }

  /** Refresh, once at a time per server; `undefined` (and the token deleted) when the server refuses. */
  refresh(tokens: StoredTokens): Promise<StoredTokens | undefined> {
    const running = this.#refreshing.get(tokens.issuer);
    if (running !== undefined) return running;
    const run = this.#refresh(tokens).finally(() => this.#refreshing.delete(tokens.issuer));
    this.#refreshing.set(tokens.issuer, run);
    return run;
  }

  async #refresh(tokens: StoredTokens): Promise<StoredTokens | undefined> {
    const { clientIds, grantType, logger, serverKey } = this.#ctx;
    const refreshToken = tokens.refreshToken;
    if (refreshToken === undefined) return undefined;
    const as = await this.#binding.metadataFor(tokens.issuer);
    const d = recorded(tokens.issuer, tokens.resource, as);
    let client: ClientSecrets;
    try {
      // The same record authorization uses, read afresh: a secret the host rotated in the slot is the one sent.
      client =
        grantType !== 'authorization_code'
          ? ((await clientIds.preRegistered(tokens.issuer)) ?? { clientId: '' })
          : await clientIds.forAuthorizationCode(d.issuer, d.as, false);
    } catch {
      client = { clientId: '' };
    }
    if (client.clientId !== tokens.clientId) {
      await this.retire(tokens.issuer, tokens.accessToken);
      return undefined;
    }
    let issued: IssuedTokens;
    try {
      issued = await refreshTokens(
        await tokenEndpointContext(this.#ctx.settings, as, client, tokens.resource, this.#ctx.dpop),
        refreshToken,
      );
    } catch (error) {
      if (error instanceof TokenRequestError && error.error !== undefined) {
        safeLog(
          logger,
          'info',
          `[mcpc/oauth] the refresh at ${escapeForLog(tokens.issuer)} was refused (${escapeForLog(error.error)}); the token was deleted`,
        );
        await this.retire(tokens.issuer, tokens.accessToken);
        return undefined;
      }
      throw error;
    }
    const now = await this.#binding.fresh();
    if (now?.issuer !== tokens.issuer) {
      safeLog(
        logger,
        'warn',
        `[mcpc/oauth] discarded a refreshed token from ${escapeForLog(tokens.issuer)}: ${serverKey} now uses ${now === undefined ? 'no known server' : escapeForLog(now.issuer)}`,
      );
      return undefined;
    }
    return this.store(tokens.issuer, tokens.resource, tokens.clientId, issued, tokens.scope, tokens);
  }
}
