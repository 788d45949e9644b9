// Building blocks for other HTTP-based transports (the legacy HTTP+SSE transport uses them): the same
// bounded SSE reading, incremental decompression and backoff this transport relies on. Public and
// semver-covered, so no package has to reach into this one's internals.
export { readSse, isAcceptableEventId, type SseEvent, type SseHandlers } from './sse.js';
export { bodyChunks, readText, ACCEPT_ENCODING } from './body.js';
export { backoffDelay, sleep, untilAborted, type BackoffOptions } from './backoff.js';
export { Sends, type Send } from './sends.js';
export { exchange, discard, header, type Exchange, type ExchangeSettings, type HttpMethod, type HttpAuth } from './http.js';
export {
  createHttpClient,
  proxyConfigured,
  type HttpClient,
  type HttpClientOptions,
  type HttpClientChoice,
  type HttpRequest,
  type HttpResponse,
  type HttpHeaders,
  type UndiciDispatcher,
} from './http-client.js';
export { ReplyQueue, ReplyQueueFullError, DEFAULT_MAX_CONCURRENT_REPLIES, DEFAULT_MAX_QUEUED_REPLIES } from './replies.js';
export { atLeastOne } from './options.js';
export { endpointLabel, statusLine, contentTypeLabel, notAnEndpoint, refused } from './diagnostics.js';
