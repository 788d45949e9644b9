// The `code` strings of the errors @mcpc/transport-streamable-http raises itself, one constant each.
//
// The HTTP failures it shares with other transports are the kernel's `TransportErrorCode` and `HttpErrorCode`.

export const StreamableHttpErrorCode = Object.freeze({
  /** `SessionExpiredError`: the server ended the session (HTTP 404 to a request carrying its id). */
  SessionExpired: 'MCPC_SESSION_EXPIRED',
  /** A response stream carried no event for its idle time (the `cause` of a `ResponseStreamClosedError`). */
  StreamIdle: 'MCPC_STREAM_IDLE',
} as const);
export type StreamableHttpErrorCode = (typeof StreamableHttpErrorCode)[keyof typeof StreamableHttpErrorCode];
