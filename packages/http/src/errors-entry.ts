// The `@mcpc/http/errors` entry: every error an HTTP exchange can raise, in one list.
//
// The HTTP transports re-export it whole, so their callers catch them without knowing where they are declared.
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
} from './errors.js';
export { ReplyQueueFullError } from './replies.js';
export { HttpErrorCode } from './codes.js';
