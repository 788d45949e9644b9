// A call's failed checks: a capability not negotiated, a shape or schema that fails, a header or capability refused.
//
// The refusals are the server's: a header it refused (HeaderMismatch) or a client capability it requires.
import { McpError, ServerError, escapeForLog, escapePeerText } from '@mcpc/jsonrpc';
import type { AnnotationKeyword, ValidationIssue } from '@mcpc/schema-validator';
import { brand } from '../brand.js';
import { ClientErrorCode } from '../codes.js';
import type { CallToolResult } from '../types/entities.js';

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
  /**
   * `'mismatch'`: the value breaks the schema; `'missing'`: no structuredContent; `'undecided'`: a check
   * could not finish (a pattern past its deadline, a run-time limit), so the value was never found to
   * break the schema — never reported as a mismatch.
   */
  readonly reason: 'mismatch' | 'missing' | 'undecided';
  /** Where the value fails its schema: `instancePath`, `keyword`, `schemaPath`, `message`. Empty when missing. */
  readonly errors: readonly ValidationIssue[];
  /** The annotation-only keywords (`format`, `contentSchema`, …) the schema uses, which were not checked. */
  readonly partial: readonly AnnotationKeyword[];
  readonly result: CallToolResult;

  constructor(
    server: string,
    tool: string,
    finding: {
      readonly reason: 'mismatch' | 'missing' | 'undecided';
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
        : finding.reason === 'undecided'
          ? `returned structuredContent that could not be checked against its outputSchema (not a mismatch)${first === undefined ? '' : `: ${escapeForLog(first.message, 300)}`}`
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
