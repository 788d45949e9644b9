// The MCP server's 401 and 403: DPoP nonces, one recovery at a time, no loop on a token refused at once.
import { escapeForLog, safeLog } from '@mcpc/jsonrpc';
import type { ProviderContext } from './context.js';
import type { ServerBinding } from './discovery/binding.js';
import { asksForNonce } from './dpop/dpop.js';
import { headerValues, parseWwwAuthenticate, pickChallenge } from './discovery/www-authenticate.js';
import type { ChallengeLike, ResponseLike } from './provider-options.js';
import { scopeList } from './scopes.js';
import type { StoredTokens } from './storage/storage.js';
import type { StepUp } from './step-up.js';
import type { ObtainTokens, TokenLifecycle } from './tokens.js';

export class ChallengeRecovery {
  readonly #ctx: ProviderContext;
  readonly #binding: ServerBinding;
  readonly #tokens: TokenLifecycle;
  readonly #stepUp: StepUp;
  readonly #obtain: ObtainTokens;
  #recovering: Promise<'retry' | 'fail'> | undefined;
  /** A token got by answering a 401, until a response shows it works: refused, it is not replaced again. */
  #unproven: string | undefined;

  constructor(
    ctx: ProviderContext,
    binding: ServerBinding,
    tokens: TokenLifecycle,
    stepUp: StepUp,
    obtain: ObtainTokens,
  ) {
    this.#ctx = ctx;
    this.#binding = binding;
    this.#tokens = tokens;
    this.#stepUp = stepUp;
    this.#obtain = obtain;
  }

  /** A 401 or 403 from the MCP server. Resolves `'retry'` once new credentials are in place. */
  async challenge(challenge: ChallengeLike): Promise<'retry' | 'fail'> {
    const values = headerValues(challenge.headers, 'www-authenticate');
    const challenges = parseWwwAuthenticate(values.length > 0 ? values : challenge.wwwAuthenticate);
    const c = pickChallenge(challenges, ['bearer', 'dpop']);
    const resourceMetadata = c?.params.resource_metadata;
    if (challenge.status === 403) {
      if (c?.params.error !== 'insufficient_scope') return 'fail';
      return this.#stepUp.insufficientScope(
        c.params.scope,
        c.params.error_description,
        resourceMetadata,
        this.#tokens.presented,
      );
    }
    if (challenge.status !== 401) return 'fail';
    const dpop = this.#ctx.dpop?.current;
    if (dpop !== undefined && asksForNonce(challenges)) {
      const nonce = headerValues(challenge.headers, 'dpop-nonce')[0];
      if (nonce !== undefined) dpop.noteNonce(challenge.url, nonce);
      return 'retry';
    }
    if (this.#recovering !== undefined) {
      // Another request is already getting new credentials: use what it gets.
      await this.#recovering.catch(() => {});
      return 'retry';
    }
    const run = this.#recover(resourceMetadata, c?.params.scope, this.#tokens.presented);
    this.#recovering = run;
    try {
      return await run;
    } finally {
      if (this.#recovering === run) this.#recovering = undefined;
    }
  }

  /** Every response: a `DPoP-Nonce` the resource server sends is kept for the next proof; a success proves the token. */
  responded(response: ResponseLike): void {
    if (response.status < 400) this.#unproven = undefined;
    const dpop = this.#ctx.dpop?.current;
    if (dpop === undefined) return;
    const nonce = headerValues(response.headers, 'dpop-nonce')[0];
    if (nonce !== undefined) dpop.noteNonce(response.url, nonce);
  }

  /** A 401: new credentials in place (`'retry'`), or `'fail'` when getting them again could only loop. */
  async #recover(
    resourceMetadata: string | undefined,
    challengeScope: string | undefined,
    presented: string | undefined,
  ): Promise<'retry' | 'fail'> {
    const tokens = this.#tokens;
    const previous = await this.#binding.current();
    const d = await this.#binding.discover(resourceMetadata, undefined, false);
    const trying = (got: StoredTokens): 'retry' => {
      this.#unproven = got.accessToken;
      return 'retry';
    };
    if (previous !== undefined && previous.issuer !== d.issuer) {
      // The server named another authorization server: the token it refused is retired wherever it is kept.
      await tokens.retire(previous.issuer, presented);
      const aside = await tokens.load(d.issuer);
      if (aside !== undefined && aside.accessToken !== presented && !tokens.expired(aside)) return trying(aside);
    } else {
      const current = await tokens.load(d.issuer);
      // Someone already replaced the refused token: the retry presents the new one.
      if (
        current !== undefined &&
        presented !== undefined &&
        current.accessToken !== presented &&
        !tokens.expired(current)
      )
        return 'retry';
      if (presented !== undefined && presented === this.#unproven) {
        // Refused as soon as it was got, by the server that issued it: another refresh or authorization
        // would be refused the same way — a loop, with a user in it when it is interactive.
        safeLog(
          this.#ctx.logger,
          'warn',
          `[mcpc/oauth] ${this.#ctx.serverKey} refused the token ${escapeForLog(d.issuer)} just issued; not getting another (authorize() starts over)`,
        );
        return 'fail';
      }
      if (current?.refreshToken !== undefined) {
        const refreshed = await tokens.refresh(current);
        if (refreshed !== undefined) return trying(refreshed);
      } else if (current !== undefined) {
        await tokens.retire(d.issuer, presented ?? current.accessToken);
      }
    }
    return trying(await this.#obtain(d, scopeList(challengeScope), undefined));
  }
}
