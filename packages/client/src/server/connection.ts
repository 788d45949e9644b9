// One server's connection: connect with fallback and restart, the first handshake's budget, capability gating, close.
//
// Restarts stay within the crash-loop bound. Era probing, host wrapping and that bound live beside it.
import { JsonRpcEngine, McpError, escapeForLog, safeLog, type JsonRpcParams, type Transport } from '@mcpc/jsonrpc';
import type { CacheBinding } from '../cache/list-cache.js';
import { ClientErrorCode } from '../codes.js';
import { noteDeprecatedUse, type DeprecatedFeature } from '../deprecations.js';
import { CapabilityError, ClientClosedError, ConnectionError, TransportUnavailableError } from '../errors.js';
import type { ServerConfig } from '../server-configs.js';
import type { ServerCapabilities, Implementation, LoggingLevel } from '../types/protocol.js';
import { cacheBindingOf } from './cache-binding.js';
import { requiredCapability } from './capabilities.js';
import type { ConnectionContext } from './connection-context.js';
import { CRASH_LOOP_MIN_UPTIME_MS, CrashLoopGuard } from './crash-loop.js';
import type { EraCallOptions, EraRequestOptions, HostBridge, ProtocolEra, SessionFacts } from './era.js';
import { handshakeBudget } from './handshake-budget.js';
import { countingTaskInput } from '../tasks/input-rounds.js';
import { hostForClassic, noticing } from './host-wrapping.js';
import { openClassic, probeEra } from './probe.js';
import { sessionIdOf } from '../tracing/traced-connection.js';

export type { ConnectionContext } from './connection-context.js';

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
  readonly #crashes = new CrashLoopGuard();
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
   * process each time), unless it keeps failing: see `CrashLoopError`. Only `close()` is final.
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
    const loop = this.#crashes.refusal(this.name);
    if (loop !== undefined) return Promise.reject(loop);
    this.#opening = this.#open().then(
      (era) => era,
      (error: unknown) => {
        if (this.#restartable && !this.#isClosed()) this.#crashes.failed(error);
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

  /** Whether a request can go out now, with no connecting first. */
  get ready(): boolean {
    return this.#state === 'connected' && this.#era !== undefined;
  }

  /** Whether the connected server speaks the stateless protocol (MCP 2026-07-28). */
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
  cacheBinding(needAuth: boolean): Promise<CacheBinding | undefined> {
    return cacheBindingOf(this.#era, this.#active?.kind, this.#transport, needAuth);
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
        // A missing transport package is for the caller to install, not a connection failure: it
        // reaches connect() as it is, so `catch (e) { if (e instanceof TransportUnavailableError) … }` works.
        if (error instanceof TransportUnavailableError) throw error;
        throw new ConnectionError(this.name, `its ${config.kind} transport could not be created: ${messageOf(error)}`, {
          cause: error,
        });
      }
      const requestTimeout = config.requestTimeout ?? this.#context.requestTimeout;
      const tracing = await this.#context.tracing?.({
        kind: config.kind,
        label: config.label,
        protocolVersion: () => this.facts?.protocolVersion,
        sessionId: () => sessionIdOf(transport),
      });
      engine = new JsonRpcEngine(transport, {
        logger,
        ...(requestTimeout !== undefined && { requestTimeout }),
        ...(tracing !== undefined && { observer: tracing.observer, incomingObserver: tracing.incoming }),
      });
      this.#transport = transport;
      this.#engine = engine;
      const host = noticing(this.#context.host(this.name), (feature) => this.#noteDeprecated(feature));
      this.#host = host;
      // One bound on the whole first handshake (detection and initialize), from here.
      const { left, failure } = handshakeBudget(
        this.name,
        this.#context.handshakeTimeout,
        engine,
        transport,
        config.kind,
      );
      engine.onNotification((method, params) => this.#context.onNotification(this, method, params));
      if (tracing !== undefined) engine.onClose((cause) => tracing.closed(cause));
      engine.onClose((cause) => this.#closed(cause));
      try {
        await engine.start();
      } catch (error) {
        throw new ConnectionError(this.name, `its ${config.kind} transport failed to start: ${messageOf(error)}`, {
          cause: error,
        });
      }
      if (this.#isClosed()) throw new ClientClosedError('connect');
      const probed = await probeEra({
        server: this.name,
        config,
        context: this.#context,
        engine,
        host,
        requestTimeout,
        left,
        failure,
        isClosed: () => this.#isClosed(),
        inputTracing: tracing?.inputs,
      });
      let era: ProtocolEra | undefined = probed?.era;
      if (probed !== undefined) this.#facts = probed.facts;
      if (era === undefined) {
        const rounds = this.#context.taskInputRounds;
        const served = hostForClassic(this.name, host, transport, config, logger);
        const classicHost = rounds === undefined ? served : countingTaskInput(served, rounds);
        this.#host = classicHost;
        const classic = await openClassic({
          server: this.name,
          context: this.#context,
          engine,
          host: classicHost,
          left,
          failure,
          isClosed: () => this.#isClosed(),
        });
        this.#facts = classic.facts;
        era = classic.era;
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
    if (era.refresh === undefined) return false;
    // The capability first: it is a memoised lookup, `stale` reads the clock (every request comes here).
    const capability = requiredCapability(method);
    return capability !== undefined && !era.supports(capability) && era.stale === true;
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

  /** The negotiated revision, once there is one. */
  get #revision(): string | undefined {
    return (this.#era?.facts ?? this.#facts)?.protocolVersion;
  }

  /** A deprecation notice for a use in this server's session: given only if its revision deprecates the feature. */
  #noteDeprecated(feature: DeprecatedFeature): void {
    noteDeprecatedUse(feature, this.#context.logger, this.#context.deprecationNotices, this.#revision);
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
        this.#crashes.failed(cause ?? new Error('the server process exited'));
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

export { CRASH_LOOP_FAILURES, CRASH_LOOP_MIN_UPTIME_MS, CRASH_LOOP_WINDOW_MS } from './crash-loop.js';

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
