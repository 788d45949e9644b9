// The error of this transport's own: an expired session (the HTTP ones come from @mcpc/http/errors).
import { HttpError } from '@mcpc/http';
import { brand } from './brand.js';
import { StreamableHttpErrorCode } from './codes.js';

/**
 * The server ended the session (HTTP 404 to a request carrying its id). A fresh session was started;
 * this request was not re-sent because re-sending it may not be safe (a `tools/call` may already have
 * run): decide for yourself.
 */
export class SessionExpiredError extends HttpError {
  static {
    brand(this, 'SessionExpiredError');
  }
  readonly method: string | undefined;

  constructor(method: string | undefined) {
    super(
      404,
      `the server's session expired while sending ${method ?? 'a message'}; a new session was started but the message was not re-sent, since it may already have taken effect`,
      {
        code: StreamableHttpErrorCode.SessionExpired,
      },
    );
    this.method = method;
  }
}

// This package's errors in `AnyMcpcError` (see @mcpc/jsonrpc's `McpcErrors`).
declare module '@mcpc/jsonrpc' {
  interface McpcErrors {
    '@mcpc/transport-streamable-http.SessionExpiredError': SessionExpiredError & {
      readonly code: typeof StreamableHttpErrorCode.SessionExpired;
    };
  }
}
