// The public entry of @mcpc/transport-streamable-http.
export { StreamableHttpTransport } from './transport.js';
export type { StreamableHttpTransportOptions, HttpAuth } from './options.js';
export { streamableHttp, http, type StreamableHttpConfigOptions, type PlainHttpConfigOptions } from './config.js';
export type { HeadersOption, HttpClientChoice, UndiciDispatcher, BackoffOptions } from '@mcpc/http';
export type { AuthProvider, AuthContext, AuthChallenge } from '@mcpc/jsonrpc';
export { SessionExpiredError } from './errors.js';
// The HTTP errors this transport raises (declared in @mcpc/http), so its users catch them from here.
export * from '@mcpc/http/errors';
export { StreamableHttpErrorCode } from './codes.js';
