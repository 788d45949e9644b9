// The errors @mcpc/client raises itself: capability, validation, connection, input-required and subscription failures.
import { ConnectionClosedError, ErrorCode, McpError, ServerError, escapeForLog, escapePeerText } from '@mcpc/jsonrpc';
import type { AnnotationKeyword, ValidationIssue } from '@mcpc/schema-validator';
import { brand } from './brand.js';
import { ClientErrorCode } from './codes.js';
import type { CallToolResult } from './types/entities.js';

/** The server did not negotiate the capability a call needs; nothing was sent to it. */
export class CapabilityError extends McpError {
  static {
    brand(this, 'CapabilityError');
  }
  readonly server: string;
  /** The capability, as a path into the server's capabilities (`'logging'`, `'resources.subscribe'`). */
  readonly capability: string;
  readonly method: string | undefined;

  constructor(server: string, capability: string, method?: string) {
    super(
      `server "${server}" did not negotiate the "${capability}" capability${method === undefined ? '' : `, so ${method} was not sent`}; ` +
        'check server.capabilities before calling, or route the call to a server that offers it',
      { code: ClientErrorCode.CapabilityNotSupported },
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
  static {
    brand(this, 'ValidationError');
  }
  readonly server: string | undefined;
  readonly method: string | undefined;
  readonly issues: readonly string[];

  constructor(
    message: string,
    options: {
      server?: string;
      method?: string;
      issues?: readonly string[];
      cause?: unknown;
      code?: ClientErrorCode;
    } = {},
  ) {
    super(message, { code: options.code ?? ClientErrorCode.InvalidShape, cause: options.cause });
    this.server = options.server;
    this.method = options.method;
    this.issues = options.issues ?? [];
  }
}

/**
 * A successful `tools/call` result that breaks the `outputSchema` of the tool definition the call went
 * out under: its `structuredContent` does not match (`reason: 'mismatch'`, `errors` says where), or it
 * carries none (`'missing'`). Thrown with `validateStructuredContent: 'strict'`; in `'warn'` mode (the
 * default) the same finding is logged and the result returned. `result` is the result as received.
 */
export class StructuredContentError extends ValidationError {
  static {
    brand(this, 'StructuredContentError');
  }
  declare readonly server: string;
  readonly tool: string;
  readonly reason: 'mismatch' | 'missing';
  /** Where the value fails its schema: `instancePath`, `keyword`, `schemaPath`, `message`. Empty when missing. */
  readonly errors: readonly ValidationIssue[];
  /** The annotation-only keywords (`format`, `contentSchema`, …) the schema uses, which were not checked. */
  readonly partial: readonly AnnotationKeyword[];
  readonly result: CallToolResult;

  constructor(
    server: string,
    tool: string,
    finding: {
      readonly reason: 'mismatch' | 'missing';
      readonly errors: readonly ValidationIssue[];
      readonly partial: readonly AnnotationKeyword[];
      readonly note?: string;
    },
    result: CallToolResult,
  ) {
    const first = finding.errors[0];
    const more = finding.errors.length > 1 ? ` (and ${finding.errors.length - 1} more)` : '';
    const what =
      finding.reason === 'missing'
        ? `declares an outputSchema, but its result carries no structuredContent${finding.note === undefined ? '' : ` (${finding.note})`}`
        : `returned structuredContent that does not match its outputSchema${first === undefined ? '' : `: ${escapeForLog(first.instancePath || '(root)', 200)} ${escapeForLog(first.message, 300)}${more}`}`;
    super(`tool "${escapeForLog(tool, 100)}" on server "${escapeForLog(server, 100)}" ${what}`, {
      server,
      method: 'tools/call',
      issues: finding.errors.map((e) => `${e.instancePath || '(root)'} ${e.message} (${e.schemaPath})`),
      code: ClientErrorCode.StructuredContentInvalid,
    });
    this.tool = tool;
    this.reason = finding.reason;
    this.errors = finding.errors;
    this.partial = finding.partial;
    this.result = result;
  }
}

/**
 * A tool's `inputSchema` or `outputSchema` this client cannot read, so the call was refused before
 * anything was sent: it declares a JSON Schema dialect this client does not implement
 * (`reason: 'unsupported-dialect'`; `dialect` and `supported` say which), or — an `outputSchema`, with
 * `validateStructuredContent: 'strict'` — it is unusable for another reason (`'unusable'`: an external
 * `$ref`, a malformed keyword, a limit; `cause` is the schema validator's error).
 */
export class ToolSchemaError extends ValidationError {
  static {
    brand(this, 'ToolSchemaError');
  }
  declare readonly server: string;
  readonly tool: string;
  readonly schema: 'inputSchema' | 'outputSchema';
  readonly reason: 'unsupported-dialect' | 'unusable';
  /** The `$schema` the tool declared, for an unsupported dialect. */
  readonly dialect: string | undefined;
  /** The dialects this client reads, by `$schema` URI. */
  readonly supported: readonly string[];
  /** Where in the schema the problem is, when there is one place. */
  readonly schemaPath: string | undefined;
  /**
   * The schema validator's error as it was thrown. Its message may quote the server's schema verbatim,
   * so `cause` is a copy whose message is escaped and capped; this is the original (untrusted text).
   */
  readonly schemaError: unknown;

  constructor(
    server: string,
    tool: string,
    schema: 'inputSchema' | 'outputSchema',
    problem: {
      readonly reason: 'unsupported-dialect' | 'unusable';
      readonly dialect?: string;
      readonly supported: readonly string[];
      readonly schemaPath?: string;
      readonly cause: unknown;
    },
  ) {
    const which = schema === 'inputSchema' ? 'input schema' : 'output schema';
    const detail =
      problem.reason === 'unsupported-dialect'
        ? `its ${which} declares the JSON Schema dialect "${escapeForLog(problem.dialect ?? '', 200)}", which this client does not support (supported: ${problem.supported.join(', ')})`
        : `its ${which} cannot be used to validate the result (${escapeForLog(problem.cause instanceof Error ? problem.cause.message : String(problem.cause), 300)}), and validateStructuredContent is 'strict'`;
    super(`tool "${escapeForLog(tool, 100)}" on server "${escapeForLog(server, 100)}" was not called: ${detail}`, {
      server,
      method: 'tools/call',
      code:
        problem.reason === 'unsupported-dialect'
          ? ClientErrorCode.ToolSchemaUnsupportedDialect
          : ClientErrorCode.ToolSchemaUnusable,
      cause: withSafeMessage(problem.cause),
    });
    this.schemaError = problem.cause;
    this.tool = tool;
    this.schema = schema;
    this.reason = problem.reason;
    this.dialect = problem.dialect;
    this.supported = problem.supported;
    this.schemaPath = problem.schemaPath;
  }
}

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
 * MCP 2026-07-28 `HeaderMismatch` (-32020): the server found the request's HTTP headers
 * (`Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`) at odds with its body. For `tools/call` the client has
 * already refreshed the tool's definition and retried once before this reaches you.
 */
export class HeaderMismatchError extends ServerError {
  static {
    brand(this, 'HeaderMismatchError');
  }
  constructor(error: ServerError) {
    super(error.rpcCode, error.serverMessage, {
      data: error.data,
      ...(error.method !== undefined && { method: error.method }),
      code: ClientErrorCode.HeaderMismatch,
      cause: error,
    });
  }
}

/**
 * MCP 2026-07-28 `MissingRequiredClientCapability` (-32021): the request needs a client capability
 * this client did not declare (register the handler that declares it). `requiredCapabilities` is what
 * the server named (untrusted).
 */
export class MissingRequiredClientCapabilityError extends ServerError {
  static {
    brand(this, 'MissingRequiredClientCapabilityError');
  }
  readonly requiredCapabilities: Readonly<Record<string, unknown>> | undefined;
  constructor(error: ServerError) {
    super(error.rpcCode, error.serverMessage, {
      data: error.data,
      ...(error.method !== undefined && { method: error.method }),
      code: ClientErrorCode.MissingClientCapability,
      cause: error,
    });
    const required = (error.data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities;
    this.requiredCapabilities =
      typeof required === 'object' && required !== null && !Array.isArray(required)
        ? (required as Record<string, unknown>)
        : undefined;
  }
}

/** Why a multi round-trip request stopped: a closed set. */
export type InputRequiredReason =
  /** The server asked for something this client cannot provide (a method it has no handler for). */
  | 'unsupported'
  /** `inputRequests` (or one of them) is not well-formed. */
  | 'malformed'
  /** A host handler failed or refused; answers already produced are kept for a resume. */
  | 'handler-failed'
  /** More than 10 rounds: the server kept asking. */
  | 'too-many-rounds'
  /** The host's `onInputRequiredWait` said cancel. */
  | 'cancelled'
  /** The request's timeout ran out while waiting. */
  | 'timeout'
  /** A later round trip failed (network, timeout, server error) after input was given; `cause` says how. */
  | 'send-failed';

/** What is needed to resume a multi round-trip request where it stopped (see `resumeInputRequired`). */
export interface InputRequiredContinuation {
  readonly server: string;
  readonly method: 'tools/call' | 'resources/read' | 'prompts/get';
  /** The original request's params (without `_meta`, which is rebuilt per request). */
  readonly params: Readonly<Record<string, unknown>>;
  /** The server's last `inputRequests` (untrusted). */
  readonly inputRequests: Readonly<Record<string, unknown>> | undefined;
  /** The server's last opaque `requestState`, echoed as is. */
  readonly requestState: string | undefined;
  /** Answers already produced for `inputRequests`, by key: a resume fulfils only the others. */
  readonly inputResponses: Readonly<Record<string, unknown>>;
}

/**
 * A multi round-trip request (MCP 2026-07-28 `input_required`) could not be completed: `reason` says
 * why. `inputRequests` and `requestState` are the server's last; `continuation` lets
 * `client.resumeInputRequired(error)` take it up again where `resumable` is true.
 */
export class InputRequiredError extends McpError {
  static {
    brand(this, 'InputRequiredError');
  }
  readonly reason: InputRequiredReason;
  readonly server: string;
  readonly method: string;
  readonly inputRequests: Readonly<Record<string, unknown>> | undefined;
  readonly requestState: string | undefined;
  readonly continuation: InputRequiredContinuation;
  readonly resumable: boolean;

  constructor(
    reason: InputRequiredReason,
    detail: string,
    continuation: InputRequiredContinuation,
    options: { resumable: boolean; cause?: unknown },
  ) {
    super(
      `${continuation.method} on server "${continuation.server}" needs input the client could not give: ${detail}`,
      { code: ClientErrorCode.InputRequired, cause: options.cause },
    );
    this.reason = reason;
    this.server = continuation.server;
    this.method = continuation.method;
    this.inputRequests = continuation.inputRequests;
    this.requestState = continuation.requestState;
    this.continuation = continuation;
    this.resumable = options.resumable;
  }
}

/**
 * A multi round-trip request (MCP 2026-07-28) went past a bound the client keeps on what a server may
 * ask of it: more `inputRequests` in one `input_required` round than `maxInputRequests` (code
 * `MCPC_TOO_MANY_INPUT_REQUESTS`; no handler was called for that round), or a `requestState` larger
 * than `maxRequestStateBytes` UTF-8 bytes (`MCPC_REQUEST_STATE_TOO_LARGE`; it was not sent back).
 */
export class InputLimitError extends McpError {
  static {
    brand(this, 'InputLimitError');
  }
  readonly limit: 'inputRequests' | 'requestState';
  readonly server: string;
  readonly method: string;
  /** What the server sent: the number of input requests, or the state's size in bytes. */
  readonly size: number;
  /** The bound it broke (the client option raises it). */
  readonly max: number;

  constructor(limit: 'inputRequests' | 'requestState', server: string, method: string, size: number, max: number) {
    super(
      limit === 'inputRequests'
        ? `${method} on server "${server}" asked for ${size} inputs in one round, more than maxInputRequests (${max}); none was asked of the host`
        : `${method} on server "${server}" sent a requestState of ${size} bytes, more than maxRequestStateBytes (${max}); it was not sent back`,
      { code: limit === 'inputRequests' ? ClientErrorCode.TooManyInputRequests : ClientErrorCode.RequestStateTooLarge },
    );
    this.limit = limit;
    this.server = server;
    this.method = method;
    this.size = size;
    this.max = max;
  }
}

/**
 * A subscription (MCP 2026-07-28 `subscriptions/listen`) could not be had or kept: `reason` says why
 * (`'unsupported'`: the server is not a 2026-07-28 server; `'refused'`: its acknowledgment left out
 * what was asked; `'ended'`: it ended before it was acknowledged; `'closed'`: it was closed).
 */
export class SubscriptionError extends McpError {
  static {
    brand(this, 'SubscriptionError');
  }
  readonly reason: 'unsupported' | 'refused' | 'ended' | 'closed';
  readonly server: string;
  constructor(reason: 'unsupported' | 'refused' | 'ended' | 'closed', server: string, detail: string) {
    super(`subscription on server "${server}": ${detail}`, { code: ClientErrorCode.SubscriptionFailed });
    this.reason = reason;
    this.server = server;
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

/** A name without `{ server }` matched items on several servers; the client does not guess. */
export class AmbiguousNameError extends McpError {
  static {
    brand(this, 'AmbiguousNameError');
  }
  readonly kind: 'tool' | 'prompt' | 'resource';
  /** The tool or prompt name, or the resource URI. */
  readonly item: string;
  /** The servers that offer it. */
  readonly candidates: readonly string[];

  constructor(kind: 'tool' | 'prompt' | 'resource', name: string, candidates: readonly string[]) {
    super(
      `${kind} "${name}" is offered by ${candidates.length} servers (${candidates.map((c) => `"${c}"`).join(', ')}); ` +
        `pass { server } to choose one`,
      { code: ClientErrorCode.AmbiguousName },
    );
    this.kind = kind;
    this.item = name;
    this.candidates = candidates;
  }
}

/** No server offers the tool, prompt or resource asked for. */
export class NotFoundError extends McpError {
  static {
    brand(this, 'NotFoundError');
  }
  readonly kind: 'tool' | 'prompt' | 'resource' | 'server';
  /** The name (or URI) that was not found. */
  readonly item: string;

  constructor(
    kind: 'tool' | 'prompt' | 'resource' | 'server',
    name: string,
    message: string,
    code: ClientErrorCode = ClientErrorCode.NotFound,
  ) {
    super(message, { code });
    this.kind = kind;
    this.item = name;
  }
}

export class ToolNotFoundError extends NotFoundError {
  static {
    brand(this, 'ToolNotFoundError');
  }
  /** The servers whose tool lists were searched. */
  readonly servers: readonly string[];
  /** Listed tool names close to the one asked for (server text: escape before printing). */
  readonly suggestions: readonly string[];
  constructor(name: string, servers: readonly string[], suggestions: readonly string[] = []) {
    const close =
      suggestions.length === 0
        ? ''
        : `; did you mean ${suggestions.map((s) => `"${escapePeerText(s, 64)}"`).join(', ')}?`;
    super(
      'tool',
      name,
      `no server offers a tool named "${escapePeerText(name, 200)}" (searched ${list(servers)})${close}; call listTools() to see what is offered`,
      ClientErrorCode.ToolNotFound,
    );
    this.servers = servers;
    this.suggestions = suggestions;
  }
}

export class PromptNotFoundError extends NotFoundError {
  static {
    brand(this, 'PromptNotFoundError');
  }
  constructor(name: string, servers: readonly string[]) {
    super(
      'prompt',
      name,
      `no server offers a prompt named "${name}" (searched ${list(servers)}); call listPrompts() to see what is offered`,
      ClientErrorCode.PromptNotFound,
    );
  }
}

export class ResourceNotFoundError extends NotFoundError {
  static {
    brand(this, 'ResourceNotFoundError');
  }
  /** When the server itself said so (-32602 with the URI, or the older -32002): its `ServerError`. */
  override readonly cause: unknown;
  /** The JSON-RPC code the server answered with, when it did. */
  readonly rpcCode: number | undefined;
  constructor(
    uri: string,
    servers: readonly string[],
    answered?: { readonly server: string; readonly error: unknown },
  ) {
    super(
      'resource',
      uri,
      answered !== undefined
        ? `server "${answered.server}" has no resource "${escapeForLog(uri, 200)}"`
        : `no server lists the resource "${uri}" or a template that matches it (searched ${list(servers)}); pass { server } to read it from a specific server`,
      ClientErrorCode.ResourceNotFound,
    );
    this.cause = answered?.error;
    const code = (answered?.error as { rpcCode?: unknown } | undefined)?.rpcCode;
    this.rpcCode = typeof code === 'number' ? code : undefined;
  }
}

/** `{ server }` named a server the client does not have. */
export class UnknownServerError extends NotFoundError {
  static {
    brand(this, 'UnknownServerError');
  }
  constructor(name: string, servers: readonly string[]) {
    super(
      'server',
      name,
      `the client has no server named "${name}" (it has ${list(servers)})`,
      ClientErrorCode.UnknownServer,
    );
  }
}

/**
 * Following `nextCursor` did not end: the server repeated a cursor (a loop), or the list ran past the
 * page bound. `items` holds what was collected before the client stopped.
 */
export class PaginationError extends McpError {
  static {
    brand(this, 'PaginationError');
  }
  readonly reason: 'cursor-loop' | 'page-limit';
  readonly server: string;
  readonly method: string;
  readonly pages: number;
  readonly items: readonly unknown[];

  constructor(
    reason: 'cursor-loop' | 'page-limit',
    server: string,
    method: string,
    pages: number,
    items: readonly unknown[],
  ) {
    super(
      reason === 'cursor-loop'
        ? `server "${server}" returned a nextCursor it had already returned, after ${pages} pages of ${method}: the list would never end`
        : `${method} on server "${server}" ran past ${pages} pages; raise the client's maxPages if the list is really that long`,
      { code: reason === 'cursor-loop' ? ClientErrorCode.PaginationLoop : ClientErrorCode.PaginationLimit },
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

/**
 * A copy of an error that quotes peer text (a schema validator's error quoting the server's schema) with
 * its message escaped and capped: hosts print a cause chain as readily as a message. The copy keeps
 * the prototype and own properties, so `instanceof`, `code` and the rest still read the same.
 */
function withSafeMessage(error: unknown): unknown {
  if (!(error instanceof Error)) return typeof error === 'string' ? escapePeerText(error, 300) : error;
  const copy = Object.assign(Object.create(Object.getPrototypeOf(error) as object) as Error, error);
  const message = escapePeerText(error.message, 300);
  Object.defineProperty(copy, 'message', { value: message, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(copy, 'stack', {
    value: `${error.name}: ${message}`,
    writable: true,
    configurable: true,
    enumerable: false,
  });
  return copy;
}

const list = (servers: readonly string[]): string =>
  servers.length === 0 ? 'no servers' : servers.map((s) => `"${s}"`).join(', ');
