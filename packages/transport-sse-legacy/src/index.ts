export { SseTransport } from './transport.js';
export type { SseTransportOptions } from './options.js';
export { EndpointOriginError, EndpointTimeoutError } from './errors.js';
// The HTTP errors this transport raises (declared in @mcpc/http), so its users catch them from here.
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
  TransientServerError,
  NetworkError,
  ResponseTooLargeError,
  ResponseStreamClosedError,
  HttpClientUnavailableError,
  ProxyConfigError,
  ProxyConnectError,
  ReplyQueueFullError,
} from '@mcpc/http';
