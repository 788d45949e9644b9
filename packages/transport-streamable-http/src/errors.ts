// The errors of this transport: its own (an expired session), and those of @mcpc/http its users catch.
import { HttpError } from '@mcpc/http';
import { brand } from './brand.js';
import { StreamableHttpErrorCode } from './codes.js';

// Raised by the HTTP exchanges this transport makes; exported from here too, so that a caller of this
// transport never needs to know where they are declared.
export {
  HttpError,
  UnauthorizedError,
  TransientServerError,
  NetworkError,
  ResponseTooLargeError,
  ResponseStreamClosedError,
  HttpClientUnavailableError,
  ProxyConfigError,
  ProxyConnectError,
  ReplyQueueFullError,
} from '@mcpc/http';

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
