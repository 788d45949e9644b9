// The failures of a server's connection: not opened, crash loop, no shared version or era, client closed, no transport.
import { ConnectionClosedError, ErrorCode, McpError, escapeForLog } from '@mcpc/jsonrpc';
import { brand } from '../brand.js';
import { ClientErrorCode } from '../codes.js';

/** A server could not be connected: its transport failed to open, or the handshake failed. `cause` says why. */
export class ConnectionError extends McpError {
  static {
    brand(this, 'ConnectionError');
  }
  readonly server: string;

  constructor(server: string, message: string, options: { cause?: unknown; code?: ClientErrorCode } = {}) {
    super(`could not connect to server "${server}": ${message}`, {
      code: options.code ?? ClientErrorCode.ConnectionFailed,
      cause: options.cause,
    });
    this.server = server;
  }
}

/**
 * A local server process keeps dying: it exited, or failed to start, `failures` times within `windowMs`,
 * so the client stopped starting it again (it would otherwise spawn one process per request for ever).
 * `cause` is the last failure. Calls succeed again once the window has passed; fix the server first.
 */
export class CrashLoopError extends ConnectionError {
  static {
    brand(this, 'CrashLoopError');
  }
  readonly failures: number;
  readonly windowMs: number;

  constructor(server: string, failures: number, windowMs: number, cause: unknown) {
    const last = cause instanceof Error ? `; the last time: ${escapeForLog(cause.message, 500)}` : '';
    super(
      server,
      `its process failed ${failures} times within ${Math.round(windowMs / 1000)} s, so it is not being started again for now${last}. ` +
        'Run its command yourself to see why it stops',
      { code: ClientErrorCode.CrashLoop, cause },
    );
    this.failures = failures;
    this.windowMs = windowMs;
  }
}

/**
 * The server speaks no protocol revision this client does: it answered `initialize` with another one,
 * `server/discover` listed only revisions this client does not speak, or it refused ours with -32022
 * (`UnsupportedProtocolVersion`) naming none we share. The client disconnected, as the spec asks;
 * upgrade the client or the server.
 */
export class UnsupportedProtocolVersionError extends ConnectionError {
  static {
    brand(this, 'UnsupportedProtocolVersionError');
  }
  /** The JSON-RPC code of MCP's UnsupportedProtocolVersion error. */
  readonly rpcCode: number = ErrorCode.UnsupportedProtocolVersion;
  /** What the server answered (untrusted; `undefined` when it was not a string). */
  readonly received: string | undefined;
  readonly requested: string;
  /** The revisions this client speaks. */
  readonly supported: readonly string[];
  /** The revisions the server said it speaks, when it said (untrusted). */
  readonly serverSupported: readonly string[] | undefined;

  constructor(
    server: string,
    received: string | undefined,
    requested: string,
    supported: readonly string[],
    serverSupported?: readonly string[],
  ) {
    const theirs = serverSupported
      ?.map((v) => `"${escapeForLog(v, 64)}"`)
      .slice(0, 10)
      .join(', ');
    super(
      server,
      (serverSupported !== undefined
        ? `it speaks only protocol versions ${theirs || '(none)'}, `
        : `it answered protocol version ${received === undefined ? '(none)' : `"${escapeForLog(received, 64)}"`}, `) +
        `which this client does not speak (it speaks ${supported.join(', ')}); the connection was closed`,
      { code: ClientErrorCode.UnsupportedProtocolVersion },
    );
    this.received = received;
    this.requested = requested;
    this.supported = supported;
    this.serverSupported = serverSupported;
  }
}

/**
 * Not an error a caller sees: the server does not speak the stateless protocol (its answer to
 * `server/discover` was not a discovery result, or it listed only classic revisions). Era detection
 * falls back to the classic handshake on it; with `protocol: 'modern'` it becomes a `ConnectionError`.
 */
export class NotModernError extends McpError {
  static {
    brand(this, 'NotModernError');
  }
  constructor(detail: string, cause?: unknown) {
    super(`the server does not speak MCP 2026-07-28: ${detail}`, { code: ClientErrorCode.NotModern, cause });
  }
}

/** The client was closed; it accepts no new calls. Create a new one. */
export class ClientClosedError extends ConnectionClosedError {
  static {
    brand(this, 'ClientClosedError');
  }
  constructor(method?: string) {
    super(method);
    this.message = `${method === undefined ? 'the call' : method} was refused: the client is closed; create a new Client to connect again`;
    Object.defineProperty(this, 'code', { value: ClientErrorCode.ClientClosed });
  }
}

/** A server config needs a transport package that is not installed, or not available yet. */
export class TransportUnavailableError extends McpError {
  static {
    brand(this, 'TransportUnavailableError');
  }
  /** The package to install. */
  readonly packageName: string;

  constructor(packageName: string, message: string, cause?: unknown) {
    super(message, { code: ClientErrorCode.TransportUnavailable, cause });
    this.packageName = packageName;
  }
}
