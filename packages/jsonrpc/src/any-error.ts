// `AnyMcpcError`: the union of the errors the @mcpc packages a program imports throw, discriminated by `code`.
//
// Each package adds its own classes to `McpcErrors` with a module augmentation of '@mcpc/jsonrpc' beside its error
// classes, so the union covers exactly the packages whose types the program loads, and a `switch` on `code`
// is checked for exhaustiveness (jose's `AnyJOSEError`, open to the layers above). tooling/scripts/test checks each
// entry against the code an instance of the class carries.
import type { JsonRpcErrorCode, TransportErrorCode } from './codes.js';
import {
  McpError,
  type AbortError,
  type CancelledByPeerError,
  type ConnectionClosedError,
  type EngineStateError,
  type ErrorReply,
  type JsonRpcProtocolError,
  type MessageTooLargeError,
  type NetworkError,
  type RequestTimeoutError,
  type ResponseStreamClosedError,
  type ResponseTooLargeError,
  type ServerError,
  type TransientServerError,
  type TransportError,
} from './errors.js';

/**
 * Every error class of the @mcpc packages, by brand (`<package>.<Class>`), typed with the one code its instances
 * carry. Extended by each package (a module augmentation of '@mcpc/jsonrpc'); a package of your own may do the same.
 */
export interface McpcErrors {
  '@mcpc/jsonrpc.AbortError': AbortError & { readonly code: typeof JsonRpcErrorCode.Aborted };
  '@mcpc/jsonrpc.CancelledByPeerError': CancelledByPeerError & {
    readonly code: typeof JsonRpcErrorCode.CancelledByPeer;
  };
  '@mcpc/jsonrpc.ConnectionClosedError': ConnectionClosedError & {
    readonly code: typeof JsonRpcErrorCode.ConnectionClosed;
  };
  '@mcpc/jsonrpc.EngineStateError': EngineStateError & { readonly code: typeof JsonRpcErrorCode.AlreadyStarted };
  '@mcpc/jsonrpc.ErrorReply': ErrorReply & { readonly code: typeof JsonRpcErrorCode.ErrorReply };
  '@mcpc/jsonrpc.JsonRpcProtocolError': JsonRpcProtocolError & { readonly code: typeof JsonRpcErrorCode.ProtocolError };
  '@mcpc/jsonrpc.McpError': McpError & { readonly code: typeof JsonRpcErrorCode.Error };
  '@mcpc/jsonrpc.MessageTooLargeError': MessageTooLargeError & {
    readonly code: typeof JsonRpcErrorCode.MessageTooLarge;
  };
  '@mcpc/jsonrpc.NetworkError': NetworkError & { readonly code: typeof TransportErrorCode.NetworkError };
  '@mcpc/jsonrpc.RequestTimeoutError': RequestTimeoutError & { readonly code: typeof JsonRpcErrorCode.RequestTimeout };
  '@mcpc/jsonrpc.ResponseStreamClosedError': ResponseStreamClosedError & {
    readonly code: typeof TransportErrorCode.ResponseStreamClosed;
  };
  '@mcpc/jsonrpc.ResponseTooLargeError': ResponseTooLargeError & {
    readonly code: typeof TransportErrorCode.ResponseTooLarge;
  };
  '@mcpc/jsonrpc.ServerError': ServerError & { readonly code: typeof JsonRpcErrorCode.ServerError };
  '@mcpc/jsonrpc.TransientServerError': TransientServerError & {
    readonly code: typeof TransportErrorCode.TransientServerError;
  };
  '@mcpc/jsonrpc.TransportError': TransportError & { readonly code: typeof JsonRpcErrorCode.TransportError };
}

/** Any error an @mcpc package throws: narrow it with a `switch` on `code`, checked for exhaustiveness. */
export type AnyMcpcError = McpcErrors[keyof McpcErrors];

/**
 * Whether `value` is an error an @mcpc package threw (any copy of it: the check reads the brands), typed as the
 * union so that `switch (error.code)` narrows to the class.
 */
export function isMcpcError(value: unknown): value is AnyMcpcError {
  return value instanceof McpError;
}
