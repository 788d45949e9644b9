// The errors HTTP exchanges raise: statuses that are not answers, unreachable servers, bodies past their caps.
import { TransportError, TransportErrorCode } from '@mcpc/jsonrpc';
import { brand } from './brand.js';
import { HttpErrorCode } from './codes.js';
import { unauthorized } from './diagnostics.js';
import type { ReplyQueueFullError } from './replies.js';

// The generic transport failures HTTP exchanges raise are declared in the kernel, so a caller of
// @mcpc/client catches them without this package; re-exported, the same classes, for callers of this one.
export { TransientServerError, NetworkError, ResponseTooLargeError, ResponseStreamClosedError } from '@mcpc/jsonrpc';

/** The server answered with an HTTP status the transport cannot turn into a JSON-RPC message. */
export class HttpError extends TransportError {
  static {
    brand(this, 'HttpError');
  }
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
  static {
    brand(this, 'UnauthorizedError');
  }
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
 * The HTTP client the transport needs cannot run here: undici, asked for with `httpClient: 'undici'` or
 * needed for an `https:` proxy (Node's own client here speaks plain HTTP to a proxy), is not installed;
 * or `'node'` / `'undici'` was asked for where there is no `node:http` (a browser, a Worker).
 */
export class HttpClientUnavailableError extends TransportError {
  static {
    brand(this, 'HttpClientUnavailableError');
  }

  /** `missing`: what is not there (undici, by default). */
  constructor(why: string, missing = 'undici is not installed: install it next to this package (npm install undici)') {
    super(`${why}, but ${missing}`, { code: HttpErrorCode.HttpClientUnavailable });
  }
}

/** A proxy variable (`HTTP_PROXY`, `HTTPS_PROXY`) that names no usable proxy: not a URL, or not `http:`. */
export class ProxyConfigError extends TransportError {
  static {
    brand(this, 'ProxyConfigError');
  }
  /** The variable at fault (its value is not repeated: it may carry credentials). */
  readonly variable: string;

  constructor(variable: string, why: string) {
    super(`${variable} names no usable proxy: ${why}`, { code: HttpErrorCode.ProxyConfigInvalid });
    this.variable = variable;
  }
}

/**
 * The proxy refused to open a tunnel (`CONNECT`) to an `https:` server: `status` is its answer (407:
 * it wants credentials, in the proxy URL's userinfo). Raised as the `cause` of a `NetworkError`.
 */
export class ProxyConnectError extends TransportError {
  static {
    brand(this, 'ProxyConnectError');
  }
  readonly status: number;

  constructor(status: number, target: string) {
    super(
      `the proxy answered HTTP ${status} to CONNECT ${target}${status === 407 ? ' (it wants credentials: put them in the proxy URL, http://user:password@host:port)' : ''}`,
      {
        code: HttpErrorCode.ProxyConnectFailed,
      },
    );
    this.status = status;
  }
}

// This package's errors in `AnyMcpcError` (see @mcpc/jsonrpc's `McpcErrors`).
declare module '@mcpc/jsonrpc' {
  interface McpcErrors {
    '@mcpc/http.HttpClientUnavailableError': HttpClientUnavailableError & {
      readonly code: typeof HttpErrorCode.HttpClientUnavailable;
    };
    '@mcpc/http.HttpError': HttpError & { readonly code: typeof TransportErrorCode.HttpError };
    '@mcpc/http.ProxyConfigError': ProxyConfigError & { readonly code: typeof HttpErrorCode.ProxyConfigInvalid };
    '@mcpc/http.ProxyConnectError': ProxyConnectError & { readonly code: typeof HttpErrorCode.ProxyConnectFailed };
    '@mcpc/http.ReplyQueueFullError': ReplyQueueFullError & { readonly code: typeof HttpErrorCode.ReplyQueueFull };
    '@mcpc/http.UnauthorizedError': UnauthorizedError & { readonly code: typeof TransportErrorCode.Unauthorized };
  }
}
