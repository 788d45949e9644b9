// The errors HTTP exchanges raise: statuses that are not answers, unreachable servers, bodies past their caps.
import { ServerError, TransportError, TransportErrorCode } from '@mcpc/jsonrpc';
import { unauthorized } from './diagnostics.js';

/** The server answered with an HTTP status the transport cannot turn into a JSON-RPC message. */
export class HttpError extends TransportError {
  static override readonly brand: string = 'HttpError';
  readonly status: number;
  /** The media type of the response (`text/html`), as the server sent it (untrusted); undefined when unknown. */
  readonly contentType: string | undefined;

  constructor(status: number, message: string, options?: { code?: string; cause?: unknown; contentType?: string }) {
    super(message, { code: options?.code ?? TransportErrorCode.HttpError, cause: options?.cause });
    this.status = status;
    this.contentType = options?.contentType;
  }
}

/**
 * HTTP 401 or 403: the server wants (other) credentials. `wwwAuthenticate` is the challenge, for an
 * auth provider to act on. The message names the endpoint (`context.url`) and what to do: pass `auth`
 * when none was configured (`context.authConfigured`), else that the credentials were refused.
 */
export class UnauthorizedError extends HttpError {
  static override readonly brand: string = 'UnauthorizedError';
  readonly wwwAuthenticate: string | undefined;

  constructor(
    status: number,
    wwwAuthenticate: string | undefined,
    context?: { readonly url?: URL; readonly authConfigured?: boolean },
  ) {
    super(status, unauthorized(context?.url, status, context?.authConfigured === true), {
      code: TransportErrorCode.Unauthorized,
    });
    this.wwwAuthenticate = wwwAuthenticate;
  }
}

/**
 * A failure where the request most likely did not reach the server: HTTP 5xx (it is a `ServerError`,
 * so handlers of server errors still see it). Retried for idempotent requests, never for `tools/call`.
 */
export class TransientServerError extends ServerError {
  static override readonly brand: string = 'TransientServerError';
  readonly status: number;

  constructor(status: number, method: string | undefined) {
    super(-32603, `the server failed with HTTP ${status}${method === undefined ? '' : ` on ${method}`}`, {
      code: TransportErrorCode.TransientServerError,
      ...(method === undefined ? {} : { method }),
    });
    this.status = status;
  }
}

/** The connection failed (refused, reset, DNS, TLS) before an answer arrived. `cause` is the HTTP client's error (undici's or Node's). */
export class NetworkError extends TransportError {
  static override readonly brand: string = 'NetworkError';

  constructor(url: URL, cause: unknown) {
    const why = cause instanceof Error ? `: ${cause.message}` : '';
    super(`could not reach ${url.origin}${why}`, { code: TransportErrorCode.NetworkError, cause });
  }
}

/** A response body, once decompressed, or one SSE event, grew past its configured limit. */
export class ResponseTooLargeError extends TransportError {
  static override readonly brand: string = 'ResponseTooLargeError';
  readonly limitBytes: number;

  constructor(limitBytes: number, what = 'the response body') {
    super(
      `${what} exceeded the ${limitBytes}-byte limit (raise maxDecompressedBodyBytes if such payloads are expected)`,
      {
        code: 'MCPC_RESPONSE_TOO_LARGE',
      },
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
  static override readonly brand: string = 'ResponseStreamClosedError';
  readonly method: string | undefined;
  /** Whether the protocol offered resumption (the classic protocol did; the stateless one does not). */
  readonly resumable: boolean;

  /** `options.message` replaces the whole message (a response that was not a stream at all says so). */
  constructor(method: string | undefined, detail: string, options?: { resumable?: boolean; message?: string }) {
    super(
      options?.message ??
        `the response stream${method === undefined ? '' : ` of ${method}`} closed before the result arrived: ${detail}`,
      {
        code: TransportErrorCode.ResponseStreamClosed,
      },
    );
    this.method = method;
    this.resumable = options?.resumable ?? true;
  }
}

/**
 * The HTTP client the transport needs is not installed: undici, asked for with `httpClient: 'undici'`,
 * or needed for an `https:` proxy (Node's own client here speaks plain HTTP to a proxy).
 */
export class HttpClientUnavailableError extends TransportError {
  static override readonly brand: string = 'HttpClientUnavailableError';

  constructor(why: string) {
    super(`${why}, but undici is not installed: install it next to this package (npm install undici)`, {
      code: 'MCPC_HTTP_CLIENT_UNAVAILABLE',
    });
  }
}

/** A proxy variable (`HTTP_PROXY`, `HTTPS_PROXY`) that names no usable proxy: not a URL, or not `http:`. */
export class ProxyConfigError extends TransportError {
  static override readonly brand: string = 'ProxyConfigError';
  /** The variable at fault (its value is not repeated: it may carry credentials). */
  readonly variable: string;

  constructor(variable: string, why: string) {
    super(`${variable} names no usable proxy: ${why}`, { code: 'MCPC_PROXY_CONFIG_INVALID' });
    this.variable = variable;
  }
}

/**
 * The proxy refused to open a tunnel (`CONNECT`) to an `https:` server: `status` is its answer (407:
 * it wants credentials, in the proxy URL's userinfo). Raised as the `cause` of a `NetworkError`.
 */
export class ProxyConnectError extends TransportError {
  static override readonly brand: string = 'ProxyConnectError';
  readonly status: number;

  constructor(status: number, target: string) {
    super(
      `the proxy answered HTTP ${status} to CONNECT ${target}${status === 407 ? ' (it wants credentials: put them in the proxy URL, http://user:password@host:port)' : ''}`,
      {
        code: 'MCPC_PROXY_CONNECT_FAILED',
      },
    );
    this.status = status;
  }
}
