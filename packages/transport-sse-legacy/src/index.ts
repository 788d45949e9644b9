// The public entry of @mcpc/transport-sse-legacy.
export { SseTransport } from './transport.js';
export type { SseTransportOptions, HttpAuth } from './options.js';
export { sse, type SseConfigOptions } from './config.js';
export { EndpointOriginError, EndpointTimeoutError } from './errors.js';
export { SseErrorCode } from './codes.js';
export type { HeadersOption, HttpClientChoice, UndiciDispatcher, BackoffOptions } from '@mcpc/http';
export type { AuthProvider, AuthContext, AuthChallenge } from '@mcpc/jsonrpc';
// The HTTP errors this transport raises (declared in @mcpc/http), so its users catch them from here.
export * from '@mcpc/http/errors';
