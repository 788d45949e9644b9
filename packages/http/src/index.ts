// @mcpc/http: the HTTP plumbing of mcpc's HTTP transports, for any transport built on HTTP.
export { createHttpClient, defaultHttpClient } from './http-client.js';
export type {
  FetchFunction,
  HeadersOption,
  HttpClient,
  HttpClientChoice,
  HttpBody,
  HttpClientOptions,
  HttpHeaders,
  HttpMethod,
  HttpRequest,
  HttpResponse,
  UndiciDispatcher,
} from './types.js';
export { proxyConfigured, proxiesFrom, type Proxies, type Proxy, type Environment } from './proxy.js';
export { exchange, discard, type Exchange, type ExchangeSettings } from './exchange.js';
export { header } from './raw-headers.js';
export { bodyChunks, readText, readPlainText, isIdentityEncoding, destroyQuietly, ACCEPT_ENCODING } from './body.js';
export { utf8Length } from './bytes.js';
export { readSse, readSseBody, isAcceptableEventId, type SseEvent, type SseHandlers } from './sse.js';
export { Sends, type Send } from './sends.js';
export { Abort, linkTo, type AbortLink } from './abort.js';
export { backoffDelay, sleep, untilAborted, type BackoffOptions } from './backoff.js';
export { ReplyQueue, DEFAULT_MAX_CONCURRENT_REPLIES, DEFAULT_MAX_QUEUED_REPLIES } from './replies.js';
export { atLeastOne } from './limits.js';
export { copyTraceHeaders } from './trace-headers.js';
export { endpointLabel, statusLine, contentTypeLabel, notAnEndpoint, refused, unauthorized } from './diagnostics.js';
export * from './errors-entry.js';
