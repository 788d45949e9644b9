// HTTP 403 `insufficient_scope`: the scope remembered, and a new authorization — unless it could only loop.
import { safeLog } from '@mcpc/jsonrpc';
import type { ProviderContext } from './context.js';
import type { ServerBinding } from './discovery/binding.js';
import { InsufficientScopeError } from './errors.js';
import type { ScopeMemory } from './scope-memory.js';
import { scopeList } from './scopes.js';
import type { ObtainTokens, TokenLifecycle } from './tokens.js';

export class StepUp {
  readonly #ctx: ProviderContext;
  readonly #binding: ServerBinding;
  readonly #tokens: TokenLifecycle;
  readonly #scopes: ScopeMemory;
  readonly #obtain: ObtainTokens;

  constructor(
    ctx: ProviderContext,
    binding: ServerBinding,
    tokens: TokenLifecycle,
    scopes: ScopeMemory,
    obtain: ObtainTokens,
  ) {
    this.#ctx = ctx;
    this.#binding = binding;
    this.#tokens = tokens;
    this.#scopes = scopes;
    this.#obtain = obtain;
  }

  /** `'retry'` once a token with the scope is in place; else `InsufficientScopeError`. */
  async insufficientScope(
    scope: string | undefined,
    description: string | undefined,
    resourceMetadata: string | undefined,
    presented: string | undefined,
  ): Promise<'retry' | 'fail'> {
    const { options, grantType } = this.#ctx;
    const binding = await this.#binding.current();
    if (binding !== undefined && scope !== undefined) {
      // Recorded per authorization server, in storage: the next authorization — here, or after a restart — asks for it too.
      await this.#scopes.record(binding.issuer, scopeList(scope));
    }
    if (options.stepUp === 'reauthorize' && options.interaction !== undefined && grantType === 'authorization_code') {
      const held = binding === undefined ? undefined : await this.#tokens.load(binding.issuer);
      const challenged = scopeList(scope);
      // What the token was asked with, granted or not: asking again for scope a server already granted
      // (and still refuses) or already declined gets the same answer.
      const covered =
        held !== undefined &&
        challenged.every((s) => scopeList(held.scope).includes(s) || scopeList(held.requestedScope).includes(s));
      if (covered && held.accessToken !== presented) return 'retry'; // another request already got a token with that scope
      if (!covered) {
        const d = await this.#binding.discover(resourceMetadata ?? this.#binding.lastResourceMetadata, undefined);
        await this.#obtain(d, challenged, undefined);
        return 'retry';
      }
      // The refused token was already asked with every scope the challenge names (or it names none):
      // authorizing again would ask for the same and get the same answer — a loop, with a user in it.
      safeLog(
        this.#ctx.logger,
        'info',
        `[mcpc/oauth] ${this.#ctx.serverKey} asks for scope this token was already asked with; not authorizing again`,
      );
    }
    throw new InsufficientScopeError(scope, description, resourceMetadata);
  }
}
