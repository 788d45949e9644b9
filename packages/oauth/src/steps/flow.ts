// OAuthSteps: the provider's own discovery, registration, PKCE, code flow, refresh and DPoP, one step at a time.
import { providerContext, type ProviderContext } from '../context.js';
import { ServerBinding, type Discovered, type FoundResource } from '../discovery/binding.js';
import { probeChallenge, type ProbedChallenge } from '../discovery/probe.js';
import { parseWwwAuthenticate, pickChallenge, type Challenge } from '../discovery/www-authenticate.js';
import { asksForNonce, type DPoPAlgorithm, type DPoPOptions } from '../dpop/dpop.js';
import { ProviderDPoPKey } from '../dpop/provider-key.js';
import { AuthorizationRequiredError, OAuthConfigError, OAuthStepError } from '../errors.js';
import { pkceFor, type PkcePair } from '../grants/authorization-request.js';
import { callbackParameters } from '../grants/authorization-response.js';
import type { ResolvedClient } from '../grants/client-resolution.js';
import { AuthorizationCodeFlow, type CheckedCallback } from '../grants/code-flow.js';
import { send } from '../http.js';
import type { OAuthProviderOptions, StartedAuthorization } from '../provider-options.js';
import { ScopeMemory } from '../scope-memory.js';
import { scopeList } from '../scopes.js';
import type { StoredTokens } from '../storage/storage.js';
import { presentToken, TokenLifecycle } from '../tokens.js';
import { ExchangeRecorder, type Exchange } from './recorder.js';
import { redactSecret } from './redaction.js';

/** The provider's options a step-by-step authorization code flow uses, and how much of a body a record keeps. */
export interface OAuthStepsOptions extends Pick<
  OAuthProviderOptions,
  | 'serverUrl'
  | 'redirectUri'
  | 'scope'
  | 'storage'
  | 'clientIdMetadataUrl'
  | 'clientInfo'
  | 'dpop'
  | 'clientName'
  | 'clientUri'
  | 'fetch'
  | 'requestTimeoutMs'
  | 'pendingTtlMs'
  | 'logger'
> {
  /** Bytes of a response body an exchange record keeps (16 384); the library still reads the whole body. */
  readonly maxRecordedBody?: number;
}

/** What one step produced, with every HTTP exchange it made and every line the library logged meanwhile. */
export interface StepResult<T> {
  readonly value: T;
  readonly exchanges: readonly Exchange[];
  readonly log: readonly string[];
}

/** The authorization request a user is sent with: its URL, state, redirect URI, expected issuer, and scope. */
export interface AuthorizationRequest extends StartedAuthorization {
  /** The `scope` parameter sent, if any. */
  readonly scope: string | undefined;
}

/** A callback that passed every check, ready for {@link OAuthSteps.exchangeCode}. */
export interface CheckedAuthorizationResponse extends CheckedCallback {
  /** The response's parameters as a record shows them (the code redacted). */
  readonly parameters: Readonly<Record<string, string>>;
}

/** The MCP server's answer to a request that carried the token. */
export interface ResourceResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
  /** Its `WWW-Authenticate` challenges, and the Bearer (else DPoP) one among them. */
  readonly challenges: readonly Challenge[];
  readonly challenge: Challenge | undefined;
}

type Context = { -readonly [K in keyof ProviderContext]: ProviderContext[K] };

/**
 * The authorization code flow of `OAuthProvider`, one step at a time, for tools that show it (a debugger,
 * a conformance report). Each step runs the provider's own code — the same discovery order and issuer
 * checks, client resolution, PKCE, request record, callback checks and token requests — and returns what
 * it produced with every HTTP exchange it made (secrets redacted). A failed step throws `OAuthStepError`,
 * whose `cause` is the library's error and whose `exchanges` are what was sent up to the failure. Steps of
 * one instance run one at a time; state (registration, the request record, tokens) is kept in `storage`.
 */
export class OAuthSteps {
  readonly serverUrl: URL;
  readonly #ctx: Context;
  readonly #recorder: ExchangeRecorder;
  readonly #binding: ServerBinding;
  readonly #tokens: TokenLifecycle;
  readonly #codeFlow: AuthorizationCodeFlow;
  #running = false;
  #tokenRequested = false;

  constructor(options: OAuthStepsOptions) {
    const inner = options.fetch ?? ((input, init) => fetch(input, init));
    this.#recorder = new ExchangeRecorder(inner, options.maxRecordedBody ?? 16 * 1024);
    const ctx: Context = {
      ...providerContext({ ...options, fetch: this.#recorder.fetch, logger: this.#recorder.logger(options.logger) }),
    };
    this.#ctx = ctx;
    this.serverUrl = ctx.serverUrl;
    this.#binding = new ServerBinding(ctx);
    this.#tokens = new TokenLifecycle(ctx, this.#binding);
    this.#codeFlow = new AuthorizationCodeFlow(ctx, this.#binding, this.#tokens, new ScopeMemory(ctx));
  }

  async #step<T>(name: string, run: () => Promise<T>): Promise<StepResult<T>> {
    if (this.#running) throw new OAuthStepError(name, new OAuthConfigError('another step is running: one at a time'));
    this.#running = true;
    const mark = this.#recorder.mark();
    try {
      const value = await run();
      return { value, ...this.#recorder.since(mark) };
    } catch (error) {
      const { exchanges, log } = this.#recorder.since(mark);
      throw new OAuthStepError(name, error, exchanges, log);
    } finally {
      this.#running = false;
    }
  }

  /** A request without credentials: the server's 401 and its challenge, whose `resource_metadata` discovery starts from. */
  challenge(options: { readonly signal?: AbortSignal } = {}): Promise<StepResult<ProbedChallenge>> {
    return this.#step('challenge', () => probeChallenge(this.#ctx.settings, this.serverUrl, options.signal));
  }

  /**
   * RFC 9728 protected resource metadata: from `resourceMetadataUrl` (a challenge's) when given — no
   * fallback then — else the path-aware and root well-known URLs. None anywhere: a 2025-03-26 server
   * (`legacy`), whose origin is its own authorization server.
   */
  resourceMetadata(
    options: { readonly resourceMetadataUrl?: string | undefined; readonly signal?: AbortSignal } = {},
  ): Promise<StepResult<FoundResource>> {
    return this.#step('resource-metadata', () =>
      this.#binding.findResource(options.resourceMetadataUrl, options.signal),
    );
  }

  /**
   * RFC 8414 / OpenID metadata of the authorization server the resource names (the one in use if still
   * listed, else one with credentials, else the first), in the spec's order, its `issuer` identical to the
   * one asked for; recorded as the resource's binding.
   */
  authorizationServer(options: {
    readonly resource: FoundResource;
    readonly signal?: AbortSignal;
  }): Promise<StepResult<Discovered>> {
    return this.#step('authorization-server-metadata', () => this.#binding.bind(options.resource, options.signal));
  }

  /** Turn DPoP on before the first token request (a generated ES256 key, or `options.keyPair`); the key's thumbprint. */
  async useDPoP(options: DPoPOptions = {}): Promise<{ readonly jkt: string; readonly alg: DPoPAlgorithm }> {
    if (this.#tokenRequested) throw new OAuthConfigError('DPoP must be chosen before the first token request');
    const key = new ProviderDPoPKey(options);
    this.#ctx.dpop = key;
    const made = await key.key();
    return { jkt: made.jkt, alg: made.alg };
  }

  /** The DPoP key's thumbprint and algorithm, when DPoP is on. */
  async dpopKey(): Promise<{ readonly jkt: string; readonly alg: DPoPAlgorithm } | undefined> {
    const key = await this.#ctx.dpop?.key();
    return key === undefined ? undefined : { jkt: key.jkt, alg: key.alg };
  }

  /**
   * Pre-registered credentials for one authorization server, written where the provider's
   * `setClientInfo` writes them: {@link registerClient} then uses them (priority 1).
   */
  setClientInfo(
    issuer: string,
    info: { readonly clientId: string; readonly clientSecret?: string; readonly tokenEndpointAuthMethod?: string },
  ): Promise<void> {
    return this.#ctx.clientIds.storePreRegistered(issuer, info);
  }

  /**
   * A client id, in MCP's priority order: pre-registered credentials for this issuer, a Client ID Metadata
   * Document where supported, a registration already stored, or Dynamic Client Registration (stored).
   */
  registerClient(options: {
    readonly discovered: Discovered;
    readonly signal?: AbortSignal;
  }): Promise<StepResult<ResolvedClient>> {
    const { discovered: d, signal } = options;
    return this.#step('registration', () => this.#ctx.clientIds.resolve(d.issuer, d.as, true, signal));
  }

  /** A PKCE pair (S256) — refused (`PkceNotSupportedError`) unless the server advertises S256. */
  pkce(options: { readonly discovered: Discovered }): Promise<StepResult<PkcePair>> {
    return this.#step('pkce', () => pkceFor(options.discovered.as));
  }

  /**
   * The authorization URL: the scope the provider would ask for (configured, else `scope` — a challenge's
   * — else `scopes_supported`, with what was asked before), `resource`, the PKCE challenge, a fresh state;
   * the request's record (state, verifier, expected issuer) stored before the URL is handed out.
   */
  authorizationUrl(options: {
    readonly discovered: Discovered;
    readonly clientId: string;
    readonly pkce: PkcePair;
    readonly scope?: string | readonly string[] | undefined;
    readonly redirectUri?: string;
  }): Promise<StepResult<AuthorizationRequest>> {
    return this.#step('authorization', async () => {
      const redirectUri = options.redirectUri ?? this.#ctx.redirectUri;
      if (redirectUri === undefined) throw new OAuthConfigError('the authorization code flow needs a redirectUri');
      const started = await this.#codeFlow.request(options.discovered, {
        redirectUri,
        clientId: options.clientId,
        pkce: options.pkce,
        extra: scopeList(options.scope),
      });
      return { ...started, scope: started.authorizationUrl.searchParams.get('scope') ?? undefined };
    });
  }

  /**
   * The redirect back, checked before the code goes anywhere: no repeated parameter, its request found by
   * `state` (and spent), `iss` identical to the recorded issuer (RFC 9207), an `error` raised as
   * `AuthorizationDeniedError`, the rest validated.
   */
  callback(options: {
    readonly callback: string | URL | URLSearchParams;
    readonly signal?: AbortSignal;
  }): Promise<StepResult<CheckedAuthorizationResponse>> {
    return this.#step('callback', async () => {
      const checked = await this.#codeFlow.check(options.callback, options.signal);
      const parameters: Record<string, string> = {};
      for (const [k, v] of callbackParameters(options.callback)) parameters[k] = k === 'code' ? redactSecret(v) : v;
      return { ...checked, parameters };
    });
  }

  /** The token request: the code with its request's verifier, redirect URI and `resource` (a DPoP proof when on). */
  exchangeCode(options: {
    readonly checked: CheckedCallback;
    readonly signal?: AbortSignal;
  }): Promise<StepResult<StoredTokens>> {
    this.#tokenRequested = true;
    return this.#step('token', () => this.#codeFlow.redeem(options.checked, options.signal));
  }

  /** The refresh_token grant, with `resource`; a refused refresh token is deleted (`AuthorizationRequiredError`). */
  refresh(options: { readonly tokens: StoredTokens }): Promise<StepResult<StoredTokens>> {
    this.#tokenRequested = true;
    return this.#step('refresh', async () => {
      if (options.tokens.refreshToken === undefined)
        throw new AuthorizationRequiredError(this.#ctx.serverKey, 'there is no refresh token to refresh with');
      const refreshed = await this.#tokens.refresh(options.tokens);
      if (refreshed === undefined)
        throw new AuthorizationRequiredError(this.#ctx.serverKey, 'the refresh token was refused; authorize again');
      return refreshed;
    });
  }

  /** A DPoP proof for one request to the MCP server, bound to `accessToken` (`ath`) and the server's latest nonce. */
  dpopProof(options: {
    readonly method: string;
    readonly url?: string | URL;
    readonly accessToken: string;
  }): Promise<StepResult<string>> {
    return this.#step('dpop-proof', async () => {
      const key = await this.#ctx.dpop?.key();
      if (key === undefined) throw new OAuthConfigError('DPoP is off');
      return key.proof(options.method, new URL(options.url ?? this.serverUrl), options.accessToken);
    });
  }

  /**
   * One request to the MCP server with the token, presented as the provider presents it (`Bearer`, or
   * `DPoP` and a proof); a `use_dpop_nonce` 401 is answered with one retry, as the provider does.
   */
  resourceRequest(options: {
    readonly tokens: Pick<StoredTokens, 'accessToken' | 'tokenType'>;
    readonly method?: string;
    readonly headers?: Readonly<Record<string, string>>;
    readonly body?: string;
    readonly signal?: AbortSignal;
  }): Promise<StepResult<ResourceResponse>> {
    const method = options.method ?? 'POST';
    return this.#step('resource-request', async () => {
      const key = await this.#ctx.dpop?.key();
      for (let attempt = 0; ; attempt++) {
        const auth = await presentToken(options.tokens, key, method, this.serverUrl);
        const response = await send(this.#ctx.settings, this.serverUrl.href, {
          purpose: 'MCP request',
          method,
          headers: { ...options.headers, ...auth },
          body: options.body,
          signal: options.signal,
        });
        const nonce = response.headers.get('dpop-nonce');
        if (key !== undefined && nonce !== null) key.noteNonce(this.serverUrl, nonce);
        const challenges = parseWwwAuthenticate(response.headers.get('www-authenticate') ?? undefined);
        if (attempt === 0 && key !== undefined && response.status === 401 && asksForNonce(challenges)) continue;
        return {
          status: response.status,
          headers: response.headers,
          body: await response.text(),
          challenges,
          challenge: pickChallenge(challenges, ['bearer', 'dpop']),
        };
      }
    });
  }
}
