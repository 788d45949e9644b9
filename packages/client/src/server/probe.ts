// Era selection on connect: the `server/discover` probe, or the classic `initialize` handshake instead.
//
// The probe opens a 2026-07-28 session. This module also decides when the classic handshake is used instead, and makes
// that handshake.
import { escapeForLog, safeLog, type JsonRpcEngine } from '@mcpc/jsonrpc';
import { ClientClosedError, ConnectionError, NotModernError } from '../errors.js';
import type { ServerConfig } from '../server-configs.js';
import { ClassicEra } from './classic.js';
import type { ConnectionContext } from './connection-context.js';
import { isClassicEvidence } from './detect.js';
import type { HostBridge, SessionFacts } from './era.js';
import type { InputTracing } from './mrtr.js';
import { StatelessEra } from './stateless.js';

/** Bound on the stdio probe: long enough for a cold `npx` start, short for a server that stays silent. */
const DEFAULT_STDIO_DISCOVER_TIMEOUT = 10_000;

export interface ProbeRequest {
  readonly server: string;
  readonly config: ServerConfig;
  readonly context: ConnectionContext;
  readonly engine: JsonRpcEngine;
  readonly host: HostBridge;
  readonly requestTimeout: number | undefined;
  /** What is left of the handshake's budget, in ms (undefined: no bound). */
  readonly left: () => number | undefined;
  /** A handshake failure described for the user, when it is one that can be. */
  readonly failure: (error: unknown) => ConnectionError | undefined;
  /** close() may run during the probe. */
  readonly isClosed: () => boolean;
  /** The connection's MRTR tracing hooks, when it is traced. */
  readonly inputTracing?: InputTracing | undefined;
}

/**
 * Unless the config insists on the classic protocol, `server/discover` is tried first; with
 * `protocol: 'auto'` the classic handshake follows only on evidence that the server is classic (see
 * `isClassicEvidence`), never on an outage or an auth wall. Undefined means "use the classic era".
 */
export async function probeEra(p: ProbeRequest): Promise<{ era: StatelessEra; facts: SessionFacts } | undefined> {
  const { config, context } = p;
  // The deprecated HTTP+SSE transport predates the stateless era: it has no era of its own.
  const choice = config.kind === 'sse' ? 'legacy' : (config.protocol ?? 'auto');
  if (choice === 'legacy') return undefined;
  const transport =
    config.kind === 'stdio' ? 'stdio' : config.kind === 'streamable-http' || config.kind === 'http' ? 'http' : 'other';
  const { logger } = context;
  const era = new StatelessEra(p.engine, p.host, {
    server: p.server,
    logger,
    transport,
    discoverTimeout: minTimeout(
      config.discoverTimeout ?? (transport === 'stdio' ? DEFAULT_STDIO_DISCOVER_TIMEOUT : p.requestTimeout),
      p.left(),
    ),
    requestTimeout: p.requestTimeout ?? 60_000,
    requestMeta: context.requestMeta,
    onInputRequiredWait: context.onInputRequiredWait,
    inputLimits: context.inputLimits,
    extensions: context.extensions,
    inputTracing: p.inputTracing,
  });
  try {
    const facts = await era.open();
    return { era, facts };
  } catch (error) {
    if (p.isClosed()) throw new ClientClosedError('connect');
    if (choice === 'auto' && isClassicEvidence(error, transport)) {
      safeLog(
        logger,
        'debug',
        `[mcpc] server "${escapeForLog(p.server, 100)}" is not a 2026-07-28 server (${messageOf(error)}); using the initialize handshake`,
      );
      return undefined;
    }
    if (error instanceof ConnectionError || error instanceof ClientClosedError) throw error;
    const described = p.failure(error);
    if (described !== undefined) throw described;
    const what =
      error instanceof NotModernError
        ? 'it does not speak MCP 2026-07-28 (protocol: "modern")'
        : `the server/discover probe failed: ${messageOf(error)}`;
    throw new ConnectionError(p.server, what, { cause: error });
  }
}

/** The classic `initialize` handshake, within what is left of the budget; `host` is the classic session's. */
export async function openClassic(
  p: Pick<ProbeRequest, 'server' | 'context' | 'engine' | 'host' | 'left' | 'failure' | 'isClosed'>,
): Promise<{ era: ClassicEra; facts: SessionFacts }> {
  const classicOptions = { server: p.server, logger: p.context.logger, requestMeta: p.context.requestMeta };
  const handshakeTimeout = p.left();
  const era = new ClassicEra(
    p.engine,
    p.host,
    handshakeTimeout === undefined ? classicOptions : { ...classicOptions, handshakeTimeout },
  );
  try {
    return { era, facts: await era.open() };
  } catch (error) {
    if (error instanceof ConnectionError || error instanceof ClientClosedError) throw error;
    if (p.isClosed()) throw new ClientClosedError('connect');
    throw (
      p.failure(error) ??
      new ConnectionError(p.server, `the initialize handshake failed: ${messageOf(error)}`, { cause: error })
    );
  }
}

/** The smaller of two timeouts, where undefined or 0 means none. */
function minTimeout(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined || a <= 0) return b;
  if (b === undefined || b <= 0) return a;
  return Math.min(a, b);
}

const messageOf = (error: unknown): string => escapeForLog(error instanceof Error ? error.message : String(error), 500);
