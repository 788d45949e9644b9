// The `@mcpc/jsonrpc/errors` entry: the kernel's error classes and code constants in one list.
//
// The layers above (the client) re-export it whole, so that each error is listed once, here.
export {
  McpError,
  JsonRpcProtocolError,
  ServerError,
  ErrorReply,
  RequestTimeoutError,
  AbortError,
  TransportError,
  MessageTooLargeError,
  ConnectionClosedError,
  CancelledByPeerError,
  EngineStateError,
  TransientServerError,
  NetworkError,
  ResponseTooLargeError,
  ResponseStreamClosedError,
  type ProtocolErrorReason,
} from './errors.js';
export { ErrorCode } from './messages.js';
export { JsonRpcErrorCode, TransportErrorCode } from './codes.js';
export { isMcpcError, type AnyMcpcError, type McpcErrors } from './any-error.js';
