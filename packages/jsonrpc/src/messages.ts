// JSON-RPC 2.0 messages: their shapes, the guards that tell them apart, and the error codes JSON-RPC and MCP define.
/** A JSON-RPC request id. MCP forbids `null` for requests; it appears only on error replies to unreadable requests. */
export type JsonRpcId = string | number;

/** Params of a request or notification: always an object in MCP. */
export type JsonRpcParams = { readonly [key: string]: unknown };

export interface JsonRpcRequest {
  readonly jsonrpc: '2.0';
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params?: JsonRpcParams;
}

export interface JsonRpcNotification {
  readonly jsonrpc: '2.0';
  readonly method: string;
  readonly params?: JsonRpcParams;
}

export interface JsonRpcSuccess {
  readonly jsonrpc: '2.0';
  readonly id: JsonRpcId;
  readonly result: unknown;
}

export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export interface JsonRpcFailure {
  readonly jsonrpc: '2.0';
  /** `null` when the peer could not read the id of the request it rejects. */
  readonly id: JsonRpcId | null;
  readonly error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

export const isRequest = (m: JsonRpcMessage): m is JsonRpcRequest => 'method' in m && 'id' in m;
export const isNotification = (m: JsonRpcMessage): m is JsonRpcNotification => 'method' in m && !('id' in m);
export const isResponse = (m: JsonRpcMessage): m is JsonRpcResponse => !('method' in m);
export const isFailure = (m: JsonRpcMessage): m is JsonRpcFailure => 'error' in m;

/** JSON-RPC 2.0's reserved codes and the ones MCP defines. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** MCP: a resource does not exist (2025-era servers; 2026-07-28 also accepts -32602). */
  ResourceNotFound: -32002,
  /** MCP 2026-07-28: a `Mcp-Param-*` header disagrees with the request body. */
  HeaderMismatch: -32020,
  /** MCP 2026-07-28: the request needs a client capability it did not declare. */
  MissingRequiredClientCapability: -32021,
  /** MCP 2026-07-28: the protocol version in the request is not one the server speaks. */
  UnsupportedProtocolVersion: -32022,
  /** MCP 2025-11-25: URL-mode elicitation is required before the request can proceed. */
  UrlElicitationRequired: -32042,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
