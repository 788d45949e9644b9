// The legacy era: the `initialize` handshake, its result checked, requests over the established session.
import {
  ErrorCode,
  ServerError,
  escapeForLog,
  safeLog,
  type JsonRpcEngine,
  type JsonRpcParams,
  type Logger,
} from '@mcpc/jsonrpc';
import { UnsupportedProtocolVersionError, ValidationError } from '../errors.js';
import type { Implementation, LoggingLevel, ServerCapabilities } from '../types/protocol.js';
import { hasCapability } from './capabilities.js';
import type { EraRequestOptions, HostBridge, ProtocolEra, SessionFacts } from './era.js';
import { hostMeta, withMeta, type RequestMetaOption } from './meta.js';
import { LEGACY_PROTOCOL_VERSIONS, LATEST_LEGACY_VERSION, isClassicVersion } from './versions.js';

export interface ClassicEraOptions {
  readonly server: string;
  readonly logger: Logger;
  /** Bound on the `initialize` request, which may not be cancelled. */
  readonly handshakeTimeout?: number;
  /** Host metadata merged into every request's `_meta` (not the handshake's). */
  readonly requestMeta?: RequestMetaOption | undefined;
}

/**
 * The classic era: an `initialize` handshake negotiates the revision and the capabilities once, and
 * the server sends its input requests (elicitation, sampling, roots) as JSON-RPC requests of its own.
 */
export class ClassicEra implements ProtocolEra {
  readonly kind = 'classic' as const;
  readonly #engine: JsonRpcEngine;
  readonly #host: HostBridge;
  readonly #options: ClassicEraOptions;
  #capabilities: ServerCapabilities = {};
  #protocolVersion: string | undefined;
  readonly #supported = new Map<string, boolean>();

  constructor(engine: JsonRpcEngine, host: HostBridge, options: ClassicEraOptions) {
    this.#engine = engine;
    this.#host = host;
    this.#options = options;
    // Handlers go in before the handshake: a server may ping, or ask, as soon as it has answered.
    engine.setRequestHandler('ping', () => ({}));
    const { elicit, sample, listRoots } = host;
    if (elicit !== undefined && host.capabilities.elicitation !== undefined)
      engine.setRequestHandler('elicitation/create', elicit);
    if (sample !== undefined && host.capabilities.sampling !== undefined)
      engine.setRequestHandler('sampling/createMessage', sample);
    // Undeclared roots are answered "method not found" by the engine, as the spec asks.
    if (listRoots !== undefined && host.capabilities.roots !== undefined)
      engine.setRequestHandler('roots/list', (_p, context) => listRoots(context));
  }

  async open(): Promise<SessionFacts> {
    const { server } = this.#options;
    let offered: string = LATEST_LEGACY_VERSION;
    let raw: unknown;
    try {
      raw = await this.#initialize(offered);
    } catch (error) {
      // A server may refuse the offer with the revisions it speaks; retry once with the newest we share.
      const fallback = sharedVersion(error);
      if (fallback === undefined) throw error;
      offered = fallback;
      raw = await this.#initialize(offered);
    }
    const facts = readInitializeResult(raw, offered, server, this.#options.logger);
    this.#capabilities = facts.capabilities;
    this.#protocolVersion = facts.protocolVersion;
    await this.#engine.notify('notifications/initialized');
    return facts;
  }

  supports(capability: string): boolean {
    // Asked on every request; the answers cannot change once the session is open.
    let answer = this.#supported.get(capability);
    if (answer === undefined) {
      // 2024-11-05 had completion/complete without a capability flag; the flag arrived in 2025-03-26.
      answer =
        (capability === 'completions' && this.#protocolVersion === '2024-11-05') ||
        hasCapability(this.#capabilities, capability);
      if (this.#protocolVersion !== undefined) this.#supported.set(capability, answer);
    }
    return answer;
  }

  request(method: string, params: JsonRpcParams | undefined, options: EraRequestOptions): Promise<unknown> {
    const { requestMeta } = this.#options;
    const p = requestMeta === undefined ? params : withMeta(params, hostMeta(requestMeta), undefined);
    return this.#engine.request(method, p, IDEMPOTENT.has(method) ? { ...options, send: RETRYABLE } : options);
  }

  async ping(options: EraRequestOptions): Promise<void> {
    await this.#engine.request('ping', undefined, { ...options, send: RETRYABLE });
  }

  async setLogLevel(level: LoggingLevel, options: EraRequestOptions): Promise<void> {
    await this.#engine.request('logging/setLevel', { level }, { ...options, send: RETRYABLE });
  }

  async rootsChanged(): Promise<void> {
    if (this.#host.capabilities.roots?.listChanged !== true) return;
    await this.#engine.notify('notifications/roots/list_changed');
  }

  #initialize(protocolVersion: string): Promise<unknown> {
    const params = { protocolVersion, capabilities: this.#host.capabilities, clientInfo: this.#host.clientInfo };
    const timeout = this.#options.handshakeTimeout;
    return this.#engine.request(
      'initialize',
      params,
      timeout === undefined ? { send: RETRYABLE } : { timeout, send: RETRYABLE },
    );
  }
}

// Requests a transport may re-send when unsure they arrived: reading, or setting state to a value. Never
// tools/call, whose side effects could run twice.
const IDEMPOTENT: ReadonlySet<string> = new Set([
  'tools/list',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'completion/complete',
]);
const RETRYABLE = { retryable: true } as const;

function sharedVersion(error: unknown): string | undefined {
  if (!(error instanceof ServerError) || error.rpcCode !== ErrorCode.InvalidParams) return undefined;
  const supported = (error.data as { supported?: unknown } | undefined)?.supported;
  if (!Array.isArray(supported)) return undefined;
  return LEGACY_PROTOCOL_VERSIONS.find((v) => v !== LATEST_LEGACY_VERSION && supported.includes(v));
}

/** Checks the parts of an `initialize` result the client relies on; tolerates the rest. */
function readInitializeResult(raw: unknown, offered: string, server: string, logger: Logger): SessionFacts {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ValidationError(`server "${server}" answered initialize with something that is not an object`, {
      server,
      method: 'initialize',
    });
  }
  const r = raw as Record<string, unknown>;
  if (!isClassicVersion(r.protocolVersion)) {
    throw new UnsupportedProtocolVersionError(
      server,
      typeof r.protocolVersion === 'string' ? r.protocolVersion : undefined,
      offered,
      LEGACY_PROTOCOL_VERSIONS,
    );
  }
  let capabilities = r.capabilities;
  if (!isObject(capabilities)) {
    warn(logger, server, 'its initialize result has no capabilities object; treating it as offering none');
    capabilities = {};
  }
  const info = r.serverInfo;
  let serverInfo: Implementation;
  if (isObject(info) && typeof info.name === 'string') {
    serverInfo =
      typeof info.version === 'string'
        ? (info as unknown as Implementation)
        : { ...(info as object), name: info.name, version: '' };
  } else {
    warn(logger, server, 'its initialize result has no serverInfo with a name');
    serverInfo = { name: server, version: '' };
  }
  const instructions = typeof r.instructions === 'string' ? r.instructions : undefined;
  return {
    protocolVersion: r.protocolVersion,
    serverInfo,
    capabilities: capabilities as ServerCapabilities,
    instructions,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const warn = (logger: Logger, server: string, message: string): void =>
  safeLog(logger, 'warn', `[mcpc] server "${escapeForLog(server, 100)}": ${message}`);
