// The `code` strings of the errors @mcpc/http raises itself, one constant each: match on these, not on literals.
//
// The failures every transport shares (network, 5xx, stream closed, body too large) are the kernel's
// `TransportErrorCode`; these are the ones only HTTP plumbing meets.

export const HttpErrorCode = Object.freeze({
  /** `HttpClientUnavailableError`: the HTTP client asked for cannot run here (undici not installed, no `node:http`). */
  HttpClientUnavailable: 'MCPC_HTTP_CLIENT_UNAVAILABLE',
  /** `ProxyConfigError`: a proxy variable names no usable proxy. */
  ProxyConfigInvalid: 'MCPC_PROXY_CONFIG_INVALID',
  /** `ProxyConnectError`: the proxy refused the `CONNECT` tunnel. */
  ProxyConnectFailed: 'MCPC_PROXY_CONNECT_FAILED',
  /** `ReplyQueueFullError`: too many replies to the server's requests waiting. */
  ReplyQueueFull: 'MCPC_REPLY_QUEUE_FULL',
  /** Node's client timed out connecting (the `cause` of a `NetworkError`; retried). */
  ConnectTimeout: 'MCPC_CONNECT_TIMEOUT',
  /** Node's client timed out waiting for the response headers (the `cause` of a `NetworkError`). */
  HeadersTimeout: 'MCPC_HEADERS_TIMEOUT',
  /** Node's client timed out waiting for the next body chunk. */
  BodyTimeout: 'MCPC_BODY_TIMEOUT',
} as const);
export type HttpErrorCode = (typeof HttpErrorCode)[keyof typeof HttpErrorCode];
