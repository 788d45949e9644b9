// What was asked of each authorization server, in storage, and the scope a new authorization asks for.
import type { ProviderContext } from './context.js';
import type { Discovered } from './discovery/binding.js';
import { scopeList, scopeUnion } from './scopes.js';
import { readScopes, readTokens, storageKey } from './storage/storage.js';

export class ScopeMemory {
  readonly #ctx: ProviderContext;

  constructor(ctx: ProviderContext) {
    this.#ctx = ctx;
  }

  /** Add to what was asked of `issuer`: kept per authorization server, in storage, so a restart asks for it too. */
  async record(issuer: string, scopes: readonly string[]): Promise<void> {
    const key = storageKey.scopes(this.#ctx.serverKey, issuer);
    const requested = scopeUnion(readScopes(await this.#ctx.store.get(key)), scopes);
    await this.#ctx.store.set(key, { requested });
  }

  /**
   * The scope for a new authorization at one server: the configured scope (else the challenge's, else
   * the resource's `scopes_supported`), the challenge's, and everything asked of or granted by this
   * server before — never another server's.
   */
  async scopeFor(d: Discovered, extra: readonly string[]): Promise<string[]> {
    const { options, store, serverKey } = this.#ctx;
    const configured = scopeList(options.scope);
    const base = configured.length > 0 || extra.length > 0 ? configured : scopeList(d.prm.scopesSupported);
    const previous = readScopes(await store.get(storageKey.scopes(serverKey, d.issuer)));
    const held = readTokens(await store.get(storageKey.tokens(serverKey, d.issuer)));
    const granted = held !== undefined && !('badType' in held) && held.issuer === d.issuer ? held.scope : undefined;
    return scopeUnion(base, extra, previous, granted);
  }
}
