// The grants without a user: client credentials, or a JWT bearer assertion — with pre-registered credentials only.
import type { ProviderContext } from '../context.js';
import type { Discovered, ServerBinding } from '../discovery/binding.js';
import { endpoint } from '../discovery/server-metadata.js';
import { OAuthConfigError } from '../errors.js';
import type { ScopeMemory } from '../scope-memory.js';
import { scopeList, scopeString } from '../scopes.js';
import type { StoredTokens } from '../storage/storage.js';
import type { TokenLifecycle } from '../tokens.js';
import { clientCredentials, jwtBearer, tokenEndpointContext } from './token-request.js';

export class MachineGrant {
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

  /** A token set from the configured grant at the discovered server, with this server's pre-registered credentials. */
  async obtain(d: Discovered, extra: readonly string[], signal?: AbortSignal): Promise<StoredTokens> {
    const client = await this.#ctx.clientIds.preRegistered(d.issuer);
    if (client === undefined) throw this.#ctx.clientIds.noCredentials(d.issuer);
    const scope = scopeString(await this.#scopes.scopeFor(d, extra));
    const ctx = await tokenEndpointContext(this.#ctx.settings, d.as, client, d.prm.resource, this.#ctx.dpop, signal);
    const issued =
      this.#ctx.grantType === 'jwt-bearer'
        ? await jwtBearer(ctx, await this.#assertion(d, scope, signal), scope)
        : await clientCredentials(ctx, scope);
    await this.#binding.assertStillBound(d.issuer);
    if (scope !== undefined) await this.#scopes.record(d.issuer, scopeList(scope));
    return this.#tokens.store(d.issuer, d.prm.resource, client.clientId, issued, scope);
  }

  /** The JWT for a jwt-bearer grant at this server, from the configured source. */
  async #assertion(d: Discovered, scope: string | undefined, signal?: AbortSignal): Promise<string> {
    const { options, serverUrl, settings } = this.#ctx;
    const source = options.assertion;
    const assertion =
      typeof source === 'function'
        ? await source({
            serverUrl,
            issuer: d.issuer,
            tokenEndpoint: endpoint(settings, d.as, 'token_endpoint').href,
            resource: d.prm.resource,
            scope,
            signal,
          })
        : source;
    if (typeof assertion !== 'string' || assertion === '')
      throw new OAuthConfigError('the jwt-bearer assertion source returned no JWT');
    return assertion;
  }
}
