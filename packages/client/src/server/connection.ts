import {
  JsonRpcEngine,
  McpError,
  escapeForLog,
  safeLog,
  type JsonRpcParams,
  type Logger,
  type Transport,
} from '@mcpc/jsonrpc';
import type { CacheBinding } from '../cache/list-cache.js';
import { ClientErrorCode } from '../codes.js';
import { noteDeprecatedUse, type DeprecatedFeature } from '../deprecations.js';
import { CapabilityError, ClientClosedError, ConnectionError, CrashLoopError, NotModernError } from '../errors.js';
import type { ServerConfig } from '../server-configs.js';
import type { ServerCapabilities, Implementation, LoggingLevel } from '../types/protocol.js';
import { requiredCapability, withoutServerRequests } from './capabilities.js';
import { ClassicEra } from './classic.js';
import { isClassicEvidence } from './detect.js';
import type { EraCallOptions, EraRequestOptions, HostBridge, ProtocolEra, SessionFacts } from './era.js';
import { DEFAULT_HANDSHAKE_TIMEOUT, describeHandshakeFailure } from './handshake.js';
import type { RequestMetaOption } from './meta.js';
import type { InputLimits, InputRequiredWaitHook } from './mrtr.js';
import { StatelessEra } from './stateless.js';

/** What every connection shares with its client. */
export interface ConnectionContext {
  readonly logger: Logger;
  readonly requestTimeout: number | undefined;
  readonly handshakeTimeout: number | undefined;
  readonly deprecationNotices: boolean;
  /** Host metadata merged into every request's `_meta`. */
  readonly requestMeta: RequestMetaOption | undefined;
  readonly onInputRequiredWait: InputRequiredWaitHook | undefined;
  /** Bounds on what one input_required round may ask (`maxInputRequests`, `maxRequestStateBytes`). */
  readonly inputLimits?: Partial<InputLimits> | undefined;
  /** Extensions declared to stateless servers (`clientCapabilities.extensions`). */
  readonly extensions: Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined;
  /** The host side, built when the connection opens, so capabilities reflect what is registered then. */
  readonly host: (server: string) => HostBridge;
  /** Called synchronously for each server notification the engine does not consume itself. */
  readonly onNotification: (connection: Connection, method: string, params: JsonRpcParams | undefined) => void;
  readonly onClose: (connection: Connection, cause: Error | undefined) => void;
}

export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'disconnected' | 'closed';

/**
 * One server's connection: its lifecycle, the era it speaks, and capability gating. Requests go
 * through {@link request}, which connects on first use and refuses (with `CapabilityError`, nothing
 * sent) any method whose capability the server did not negotiate.
 */
export class Connection {
  readonly name: string;
  readonly config: ServerConfig;
  readonly #context: ConnectionContext;
  #state: ConnectionState = 'idle';
  #opening: Promise<ProtocolEra> | undefined;
  #engine: JsonRpcEngine | undefined;
  #era: ProtocolEra | undefined;
  #facts: SessionFacts | undefined;
  #host: HostBridge | undefined;
  #active: ServerConfig | undefined;
  #transport: Transport | undefined;
  /** When a restartable server's process went away or failed to start, within the crash-loop window. */
  readonly #failures: number[] = [];
  #lastFailure: unknown;
  #connectedAt = 0;

  constructor(name: string, config: ServerConfig, context: ConnectionContext) {
    this.name = name;
    this.config = config;
    this.#context = context;
  }

  get state(): ConnectionState {
    return this.#state;
  }
  get facts(): SessionFacts | undefined {
    return this.#era?.facts ?? this.#facts;
  }
  get era(): ProtocolEra['kind'] | undefined {
    return this.#era?.kind;
  }
  /** The host side as declared to this server (undefined before connecting). */
  get host(): HostBridge | undefined {
    return this.#host;
  }

  /**
   * Connects (once; concurrent callers share the attempt). A failed attempt may be retried by calling
   * again. A server whose process exited on its own is started afresh here (a stdio config opens a new
   * process each time), unless it keeps failing: see {@link CrashLoopError}. Only `close()` is final.
   */
  connect(): Promise<ProtocolEra> {
    if (this.#state === 'closed') return Promise.reject(new ClientClosedError('connect'));
    if (this.#state === 'connected' && this.#era !== undefined) return Promise.resolve(this.#era);
    if (this.#opening !== undefined) return this.#opening;
    if (this.#state === 'disconnected') {
      if (!this.#restartable) {
        return Promise.reject(
          new ConnectionError(
            this.name,
            `the connection was lost (${messageOf(this.#engine?.closeCause ?? 'closed')}); this kind of server cannot be restarted, create a new client`,
            {
              cause: this.#engine?.closeCause,
              code: ClientErrorCode.ConnectionLost,
            },
          ),
        );
      }
      this.#reset();
    }
    const loop = this.#crashLoop();
    if (loop !== undefined) return Promise.reject(loop);
    this.#opening = this.#open().then(
      (era) => era,
      (error: unknown) => {
        if (this.#restartable && !this.#isClosed()) this.#failed(error);
        throw error;
      },
    );
    void this.#opening.then(
      () => (this.#opening = undefined),
      () => (this.#opening = undefined),
    );
    return this.#opening;
  }

  /**
   * Opens the connection again after the server went away (a stdio process that exited): a new
   * transport, a new probe. Used to carry subscriptions across a restart; concurrent callers share it.
   */
  reconnect(): Promise<ProtocolEra> {
    return this.connect();
  }

  /** A config that opens a new server process each time: a stdio server can be started again. */
  get #restartable(): boolean {
    return (this.#active ?? this.config).kind === 'stdio';
  }

  #reset(): void {
    this.#state = 'idle';
    this.#era = undefined;
    this.#facts = undefined;
    this.#engine = undefined;
    this.#transport = undefined;
  }

  /** Records a failure of a restartable server (an exit, a failed start), for the crash-loop bound. */
  #failed(cause: unknown): void {
    this.#lastFailure = cause;
    this.#failures.push(performance.now());
    if (this.#failures.length > CRASH_LOOP_FAILURES) this.#failures.shift();
  }

  /** The error that refuses to start the server again, when it failed too often of late. */
  #crashLoop(): CrashLoopError | undefined {
    const since = performance.now() - CRASH_LOOP_WINDOW_MS;
    while (this.#failures.length > 0 && this.#failures[0]! < since) this.#failures.shift();
    if (this.#failures.length < CRASH_LOOP_FAILURES) return undefined;
    return new CrashLoopError(this.name, this.#failures.length, CRASH_LOOP_WINDOW_MS, this.#lastFailure);
  }

  async #open(): Promise<ProtocolEra> {
    for (let config = this.config; ;) {
      try {
        return await this.#openWith(config);
      } catch (error) {
        const next = this.#isClosed() ? undefined : config.fallback?.(error);
        if (next === undefined) throw error;
        safeLog(
          this.#context.logger,
          'debug',
          `[mcpc] server "${escapeForLog(this.name, 100)}" does not speak ${config.kind} (${messageOf(error)}); trying ${next.kind}`,
        );
        config = next;
      }
    }
  }

  /** Whether the connected server speaks the stateless protocol (MCP 2026-07-28). */
  /** Whether a request can go out now, with no connecting first. */
  get ready(): boolean {
    return this.#state === 'connected' && this.#era !== undefined;
  }

  get isModern(): boolean {
    return this.#era?.kind === 'stateless';
  }

  /** Whether the connection runs over one of the HTTP transports (where a stale cache may stand in for an outage). */
  get isHttp(): boolean {
    const kind = this.#active?.kind;
    return kind === 'streamable-http' || kind === 'http' || kind === 'sse';
  }

  /**
   * What a request made now would be bound to in the caches (stateless servers only): its effective
   * `_meta`, and — when asked — the Authorization it would carry. A stdio process is one context; a
   * transport that cannot tell (`authorizationKey` absent) makes private results unshareable (`null`).
   */
  async cacheBinding(needAuth: boolean): Promise<CacheBinding | undefined> {
    const era = this.#era;
    if (!(era instanceof StatelessEra)) return undefined;
    const meta = JSON.stringify(era.effectiveMeta());
    if (!needAuth) return { meta, auth: undefined };
    if (this.#active?.kind === 'stdio') return { meta, auth: '' };
    const transport = this.#transport;
    if (transport?.authorizationKey === undefined) return { meta, auth: null };
    try {
      return { meta, auth: (await transport.authorizationKey()) ?? '' };
    } catch {
      return { meta, auth: null };
    }
  }

  /** The transport that connected (after any fallback): `'stdio'`, `'streamable-http'`, `'sse'`, `'http'`, … */
  get transportKind(): string | undefined {
    return this.#active?.kind;
  }

  async #openWith(config: ServerConfig): Promise<ProtocolEra> {
    this.#state = 'connecting';
    const { logger } = this.#context;
    let engine: JsonRpcEngine | undefined;
    try {
      let transport;
      try {
        transport = await config.open({ name: this.name, logger });
      } catch (error) {
        throw new ConnectionError(this.name, `its ${config.kind} transport could not be created: ${messageOf(error)}`, {
          cause: error,
        });
      }
      const requestTimeout = config.requestTimeout ?? this.#context.requestTimeout;
      engine = new JsonRpcEngine(transport, requestTimeout === undefined ? { logger } : { logger, requestTimeout });
      this.#transport = transport;
      this.#engine = engine;
      const host = this.#noticing(this.#context.host(this.name));
      this.#host = host;
      // One bound on the whole first handshake (detection and initialize): a stdio server that prints a
      // banner or never answers fails in seconds, not after the probe's and initialize's timeouts added
      // up. Over HTTP the first request may wait on an interactive OAuth login, so by default each step
      // has the request timeout there, as any request does.
      const budgetMs = this.#context.handshakeTimeout ?? (config.kind === 'stdio' ? DEFAULT_HANDSHAKE_TIMEOUT : 0);
      const deadline = performance.now() + budgetMs;
      const left = (): number | undefined =>
        budgetMs > 0 ? Math.max(1, Math.ceil(deadline - performance.now())) : undefined;
      const failure = (error: unknown): ConnectionError | undefined => {
        const described = describeHandshakeFailure(error, { engine: engine!, transport, kind: config.kind, budgetMs });
        return described === undefined
          ? undefined
          : new ConnectionError(this.name, described.message, { cause: error, code: described.code });
      };
      engine.onNotification((method, params) => this.#context.onNotification(this, method, params));
      engine.onClose((cause) => this.#closed(cause));
      try {
        await engine.start();
      } catch (error) {
        throw new ConnectionError(this.name, `its ${config.kind} transport failed to start: ${messageOf(error)}`, {
          cause: error,
        });
      }
      if (this.#isClosed()) throw new ClientClosedError('connect');
      let era: ProtocolEra | undefined = await this.#probe(config, engine, host, requestTimeout, left, failure);
      if (era === undefined) {
        const classicHost = this.#classicHost(host, transport, config);
        const classicOptions = { server: this.name, logger, requestMeta: this.#context.requestMeta };
        const handshakeTimeout = left();
        const classic = new ClassicEra(
          engine,
          classicHost,
          handshakeTimeout === undefined ? classicOptions : { ...classicOptions, handshakeTimeout },
        );
        try {
          this.#facts = await classic.open();
        } catch (error) {
          if (error instanceof ConnectionError || error instanceof ClientClosedError) throw error;
          if (this.#isClosed()) throw new ClientClosedError('connect');
          throw (
            failure(error) ??
            new ConnectionError(this.name, `the initialize handshake failed: ${messageOf(error)}`, { cause: error })
          );
        }
        era = classic;
      }
      if (this.#isClosed()) throw new ClientClosedError('connect');
      this.#era = era;
      this.#active = config;
      this.#state = 'connected';
      this.#connectedAt = performance.now();
      if (config.deprecated !== undefined)
        noteDeprecatedUse(config.deprecated, logger, this.#context.deprecationNotices);
      // What the host declared is used from the moment a session on a revision that deprecates it opens.
      const declared = this.#host ?? host;
      if (declared.capabilities.sampling !== undefined) this.#noteDeprecated('sampling');
      if (declared.capabilities.roots !== undefined && (declared.roots?.()?.length ?? 0) > 0)
        this.#noteDeprecated('roots');
      return era;
    } catch (error) {
      if (!this.#isClosed()) this.#state = 'idle';
      this.#engine = undefined;
      this.#host = undefined;
      // Whatever failed, nothing of this attempt may keep running (a spawned process above all).
      await engine?.close().catch(() => {});
      throw error;
    }
  }

  /**
   * Era selection. Unless the config insists on the classic protocol, `server/discover` is tried first;
   * with `protocol: 'auto'` the classic handshake follows only on evidence that the server is classic
   * (see `isClassicEvidence`), never on an outage or an auth wall. Undefined means "use the classic era".
   */
  async #probe(
    config: ServerConfig,
    engine: JsonRpcEngine,
    host: HostBridge,
    requestTimeout: number | undefined,
    left: () => number | undefined,
    failure: (error: unknown) => ConnectionError | undefined,
  ): Promise<ProtocolEra | undefined> {
    // The deprecated HTTP+SSE transport predates the stateless era: it has no era of its own.
    const choice = config.kind === 'sse' ? 'legacy' : (config.protocol ?? 'auto');
    if (choice === 'legacy') return undefined;
    const transport =
      config.kind === 'stdio'
        ? 'stdio'
        : config.kind === 'streamable-http' || config.kind === 'http'
          ? 'http'
          : 'other';
    const { logger } = this.#context;
    const era = new StatelessEra(engine, host, {
      server: this.name,
      logger,
      transport,
      discoverTimeout: minTimeout(
        config.discoverTimeout ?? (transport === 'stdio' ? DEFAULT_STDIO_DISCOVER_TIMEOUT : requestTimeout),
        left(),
      ),
      requestTimeout: requestTimeout ?? 60_000,
      requestMeta: this.#context.requestMeta,
      onInputRequiredWait: this.#context.onInputRequiredWait,
      inputLimits: this.#context.inputLimits,
      extensions: this.#context.extensions,
    });
    try {
      this.#facts = await era.open();
      return era;
    } catch (error) {
      if (this.#isClosed()) throw new ClientClosedError('connect');
      if (choice === 'auto' && isClassicEvidence(error, transport)) {
        safeLog(
          logger,
          'debug',
          `[mcpc] server "${escapeForLog(this.name, 100)}" is not a 2026-07-28 server (${messageOf(error)}); using the initialize handshake`,
        );
        return undefined;
      }
      if (error instanceof ConnectionError || error instanceof ClientClosedError) throw error;
      const described = failure(error);
      if (described !== undefined) throw described;
      const what =
        error instanceof NotModernError
          ? 'it does not speak MCP 2026-07-28 (protocol: "modern")'
          : `the server/discover probe failed: ${messageOf(error)}`;
      throw new ConnectionError(this.name, what, { cause: error });
    }
  }

  /** Sends a request, connecting first if needed. Gated on the capability the method needs. */
  request(method: string, params: JsonRpcParams | undefined, options: EraCallOptions = {}): Promise<unknown> {
    // The common case, connected and nothing to re-fetch, goes straight to the era: no extra promise.
    const era = this.#state === 'connected' ? this.#era : undefined;
    if (era === undefined || this.#needsRefresh(era, method)) return this.#requestAfterSetup(method, params, options);
    try {
      this.assertCapability(method);
    } catch (error) {
      return Promise.reject(error);
    }
    return era.request(method, params, options);
  }

  async #requestAfterSetup(
    method: string,
    params: JsonRpcParams | undefined,
    options: EraCallOptions,
  ): Promise<unknown> {
    const era = this.#state === 'connected' && this.#era !== undefined ? this.#era : await this.connect();
    if (this.#needsRefresh(era, method)) await era.refresh?.(options);
    this.assertCapability(method);
    return era.request(method, params, options);
  }

  /**
   * A stale discovery result is re-fetched before it refuses a call: what the server offers may have
   * grown since. One that would allow the call is not re-fetched first (the server still has the last
   * word), so a server answering `ttlMs: 0` does not cost a discover before every request.
   */
  #needsRefresh(era: ProtocolEra, method: string): boolean {
    if (era.refresh === undefined || era.stale !== true) return false;
    const capability = requiredCapability(method);
    return capability !== undefined && !era.supports(capability);
  }

  /** Throws `CapabilityError` when `method` needs a capability the server did not negotiate. */
  assertCapability(method: string, capability: string | undefined = requiredCapability(method)): void {
    if (capability !== undefined && this.#era !== undefined && !this.#era.supports(capability)) {
      throw new CapabilityError(this.name, capability, method);
    }
  }

  supports(capability: string): boolean {
    return this.#era?.supports(capability) ?? false;
  }

  async ping(options: EraRequestOptions = {}): Promise<void> {
    const era = await this.connect();
    await era.ping(options);
  }

  /** `beforeSend` runs once the call passed its gate: a refused call is no use of the feature. */
  async setLogLevel(level: LoggingLevel, options: EraRequestOptions = {}, beforeSend?: () => void): Promise<void> {
    const era = await this.connect();
    // A 2026-07-28 server takes the level in each request's _meta, which any server may read or ignore.
    if (era.kind !== 'stateless') this.assertCapability('logging/setLevel');
    beforeSend?.();
    await era.setLogLevel(level, options);
  }

  /** Tells a connected server its roots changed; a no-op for one that is not connected or did not declare roots. */
  async rootsChanged(): Promise<void> {
    if (this.#state !== 'connected' || this.#era === undefined) return;
    await this.#era.rootsChanged();
  }

  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    const opening = this.#opening;
    if (opening !== undefined) await opening.catch(() => {});
    await this.#engine?.close();
  }

  /**
   * The host side of a classic session. Over a transport the server cannot send requests on (plain JSON
   * HTTP), roots, sampling and elicitation are left out: they reach the host only as server requests.
   */
  #classicHost(host: HostBridge, transport: Transport, config: ServerConfig): HostBridge {
    if (transport.serverRequests !== false && config.kind !== 'http') return host;
    const capabilities = withoutServerRequests(host.capabilities);
    if (Object.keys(capabilities).length === Object.keys(host.capabilities).length) return host;
    safeLog(
      this.#context.logger,
      'debug',
      `[mcpc] server "${escapeForLog(this.name, 100)}": its transport (${config.kind}) cannot carry server requests, so roots, sampling and elicitation are not declared to it`,
    );
    const oneWay: HostBridge = { ...host, capabilities, elicit: undefined, sample: undefined, listRoots: undefined };
    this.#host = oneWay;
    return oneWay;
  }

  /** The negotiated revision, once there is one. */
  get #revision(): string | undefined {
    return (this.#era?.facts ?? this.#facts)?.protocolVersion;
  }

  /** A deprecation notice for a use in this server's session: given only if its revision deprecates the feature. */
  #noteDeprecated(feature: DeprecatedFeature): void {
    noteDeprecatedUse(feature, this.#context.logger, this.#context.deprecationNotices, this.#revision);
  }

  /**
   * The host side as this server sees it, noting the deprecated uses only a server's request reveals
   * (answering with roots, a sampling request's `includeContext`) against this session's revision.
   */
  #noticing(host: HostBridge): HostBridge {
    const { listRoots, sample } = host;
    return {
      ...host,
      listRoots:
        listRoots &&
        ((context) => {
          const answer = listRoots(context);
          // An empty answer exposes nothing deprecated: no notice for it.
          const roots = (answer as { roots?: unknown } | undefined)?.roots;
          if (Array.isArray(roots) && roots.length > 0) this.#noteDeprecated('roots');
          return answer;
        }),
      sample:
        sample &&
        ((params, context) => {
          const include = params?.includeContext;
          if (include === 'thisServer' || include === 'allServers') this.#noteDeprecated('sampling-include-context');
          return sample(params, context);
        }),
    };
  }

  // A method, not an inline comparison: close() may run during any await of #open.
  #isClosed(): boolean {
    return this.#state === 'closed';
  }

  #closed(cause: Error | undefined): void {
    if (this.#state === 'connected') {
      this.#state = 'disconnected';
      // A process that ran a while and then stopped is restarted freely; one that dies as soon as it
      // is up counts towards the crash-loop bound, as does every failed start.
      if (this.#restartable && performance.now() - this.#connectedAt < CRASH_LOOP_MIN_UPTIME_MS)
        this.#failed(cause ?? new Error('the server process exited'));
      if (cause !== undefined) {
        const next = this.#restartable ? '; it is started again on the next request' : '';
        safeLog(
          this.#context.logger,
          'warn',
          `[mcpc] server "${escapeForLog(this.name, 100)}" disconnected: ${escapeForLog(cause.message)}${next}`,
        );
      }
    }
    this.#context.onClose(this, cause);
  }
}

/** A restartable server that failed this many times within the window is not started again until it passes. */
export const CRASH_LOOP_FAILURES = 5;
export const CRASH_LOOP_WINDOW_MS = 60_000;
/** An exit this soon after the handshake completed counts as a failure to start. */
export const CRASH_LOOP_MIN_UPTIME_MS = 5_000;

/** Bound on the stdio probe: long enough for a cold `npx` start, short for a server that stays silent. */
const DEFAULT_STDIO_DISCOVER_TIMEOUT = 10_000;

/** The smaller of two timeouts, where undefined or 0 means none. */
function minTimeout(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined || a <= 0) return b;
  if (b === undefined || b <= 0) return a;
  return Math.min(a, b);
}

const messageOf = (error: unknown): string => escapeForLog(error instanceof Error ? error.message : String(error), 500);

/** The server's facts, or an error saying the server is not connected yet. */
export function factsOf(connection: Connection): SessionFacts {
  const facts = connection.facts;
  if (facts === undefined)
    throw new McpError(`server "${connection.name}" is not connected yet; await client.connect() first`, {
      code: ClientErrorCode.NotConnected,
    });
  return facts;
}

export type { ServerCapabilities, Implementation };
