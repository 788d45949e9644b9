// The public entry of @mcpc/transport-streamable-http.
export { StreamableHttpTransport } from './transport.js';
export type { StreamableHttpTransportOptions, HttpAuth } from './options.js';
export { streamableHttp, http, type StreamableHttpConfigOptions, type PlainHttpConfigOptions } from './config.js';
export type { HeadersOption, HttpClientChoice, UndiciDispatcher, BackoffOptions } from '@mcpc/http';
export type { AuthProvider, AuthContext, AuthChallenge } from '@mcpc/jsonrpc';
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
export { StreamableHttpErrorCode } from './codes.js';
