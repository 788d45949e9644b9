// The `code` strings of the errors every layer acts on: the kernel's own and those the transports raise.
//
// Declared once, here, so that a client can match a transport's error without importing that optional package, and so
// that a third-party transport can raise the same ones.

/** Codes of the errors this package raises. */
export const JsonRpcErrorCode = Object.freeze({
  Error: 'MCPC_ERROR',
  ProtocolError: 'MCPC_PROTOCOL_ERROR',
  ServerError: 'MCPC_SERVER_ERROR',
  ErrorReply: 'MCPC_ERROR_REPLY',
  RequestTimeout: 'MCPC_REQUEST_TIMEOUT',
  Aborted: 'ABORT_ERR',
  TransportError: 'MCPC_TRANSPORT_ERROR',
  MessageTooLarge: 'MCPC_MESSAGE_TOO_LARGE',
  ConnectionClosed: 'MCPC_CONNECTION_CLOSED',
  CancelledByPeer: 'MCPC_CANCELLED_BY_PEER',
  /** `start()` was called on an engine that was already started (`EngineStateError`). */
  AlreadyStarted: 'MCPC_ENGINE_ALREADY_STARTED',
} as const);
export type JsonRpcErrorCode = (typeof JsonRpcErrorCode)[keyof typeof JsonRpcErrorCode];

/**
 * Codes of transport errors that the layers above decide on (retry, fall back to another transport or
 * era, restart a process). A transport that raises one of these situations should use the same code.
 */
export const TransportErrorCode = Object.freeze({
  /** The server could not be reached, or the connection broke before an answer (HTTP). */
  NetworkError: 'MCPC_NETWORK_ERROR',
  /** A 5xx (or 429) the server may recover from. */
  TransientServerError: 'MCPC_TRANSIENT_SERVER_ERROR',
  /** A response stream ended, or went idle, before the answer it was to carry. */
  ResponseStreamClosed: 'MCPC_RESPONSE_STREAM_CLOSED',
  /** A response body, or one SSE event, grew past its configured limit (`ResponseTooLargeError`). */
  ResponseTooLarge: 'MCPC_RESPONSE_TOO_LARGE',
  /** Any other HTTP status the transport cannot use; the error carries `status`. */
  HttpError: 'MCPC_HTTP_ERROR',
  /** 401/403: the server wants (other) credentials. */
  Unauthorized: 'MCPC_UNAUTHORIZED',
  /** The legacy HTTP+SSE stream sent no `endpoint` event in time. */
  EndpointTimeout: 'MCPC_ENDPOINT_TIMEOUT',
  /** The server process exited (stdio); the error carries `exitCode`, `signal`, `stderrTail`. */
  ProcessExit: 'MCPC_PROCESS_EXIT',
} as const);
export type TransportErrorCode = (typeof TransportErrorCode)[keyof typeof TransportErrorCode];
