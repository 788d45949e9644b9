import { ConnectionClosedError, McpError, escapeForLog } from '@mcpc/jsonrpc';

export {
  McpError,
  ServerError,
  ErrorReply,
  RequestTimeoutError,
  AbortError,
  TransportError,
  MessageTooLargeError,
  ConnectionClosedError,
  JsonRpcProtocolError,
  ErrorCode,
} from '@mcpc/jsonrpc';

/** The server did not negotiate the capability a call needs; nothing was sent to it. */
export class CapabilityError extends McpError {
  static override readonly brand: string = 'CapabilityError';
  readonly server: string;
  /** The capability, as a path into the server's capabilities (`'logging'`, `'resources.subscribe'`). */
  readonly capability: string;
  readonly method: string | undefined;

  constructor(server: string, capability: string, method?: string) {
    super(
      `server "${server}" did not negotiate the "${capability}" capability${method === undefined ? '' : `, so ${method} was not sent`}; ` +
        'check server.capabilities before calling, or route the call to a server that offers it',
      { code: 'MCPC_CAPABILITY_NOT_SUPPORTED' },
    );
    this.server = server;
    this.capability = capability;
    this.method = method;
  }
}

/**
 * Something did not have the shape MCP requires: a server's answer the client relies on (a `tools/list`
 * result whose `tools` is not an array, an `initialize` result without a protocol version), or an
 * argument the host passed. `issues` lists what was wrong.
 */
export class ValidationError extends McpError {
  static override readonly brand: string = 'ValidationError';
  readonly server: string | undefined;
  readonly method: string | undefined;
  readonly issues: readonly string[];

  constructor(message: string, options: { server?: string; method?: string; issues?: readonly string[]; cause?: unknown } = {}) {
    super(message, { code: 'MCPC_VALIDATION_FAILED', cause: options.cause });
    this.server = options.server;
    this.method = options.method;
    this.issues = options.issues ?? [];
  }
}

/** A server could not be connected: its transport failed to open, or the handshake failed. `cause` says why. */
export class ConnectionError extends McpError {
  static override readonly brand: string = 'ConnectionError';
  readonly server: string;

  constructor(server: string, message: string, options: { cause?: unknown; code?: string } = {}) {
    super(`could not connect to server "${server}": ${message}`, { code: options.code ?? 'MCPC_CONNECTION_FAILED', cause: options.cause });
    this.server = server;
  }
}

/**
 * The server answered `initialize` with a protocol revision this client does not speak. The client
 * disconnected, as the spec asks; upgrade the client or the server.
 */
export class UnsupportedProtocolVersionError extends ConnectionError {
  static override readonly brand: string = 'UnsupportedProtocolVersionError';
  /** What the server answered (untrusted; `undefined` when it was not a string). */
  readonly received: string | undefined;
  readonly requested: string;
  readonly supported: readonly string[];

  constructor(server: string, received: string | undefined, requested: string, supported: readonly string[]) {
    super(
      server,
      `it answered protocol version ${received === undefined ? '(none)' : `"${escapeForLog(received, 64)}"`}, ` +
        `which this client does not speak (it speaks ${supported.join(', ')}); the connection was closed`,
      { code: 'MCPC_UNSUPPORTED_PROTOCOL_VERSION' },
    );
    this.received = received;
    this.requested = requested;
    this.supported = supported;
  }
}

/** A name without `{ server }` matched items on several servers; the client does not guess. */
export class AmbiguousNameError extends McpError {
  static override readonly brand: string = 'AmbiguousNameError';
  readonly kind: 'tool' | 'prompt' | 'resource';
  /** The tool or prompt name, or the resource URI. */
  readonly item: string;
  /** The servers that offer it. */
  readonly candidates: readonly string[];

  constructor(kind: 'tool' | 'prompt' | 'resource', name: string, candidates: readonly string[]) {
    super(
      `${kind} "${name}" is offered by ${candidates.length} servers (${candidates.map((c) => `"${c}"`).join(', ')}); ` +
        `pass { server } to choose one`,
      { code: 'MCPC_AMBIGUOUS_NAME' },
    );
    this.kind = kind;
    this.item = name;
    this.candidates = candidates;
  }
}

/** No server offers the tool, prompt or resource asked for. */
export class NotFoundError extends McpError {
  static override readonly brand: string = 'NotFoundError';
  readonly kind: 'tool' | 'prompt' | 'resource' | 'server';
  /** The name (or URI) that was not found. */
  readonly item: string;

  constructor(kind: 'tool' | 'prompt' | 'resource' | 'server', name: string, message: string, code: string) {
    super(message, { code });
    this.kind = kind;
    this.item = name;
  }
}

export class ToolNotFoundError extends NotFoundError {
  static override readonly brand: string = 'ToolNotFoundError';
  constructor(name: string, servers: readonly string[]) {
    super('tool', name, `no server offers a tool named "${name}" (searched ${list(servers)}); call listTools() to see what is offered`, 'MCPC_TOOL_NOT_FOUND');
  }
}

export class PromptNotFoundError extends NotFoundError {
  static override readonly brand: string = 'PromptNotFoundError';
  constructor(name: string, servers: readonly string[]) {
    super('prompt', name, `no server offers a prompt named "${name}" (searched ${list(servers)}); call listPrompts() to see what is offered`, 'MCPC_PROMPT_NOT_FOUND');
  }
}

export class ResourceNotFoundError extends NotFoundError {
  static override readonly brand: string = 'ResourceNotFoundError';
  constructor(uri: string, servers: readonly string[]) {
    super(
      'resource',
      uri,
      `no server lists the resource "${uri}" or a template that matches it (searched ${list(servers)}); pass { server } to read it from a specific server`,
      'MCPC_RESOURCE_NOT_FOUND',
    );
  }
}

/** `{ server }` named a server the client does not have. */
export class UnknownServerError extends NotFoundError {
  static override readonly brand: string = 'UnknownServerError';
  constructor(name: string, servers: readonly string[]) {
    super('server', name, `the client has no server named "${name}" (it has ${list(servers)})`, 'MCPC_UNKNOWN_SERVER');
  }
}

/**
 * Following `nextCursor` did not end: the server repeated a cursor (a loop), or the list ran past the
 * page bound. `items` holds what was collected before the client stopped.
 */
export class PaginationError extends McpError {
  static override readonly brand: string = 'PaginationError';
  readonly reason: 'cursor-loop' | 'page-limit';
  readonly server: string;
  readonly method: string;
  readonly pages: number;
  readonly items: readonly unknown[];

  constructor(reason: 'cursor-loop' | 'page-limit', server: string, method: string, pages: number, items: readonly unknown[]) {
    super(
      reason === 'cursor-loop'
        ? `server "${server}" returned a nextCursor it had already returned, after ${pages} pages of ${method}: the list would never end`
        : `${method} on server "${server}" ran past ${pages} pages; raise the client's maxPages if the list is really that long`,
      { code: reason === 'cursor-loop' ? 'MCPC_PAGINATION_LOOP' : 'MCPC_PAGINATION_LIMIT' },
    );
    this.reason = reason;
    this.server = server;
    this.method = method;
    this.pages = pages;
    this.items = items;
  }
}

/** The client was closed; it accepts no new calls. Create a new one. */
export class ClientClosedError extends ConnectionClosedError {
  static override readonly brand: string = 'ClientClosedError';
  constructor(method?: string) {
    super(method);
    this.message = `${method === undefined ? 'the call' : method} was refused: the client is closed; create a new Client to connect again`;
    Object.defineProperty(this, 'code', { value: 'MCPC_CLIENT_CLOSED' });
  }
}

/** A server config needs a transport package that is not installed, or not available yet. */
export class TransportUnavailableError extends McpError {
  static override readonly brand: string = 'TransportUnavailableError';
  /** The package to install. */
  readonly packageName: string;

  constructor(packageName: string, message: string, cause?: unknown) {
    super(message, { code: 'MCPC_TRANSPORT_UNAVAILABLE', cause });
    this.packageName = packageName;
  }
}

const list = (servers: readonly string[]): string => (servers.length === 0 ? 'no servers' : servers.map((s) => `"${s}"`).join(', '));
