export { StreamableHttpTransport } from './transport.js';
export type { StreamableHttpTransportOptions, HeadersOption } from './options.js';
export type { HttpClientChoice, UndiciDispatcher } from './http-client.js';
export type { BackoffOptions } from './backoff.js';
export type { HttpAuth, AuthContext, AuthChallenge } from './http.js';
export {
  HttpError,
  UnauthorizedError,
  SessionExpiredError,
  TransientServerError,
  NetworkError,
  ResponseTooLargeError,
  ResponseStreamClosedError,
  HttpClientUnavailableError,
} from './errors.js';
export { ReplyQueueFullError } from './replies.js';
