// The stateless era (MCP 2026-07-28): discovery, the revision in use, and requests with their retries.
//
// Reading its results and putting requests on the wire live beside it.
import {
  ErrorCode,
  JsonRpcErrorCode,
  ServerError,
  escapeForLog,
  safeLog,
  type JsonRpcEngine,
  type JsonRpcParams,
  type Logger,
  type RequestOptions,
} from '@mcpc/jsonrpc';
import {
  HeaderMismatchError,
  MissingRequiredClientCapabilityError,
  NotModernError,
  UnsupportedProtocolVersionError,
} from '../errors.js';
import type { ClientCapabilities, LoggingLevel } from '../types/protocol.js';
import { hasCapability } from './capabilities.js';
import type { EraCallOptions, EraRequestOptions, HostBridge, ProtocolEra, SessionFacts } from './era.js';
import { hostMeta, protocolMeta, withMeta, type RequestMetaOption } from './meta.js';
import {
  DEFAULT_MAX_INPUT_REQUESTS,
  DEFAULT_MAX_REQUEST_STATE_BYTES,
  MRTR_METHODS,
  firstRoundTimeout,
  roundTrips,
  type RoundContext,
  type InputTracing,
  type InputLimits,
  type InputRequiredWaitHook,
} from './mrtr.js';
import {
  LEGACY_PROTOCOL_VERSIONS,
  LATEST_MODERN_VERSION,
  MODERN_PROTOCOL_VERSIONS,
  PROTOCOL_VERSIONS,
} from './versions.js';
import {
  checkResult,
  isBrokenStream,
  readDiscoverResult,
  sharedModern,
  stringList,
  type DiscoverFacts,
} from './stateless-results.js';
import { wireOptions } from './stateless-wire.js';
import { TASKS_EXTENSION } from '../tasks/wire.js';

export { readDiscoverResult, type DiscoverFacts } from './stateless-results.js';

export interface StatelessEraOptions {
  readonly server: string;
  readonly logger: Logger;
  /** Which binding the connection runs on: the HTTP one mirrors protocol fields into headers. */
  readonly transport: 'stdio' | 'http' | 'other';
  /** Bound on the `server/discover` probe. */
  readonly discoverTimeout: number | undefined;
  /** The engine's default request timeout (the budget of a multi round-trip request). */
  readonly requestTimeout: number;
  readonly requestMeta: RequestMetaOption | undefined;
  readonly onInputRequiredWait: InputRequiredWaitHook | undefined;
  /** Bounds on what one input_required round may ask (defaults: `DEFAULT_MAX_INPUT_REQUESTS`, `DEFAULT_MAX_REQUEST_STATE_BYTES`). */
  readonly inputLimits?: Partial<InputLimits> | undefined;
  readonly extensions?: Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined;
  /** The connection's MRTR tracing hooks, when it is traced. */
  readonly inputTracing?: InputTracing | undefined;
}

/**
 * The stateless era (MCP 2026-07-28): no handshake and no session. The server is found by its answer
 * to `server/discover`; every request then carries the revision, the client's identity and its
 * capabilities in `_meta` (and, over HTTP, the `MCP-Protocol-Version` / `Mcp-Method` / `Mcp-Name`
 * headers), and what the server needs from the client comes back inside results (`input_required`).
 */
export class StatelessEra implements ProtocolEra {
  readonly kind = 'stateless' as const;
  readonly #engine: JsonRpcEngine;
  readonly #host: HostBridge;
  readonly #options: StatelessEraOptions;
  #version: string = LATEST_MODERN_VERSION;
  #logLevel: LoggingLevel | undefined;
  #protocolMeta: Record<string, unknown>;
  #facts: DiscoverFacts | undefined;
  #refreshing: Promise<DiscoverFacts> | undefined;
  readonly #supported = new Map<string, boolean>();
  /** The capabilities every request declares: the host's, plus the declared extensions. */
  readonly #capabilities: ClientCapabilities;
  readonly #limits: InputLimits;
  /** Whether every request declares the tasks extension (the host opted in with `extensions`). */
  readonly #tasksDeclared: boolean;
  /** The `_meta` of a request that declares the tasks extension on its own (built on first use). */
  #taskMeta: Record<string, unknown> | undefined;

  constructor(engine: JsonRpcEngine, host: HostBridge, options: StatelessEraOptions) {
    this.#engine = engine;
    this.#host = host;
    this.#options = options;
    this.#limits = {
      maxInputRequests: options.inputLimits?.maxInputRequests ?? DEFAULT_MAX_INPUT_REQUESTS,
      maxRequestStateBytes: options.inputLimits?.maxRequestStateBytes ?? DEFAULT_MAX_REQUEST_STATE_BYTES,
    };
    const extensions = options.extensions;
    this.#capabilities =
      extensions === undefined || Object.keys(extensions).length === 0
        ? host.capabilities
        : Object.freeze({ ...host.capabilities, extensions });
    this.#tasksDeclared = extensions !== undefined && Object.hasOwn(extensions, TASKS_EXTENSION);
    this.#protocolMeta = protocolMeta(this.#version, host.clientInfo, this.#capabilities, undefined);
  }

  get facts(): DiscoverFacts | undefined {
    return this.#facts;
  }

  /** Whether the discovery result's `ttlMs` has run out (it is then re-fetched before it is relied on). */
  get stale(): boolean {
    const f = this.#facts;
    return f === undefined || Date.now() >= f.receivedAt + f.ttlMs;
  }

  async open(): Promise<SessionFacts> {
    return this.#discover(this.#options.discoverTimeout, true);
  }

  supports(capability: string): boolean {
    let answer = this.#supported.get(capability);
    if (answer === undefined) {
      answer = hasCapability(this.#facts?.capabilities ?? {}, capability);
      this.#supported.set(capability, answer);
    }
    return answer;
  }

  /** Re-fetches the discovery result when it is stale; concurrent callers share one request. */
  async refresh(options: EraRequestOptions = {}): Promise<SessionFacts> {
    if (!this.stale && this.#facts !== undefined) return this.#facts;
    this.#refreshing ??= this.#discover(options.timeout, false).finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  request(method: string, params: JsonRpcParams | undefined, options: EraCallOptions): Promise<unknown> {
    if (!MRTR_METHODS.has(method)) return this.#send(method, params, options, undefined);
    const base = (params ?? {}) as Record<string, unknown>;
    // A resume, or params that carry a round's answers, take the whole machinery from the start.
    if (options.resume !== undefined || Object.hasOwn(base, 'inputResponses') || Object.hasOwn(base, 'requestState'))
      return roundTrips(this.#rounds(method, options), method as 'tools/call', base, options, options.resume);
    // Round 0 as `roundTrips` sends it (the whole budget, or no timeout of its own), in one promise: most
    // requests take one round, and skip `roundTrips`' async frame, context and clock reads. Only an
    // `input_required` answer goes on through the round-trip machinery, from that answer.
    const started = Date.now();
    const budget = options.timeout ?? this.#options.requestTimeout;
    return this.#send(method, base as JsonRpcParams, options, firstRoundTimeout(budget), (result) => {
      if (result.resultType !== 'input_required') {
        options.onRounds?.(0);
        return result;
      }
      return roundTrips(this.#rounds(method, options), method as 'tools/call', base, options, undefined, {
        result,
        started,
      });
    });
  }

  /** What `roundTrips` needs of this connection for one request. */
  #rounds(method: string, options: EraCallOptions): RoundContext {
    return {
      server: this.#options.server,
      logger: this.#options.logger,
      host: this.#host,
      requestTimeout: this.#options.requestTimeout,
      onWait: this.#options.onInputRequiredWait,
      limits: this.#limits,
      send: (p, timeout) => this.#send(method, p, options, timeout),
      tracing: this.#options.inputTracing,
    };
  }

  async ping(options: EraRequestOptions): Promise<void> {
    // No ping in this era: server/discover answers the same question, and refreshes what it told us.
    this.#refreshing ??= this.#discover(options.timeout, false).finally(() => {
      this.#refreshing = undefined;
    });
    await this.#refreshing;
  }

  async setLogLevel(level: LoggingLevel): Promise<void> {
    // No logging/setLevel: the level rides on every request's _meta from now on.
    this.#logLevel = level;
    this.#protocolMeta = protocolMeta(this.#version, this.#host.clientInfo, this.#capabilities, level);
    this.#taskMeta = undefined;
  }

  async rootsChanged(): Promise<void> {
    // Nothing to send: the server asks for roots inside the results that need them.
  }

  /** The `_meta` a request would go out with now (protocol keys and host metadata), for cache binding. */
  effectiveMeta(): Record<string, unknown> {
    return { ...hostMeta(this.#options.requestMeta), ...this.#protocolMeta };
  }

  // ── the wire ──────────────────────────────────────────────────────────────────────────────────────

  /**
   * One request under the current revision. A response stream that broke before the answer is
   * re-issued once under a new id (the break was the cancellation, so the server stopped the first);
   * -32022 naming another revision we speak switches to it and retries once.
   */
  #send(
    method: string,
    params: JsonRpcParams | undefined,
    options: EraCallOptions,
    timeout: number | undefined,
  ): Promise<Record<string, unknown>>;
  #send<R>(
    method: string,
    params: JsonRpcParams | undefined,
    options: EraCallOptions,
    timeout: number | undefined,
    after: (result: Record<string, unknown>) => R | Promise<R>,
  ): Promise<R>;
  /**
   * The first attempt is a plain `then` on the engine's promise, and `after` (what the caller does with
   * the checked result) runs in that same reaction: one promise per request rather than an async frame
   * here and another in the caller. The re-issue is the rare path (`#resend`).
   */
  #send<R>(
    method: string,
    params: JsonRpcParams | undefined,
    options: EraCallOptions,
    timeout: number | undefined,
    after?: (result: Record<string, unknown>) => R | Promise<R>,
  ): Promise<R | Record<string, unknown>> {
    const declares = this.#tasksDeclared || options.declareTasks === true;
    let sent: Promise<unknown>;
    try {
      sent = this.#attempt(method, params, options, timeout, declares);
    } catch (error) {
      sent = Promise.reject(error);
    }
    const server = this.#options.server;
    return sent.then(
      (raw) => {
        const result = checkResult(raw, method, server, declares);
        return after === undefined ? result : after(result);
      },
      (error: unknown) => {
        const again = this.#resend(error, method, params, options, timeout);
        return after === undefined ? again : again.then(after);
      },
    );
  }

  /** One attempt of `#send`, on the wire. */
  #attempt(
    method: string,
    params: JsonRpcParams | undefined,
    options: EraCallOptions,
    timeout: number | undefined,
    declares: boolean,
  ): Promise<unknown> {
    const meta = declares && !this.#tasksDeclared ? this.#withTasks() : this.#protocolMeta;
    return this.#engine.request(
      method,
      withMeta(params, hostMeta(this.#options.requestMeta), meta),
      this.#wireOptions(method, params, options, timeout),
    );
  }

  /** The first attempt of `#send` failed: re-issued once when that may help, else the error, typed. */
  async #resend(
    error: unknown,
    method: string,
    params: JsonRpcParams | undefined,
    options: EraCallOptions,
    timeout: number | undefined,
  ): Promise<Record<string, unknown>> {
    let next: string | undefined;
    if (isBrokenStream(error) && !options.signal?.aborted) {
      safeLog(
        this.#options.logger,
        'debug',
        `[mcpc] server "${escapeForLog(this.#options.server, 100)}": the response stream of ${method} broke; re-issuing it under a new id`,
      );
    } else if (
      error instanceof ServerError &&
      error.rpcCode === ErrorCode.UnsupportedProtocolVersion &&
      (next = sharedModern(error.data)) !== undefined
    ) {
      this.#useVersion(next);
    } else {
      throw this.#typed(error);
    }
    try {
      const declares = this.#tasksDeclared || options.declareTasks === true;
      const raw = await this.#attempt(method, params, options, timeout, declares);
      return checkResult(raw, method, this.#options.server, declares);
    } catch (e) {
      throw this.#typed(e);
    }
  }

  #wireOptions(
    method: string,
    params: JsonRpcParams | undefined,
    options: EraCallOptions,
    timeout: number | undefined,
  ): RequestOptions {
    return wireOptions(this.#options.transport === 'http', this.#version, method, params, options, timeout);
  }

  /** The modern JSON-RPC errors as their typed classes; -32022 with nothing shared ends the connection. */
  #typed(error: unknown): unknown {
    if (!(error instanceof ServerError) || error.code !== JsonRpcErrorCode.ServerError) return error;
    switch (error.rpcCode) {
      case ErrorCode.HeaderMismatch:
        return new HeaderMismatchError(error);
      case ErrorCode.MissingRequiredClientCapability:
        return new MissingRequiredClientCapabilityError(error);
      case ErrorCode.UnsupportedProtocolVersion: {
        const e = new UnsupportedProtocolVersionError(
          this.#options.server,
          undefined,
          this.#version,
          PROTOCOL_VERSIONS,
          stringList(error.data, 'supported'),
        );
        return Object.assign(e, { cause: error });
      }
      default:
        return error;
    }
  }

  /** The protocol `_meta` with the tasks extension added to the declared capabilities. */
  #withTasks(): Record<string, unknown> {
    this.#taskMeta ??= protocolMeta(
      this.#version,
      this.#host.clientInfo,
      Object.freeze({
        ...this.#capabilities,
        extensions: { ...this.#capabilities.extensions, [TASKS_EXTENSION]: {} },
      }),
      this.#logLevel,
    );
    return this.#taskMeta;
  }

  #useVersion(version: string): void {
    this.#version = version;
    this.#protocolMeta = protocolMeta(version, this.#host.clientInfo, this.#capabilities, this.#logLevel);
    this.#taskMeta = undefined;
  }

  /** `server/discover`: the probe when opening (`probe`), a refresh of a stale result otherwise. */
  async #discover(timeout: number | undefined, probe: boolean): Promise<DiscoverFacts> {
    const { server, logger } = this.#options;
    let raw: Record<string, unknown>;
    for (let attempt = 0; ; attempt++) {
      try {
        const options: EraCallOptions = timeout === undefined ? {} : { timeout };
        const params = withMeta(undefined, hostMeta(this.#options.requestMeta), this.#protocolMeta);
        const wire = this.#wireOptions('server/discover', undefined, options, undefined);
        // The probe may go to a classic server, which must not be told to cancel what it never knew.
        raw = checkResult(
          await this.#engine.request('server/discover', params, probe ? { ...wire, cancelNotification: false } : wire),
          'server/discover',
          server,
        );
        break;
      } catch (error) {
        if (
          !(error instanceof ServerError) ||
          error.rpcCode !== ErrorCode.UnsupportedProtocolVersion ||
          error.code !== JsonRpcErrorCode.ServerError
        )
          throw error;
        // A modern server that does not speak our revision: use one it lists, or give up cleanly.
        const theirs = stringList(error.data, 'supported');
        const next = sharedModern(error.data);
        if (next !== undefined && attempt === 0) {
          this.#useVersion(next);
          continue;
        }
        if (theirs?.some((v) => (LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(v)))
          throw new NotModernError('it speaks only classic revisions', error);
        throw Object.assign(
          new UnsupportedProtocolVersionError(server, undefined, this.#version, PROTOCOL_VERSIONS, theirs),
          { cause: error },
        );
      }
    }
    const facts = readDiscoverResult(raw, server, logger);
    if (!facts.supportedVersions.includes(this.#version)) {
      const shared = MODERN_PROTOCOL_VERSIONS.find((v) => facts.supportedVersions.includes(v));
      if (shared === undefined) {
        if (facts.supportedVersions.some((v) => (LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(v)))
          throw new NotModernError('its server/discover lists only classic revisions');
        throw new UnsupportedProtocolVersionError(
          server,
          undefined,
          this.#version,
          PROTOCOL_VERSIONS,
          facts.supportedVersions,
        );
      }
      this.#useVersion(shared);
    }
    const withVersion: DiscoverFacts = { ...facts, protocolVersion: this.#version };
    this.#facts = withVersion;
    this.#supported.clear();
    return withVersion;
  }
}
