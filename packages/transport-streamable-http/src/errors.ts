import { ServerError, TransportError } from '@mcpc/jsonrpc';
import { unauthorized } from './diagnostics.js';

/** The server answered with an HTTP status the transport cannot turn into a JSON-RPC message. */
export class HttpError extends TransportError {
  static override readonly brand: string = 'HttpError';
  readonly status: number;
  /** The media type of the response (`text/html`), as the server sent it (untrusted); undefined when unknown. */
  readonly contentType: string | undefined;

  constructor(status: number, message: string, options?: { code?: string; cause?: unknown; contentType?: string }) {
    super(message, { code: options?.code ?? 'MCPC_HTTP_ERROR', cause: options?.cause });
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

  constructor(status: number, wwwAuthenticate: string | undefined, context?: { readonly url?: URL; readonly authConfigured?: boolean }) {
    super(status, unauthorized(context?.url, status, context?.authConfigured === true), { code: 'MCPC_UNAUTHORIZED' });
    this.wwwAuthenticate = wwwAuthenticate;
  }
}

/**
 * The server ended the session (HTTP 404 to a request carrying its id). A fresh session was started;
 * this request was not re-sent because re-sending it may not be safe (a `tools/call` may already have
 * run): decide for yourself.
 */
export class SessionExpiredError extends HttpError {
  static override readonly brand: string = 'SessionExpiredError';
  readonly method: string | undefined;

  constructor(method: string | undefined) {
    super(404, `the server's session expired while sending ${method ?? 'a message'}; a new session was started but the message was not re-sent, since it may already have taken effect`, {
      code: 'MCPC_SESSION_EXPIRED',
    });
    this.method = method;
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
      code: 'MCPC_TRANSIENT_SERVER_ERROR',
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
    super(`could not reach ${url.origin}${why}`, { code: 'MCPC_NETWORK_ERROR', cause });
  }
}

/** A response body, once decompressed, or one SSE event, grew past its configured limit. */
export class ResponseTooLargeError extends TransportError {
  static override readonly brand: string = 'ResponseTooLargeError';
  readonly limitBytes: number;

  constructor(limitBytes: number, what = 'the response body') {
    super(`${what} exceeded the ${limitBytes}-byte limit (raise maxDecompressedBodyBytes if such payloads are expected)`, {
      code: 'MCPC_RESPONSE_TOO_LARGE',
    });
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
    super(options?.message ?? `the response stream${method === undefined ? '' : ` of ${method}`} closed before the result arrived: ${detail}`, {
      code: 'MCPC_RESPONSE_STREAM_CLOSED',
    });
    this.method = method;
    this.resumable = options?.resumable ?? true;
  }
}

/**
 * The HTTP client the transport needs is not installed: undici, asked for with `httpClient: 'undici'`,
 * or needed because `HTTP_PROXY` / `HTTPS_PROXY` is set (Node's own client cannot use a proxy).
 */
export class HttpClientUnavailableError extends TransportError {
  static override readonly brand: string = 'HttpClientUnavailableError';

  constructor(why: string) {
    super(`${why}, but undici is not installed: install it next to this package (npm install undici)`, { code: 'MCPC_HTTP_CLIENT_UNAVAILABLE' });
  }
}
