export { StreamableHttpTransport } from './transport.js';
export type { StreamableHttpTransportOptions } from './options.js';
export type {
  HeadersOption,
  HttpClientChoice,
  UndiciDispatcher,
  BackoffOptions,
  HttpAuth,
  AuthContext,
  AuthChallenge,
} from '@mcpc/http';
export {
  HttpError,
  UnauthorizedError,
  SessionExpiredError,
  TransientServerError,
  NetworkError,
  ResponseTooLargeError,
  ResponseStreamClosedError,
  HttpClientUnavailableError,
  ProxyConfigError,
  ProxyConnectError,
  ReplyQueueFullError,
} from './errors.js';
