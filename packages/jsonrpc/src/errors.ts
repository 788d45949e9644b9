// The kernel's errors: McpError (the base of every mcpc error), protocol, server, timeout, transport and state errors.
import { JsonRpcErrorCode, TransportErrorCode } from './codes.js';
import type { JsonRpcId } from './messages.js';
import { escapePeerText } from './peer-text.js';

// An error class's brand lives under BRAND (a `Symbol.for` symbol scoped by package, `@mcpc/jsonrpc.McpError`);
// an instance lists the brands of its class chain under BRANDS. Both are `Symbol.for` keys, so every copy
// of every @mcpc package agrees on them, and neither is a declared member: they stay out of the public types.
const BRAND = Symbol.for('@mcpc/error.brand');
const BRANDS = Symbol.for('@mcpc/error.brands');

type Constructor = abstract new (...args: never[]) => unknown;

/**
 * The brander of one package's error classes: `brandFor('@mcpc/oauth')(cls, 'OAuthError')` brands `cls` as
 * `Symbol.for('@mcpc/oauth.OAuthError')`, which `instanceof` on any `McpError` class reads across copies of
 * the package. Call it in the class's static initialization block, which keeps it out of the public type.
 * Scoped by package (an npm name), so two packages never collide: a package of your own can mark its
 * subclasses of `McpError` the same way.
 */
export function brandFor(pkg: string): (cls: Constructor, name: string) => void {
  if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/.test(pkg))
    throw new TypeError(`brandFor needs an npm package name, not ${JSON.stringify(pkg)}`);
  return (cls, name) => {
    if (!/^[A-Za-z_$][\w$]*$/.test(name)) throw new TypeError(`a brand names a class, not ${JSON.stringify(name)}`);
    Object.defineProperty(cls, BRAND, { value: Symbol.for(`${pkg}.${name}`) });
  };
}

/** Brands a class of this package. */
const brand = brandFor('@mcpc/jsonrpc');

/**
 * Ordinary `instanceof`, used when a class carries no brand of its own (a third party's subclass)
 * or the value was not made by any copy of this package.
 */
const ordinaryHasInstance = (cls: Constructor, value: unknown): boolean =>
  Function.prototype[Symbol.hasInstance].call(cls, value);

/**
 * The root of every error an `@mcpc` package throws.
 *
 * `code` is a stable string a caller can switch on (`MCPC_REQUEST_TIMEOUT`, …: the constants of `JsonRpcErrorCode`). Errors that carry a
 * JSON-RPC error code expose it as `rpcCode`. `instanceof` holds across duplicate installs of the
 * package: each class is branded with a `Symbol.for('@mcpc/<package>.<Class>')`, instances carry the
 * brands of their whole chain under a `Symbol.for` key, and `Symbol.hasInstance` compares brands rather
 * than prototype identity.
 */
export class McpError extends Error {
  static {
    brand(this, 'McpError');
    // The brands of an error's class chain, read by `Symbol.hasInstance` on any copy of any @mcpc
    // package: a getter defined here rather than in the class body, so it is no member of the public type.
    Object.defineProperty(this.prototype, BRANDS, {
      get(this: McpError): symbol[] {
        const brands: symbol[] = [];
        for (let proto: unknown = Object.getPrototypeOf(this); proto !== null; proto = Object.getPrototypeOf(proto)) {
          const ctor: unknown = (proto as { constructor?: unknown }).constructor;
          if (typeof ctor === 'function' && Object.hasOwn(ctor, BRAND))
            brands.push((ctor as unknown as { [BRAND]: symbol })[BRAND]);
        }
        return brands;
      },
    });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== 'object' || value === null) return false;
    // A subclass that declares no brand of its own must not inherit its parent's answer.
    if (!Object.hasOwn(this, BRAND)) return ordinaryHasInstance(this, value);
    const brands = (value as { [BRANDS]?: unknown })[BRANDS];
    if (!Array.isArray(brands)) return ordinaryHasInstance(this, value);
    return brands.includes((this as unknown as { [BRAND]: symbol })[BRAND]);
  }

  /** A stable, documented identifier for this kind of failure. */
  readonly code: string;

  constructor(message: string, options?: { code?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = options?.code ?? JsonRpcErrorCode.Error;
    this.name = new.target.name;
  }
}

/**
 * A message from the peer that is not valid JSON-RPC 2.0, or not one this engine accepts (batches).
 * `reason` is a closed set; `id` is the message's id when one could be read, so a request can still be
 * answered with an error.
 */
export type ProtocolErrorReason =
  | 'parse-error'
  | 'not-an-object'
  | 'batch-unsupported'
  | 'invalid-version'
  | 'invalid-id'
  | 'invalid-method'
  | 'invalid-params'
  | 'result-and-error'
  | 'no-result-or-error'
  | 'invalid-error-object'
  | 'unknown-shape';

export class JsonRpcProtocolError extends McpError {
  static {
    brand(this, 'JsonRpcProtocolError');
  }
  declare readonly code: typeof JsonRpcErrorCode.ProtocolError;
  readonly reason: ProtocolErrorReason;
  /** The JSON-RPC code a reply to this message would carry: -32700 for unparsable text, else -32600. */
  readonly rpcCode: number;
  readonly id: JsonRpcId | undefined;
  /**
   * For text that is not JSON: the start of it, escaped and capped (`escapePeerText`, 120 characters),
   * so a banner a server printed on its protocol stream can be named. Undefined otherwise.
   */
  readonly excerpt: string | undefined;

  constructor(
    reason: ProtocolErrorReason,
    message: string,
    options?: { id?: JsonRpcId; cause?: unknown; excerpt?: string },
  ) {
    super(message, { code: JsonRpcErrorCode.ProtocolError, cause: options?.cause });
    this.reason = reason;
    this.rpcCode = reason === 'parse-error' ? -32700 : -32600;
    this.id = options?.id;
    this.excerpt = options?.excerpt;
  }
}

/** Cap on the peer's text in a `ServerError`'s `message` (the whole of it stays on `serverMessage`). */
export const SERVER_MESSAGE_LIMIT = 500;

/**
 * The peer answered a request with a JSON-RPC error. `message` is the peer's message made safe to print
 * (control, line-breaking and bidi characters escaped, capped: see `escapePeerText`); `serverMessage`
 * is the message exactly as the peer sent it (untrusted: escape it before showing it).
 */
export class ServerError extends McpError {
  static {
    brand(this, 'ServerError');
  }
  /** The JSON-RPC error code the peer sent. */
  readonly rpcCode: number;
  /** The error's `data`, as the peer sent it (untrusted). */
  readonly data: unknown;
  /** The method of the request that failed. */
  readonly method: string | undefined;
  /** The error's `message` exactly as the peer sent it (untrusted, uncapped). */
  readonly serverMessage: string;

  constructor(
    rpcCode: number,
    message: string,
    options?: { data?: unknown; method?: string; code?: string; cause?: unknown },
  ) {
    super(escapePeerText(message, SERVER_MESSAGE_LIMIT), {
      code: options?.code ?? JsonRpcErrorCode.ServerError,
      cause: options?.cause,
    });
    this.rpcCode = rpcCode;
    this.data = options?.data;
    this.method = options?.method;
    this.serverMessage = message;
  }
}

/**
 * Thrown by a local request handler to answer the peer with a specific JSON-RPC error. Any other
 * exception from a handler is answered with a constant "Internal error" and logged locally, so host
 * details never reach the peer.
 */
export class ErrorReply extends McpError {
  static {
    brand(this, 'ErrorReply');
  }
  declare readonly code: typeof JsonRpcErrorCode.ErrorReply;
  readonly rpcCode: number;
  readonly data: unknown;

  constructor(rpcCode: number, message: string, data?: unknown) {
    super(message, { code: JsonRpcErrorCode.ErrorReply });
    this.rpcCode = rpcCode;
    this.data = data;
  }
}

/** The caller's `AbortSignal` fired. `cause` is the signal's reason. Named `AbortError`, as fetch does. */
export class AbortError extends McpError {
  static {
    brand(this, 'AbortError');
  }
  declare readonly code: typeof JsonRpcErrorCode.Aborted;
  readonly method: string | undefined;

  constructor(method: string | undefined, reason: unknown) {
    super(method === undefined ? 'The operation was aborted' : `${method} was aborted`, {
      code: JsonRpcErrorCode.Aborted,
      cause: reason,
    });
    this.method = method;
  }
}

/** A failure of the connection to the peer: spawn, I/O, framing, HTTP. Transports subclass it. */
export class TransportError extends McpError {
  static {
    brand(this, 'TransportError');
  }

  constructor(message: string, options?: { code?: string; cause?: unknown }) {
    super(message, { code: options?.code ?? JsonRpcErrorCode.TransportError, cause: options?.cause });
  }
}

/**
 * A request got no answer within its timeout. A `notifications/cancelled` was sent where allowed. A
 * `TransportError`: the connection did not deliver the answer in time, and a caller catches it as one.
 */
export class RequestTimeoutError extends TransportError {
  static {
    brand(this, 'RequestTimeoutError');
  }
  declare readonly code: typeof JsonRpcErrorCode.RequestTimeout;
  readonly method: string;
  readonly timeoutMs: number;

  constructor(method: string, timeoutMs: number) {
    super(`${method} timed out after ${timeoutMs} ms`, { code: JsonRpcErrorCode.RequestTimeout });
    this.method = method;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * A failure where the request most likely did not reach the server: HTTP 5xx (it is a `ServerError`,
 * so handlers of server errors still see it). Retried for idempotent requests, never for `tools/call`.
 * Declared here, not in an HTTP package, so a caller of `@mcpc/client` can catch it without installing
 * that package; a third-party transport raises the same.
 */
export class TransientServerError extends ServerError {
  static {
    brand(this, 'TransientServerError');
  }
  declare readonly code: typeof TransportErrorCode.TransientServerError;
  readonly status: number;

  constructor(status: number, method: string | undefined) {
    super(-32603, `the server failed with HTTP ${status}${method === undefined ? '' : ` on ${method}`}`, {
      code: TransportErrorCode.TransientServerError,
      ...(method === undefined ? {} : { method }),
    });
    this.status = status;
  }
}

/**
 * The connection failed (refused, reset, DNS, TLS) before an answer arrived. `cause` is the network
 * client's error (undici's or Node's).
 */
export class NetworkError extends TransportError {
  static {
    brand(this, 'NetworkError');
  }
  declare readonly code: typeof TransportErrorCode.NetworkError;

  constructor(url: URL, cause: unknown) {
    const why = cause instanceof Error ? `: ${cause.message}` : '';
    super(`could not reach ${url.origin}${why}`, { code: TransportErrorCode.NetworkError, cause });
  }
}

/** A response body, once decompressed, or one SSE event, grew past its configured limit. */
export class ResponseTooLargeError extends TransportError {
  static {
    brand(this, 'ResponseTooLargeError');
  }
  declare readonly code: typeof TransportErrorCode.ResponseTooLarge;
  readonly limitBytes: number;

  constructor(limitBytes: number, what = 'the response body') {
    super(
      `${what} exceeded the ${limitBytes}-byte limit (raise maxDecompressedBodyBytes if such payloads are expected)`,
      { code: TransportErrorCode.ResponseTooLarge },
    );
    this.limitBytes = limitBytes;
  }
}

/**
 * A response stream ended without the answer and could not be resumed. On a stateless (MCP
 * 2026-07-28) request there is no resumption (`resumable` is false): the break cancelled the request
 * at the server, and the client may re-issue it under a new id.
 */
export class ResponseStreamClosedError extends TransportError {
  static {
    brand(this, 'ResponseStreamClosedError');
  }
  declare readonly code: typeof TransportErrorCode.ResponseStreamClosed;
  readonly method: string | undefined;
  /** Whether the protocol offered resumption (the classic protocol did; the stateless one does not). */
  readonly resumable: boolean;

  /** `options.message` replaces the whole message (a response that was not a stream at all says so). */
  constructor(method: string | undefined, detail: string, options?: { resumable?: boolean; message?: string }) {
    super(
      options?.message ??
        `the response stream${method === undefined ? '' : ` of ${method}`} closed before the result arrived: ${detail}`,
      { code: TransportErrorCode.ResponseStreamClosed },
    );
    this.method = method;
    this.resumable = options?.resumable ?? true;
  }
}

/** A frame from the peer exceeded the configured maximum size. The transport closes after it. */
export class MessageTooLargeError extends TransportError {
  static {
    brand(this, 'MessageTooLargeError');
  }
  declare readonly code: typeof JsonRpcErrorCode.MessageTooLarge;
  readonly limitBytes: number;

  constructor(limitBytes: number) {
    super(`a message from the server exceeded the ${limitBytes}-byte limit`, {
      code: JsonRpcErrorCode.MessageTooLarge,
    });
    this.limitBytes = limitBytes;
  }
}

/**
 * The connection is closed: the request was pending when it closed, or was made after. `cause` says
 * why it closed (a process exit, a transport error), when known.
 */
export class ConnectionClosedError extends McpError {
  static {
    brand(this, 'ConnectionClosedError');
  }
  // `code` stays a `string`: a subclass may carry a code of its own (the client's `ClientClosedError`).
  readonly method: string | undefined;

  constructor(method: string | undefined, cause?: unknown) {
    const why = cause instanceof Error ? `: ${cause.message}` : '';
    super(`${method === undefined ? 'the connection' : method + ' failed: the connection'} is closed${why}`, {
      code: JsonRpcErrorCode.ConnectionClosed,
      cause,
    });
    this.method = method;
  }
}

/**
 * The peer ended a request of ours with `notifications/cancelled` (MCP 2026-07-28 servers end a
 * `subscriptions/listen` stream that way on stdio). The request will not be answered.
 */
export class CancelledByPeerError extends McpError {
  static {
    brand(this, 'CancelledByPeerError');
  }
  declare readonly code: typeof JsonRpcErrorCode.CancelledByPeer;
  readonly method: string;
  /** The peer's reason (untrusted text), when it gave one. */
  readonly reason: string | undefined;

  constructor(method: string, reason: string | undefined) {
    super(`the server cancelled ${method}${reason === undefined ? '' : `: "${escapePeerText(reason, 200)}"`}`, {
      code: JsonRpcErrorCode.CancelledByPeer,
    });
    this.method = method;
    this.reason = reason;
  }
}

/**
 * The engine was used in a state that does not allow it: `start()` called a second time (code
 * `MCPC_ENGINE_ALREADY_STARTED`). A programming error, not a connection failure.
 */
export class EngineStateError extends McpError {
  static {
    brand(this, 'EngineStateError');
  }
  declare readonly code: typeof JsonRpcErrorCode.AlreadyStarted;

  constructor(message: string) {
    super(message, { code: JsonRpcErrorCode.AlreadyStarted });
  }
}
