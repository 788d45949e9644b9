// Which protocol era a server speaks: the config's choice, and the errors that reveal a legacy server.
import { ErrorCode, JsonRpcErrorCode, TransportErrorCode } from '@mcpc/jsonrpc';
import { NotModernError } from '../errors.js';

// The era a server config asks for is part of the kernel's server-config contract.
export type { ProtocolChoice } from '@mcpc/jsonrpc';

/** The errors only a stateless (2026-07-28) server sends: one of them means the server is modern. */
const MODERN_CODES: ReadonlySet<number> = new Set([
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
]);

/** HTTP statuses the transport pages name as "maybe an older server" when the body is no modern error. */
const CLASSIC_STATUSES: ReadonlySet<number> = new Set([400, 404, 405, 406, 415]);

/**
 * Whether a failed `server/discover` probe is evidence that the server speaks the classic protocol, so
 * the client may fall back to `initialize`. The spec's rules: on stdio, any error that is not a
 * recognized modern one, or no answer in time; on HTTP, a 400/404/405 whose body is not a modern
 * JSON-RPC error (a JSON-RPC error in the body arrives as a `ServerError`, anything else as an
 * `HttpError`). Never an outage (network, timeout on HTTP, 5xx), an auth wall (401/403) or a closed
 * connection: those would make a modern server look classic, and must surface as what they are.
 */
export function isClassicEvidence(error: unknown, transport: 'stdio' | 'http' | 'other'): boolean {
  if (error instanceof NotModernError) return true;
  if (!(error instanceof Error)) return false;
  const { code, status, rpcCode } = error as { code?: unknown; status?: unknown; rpcCode?: unknown };
  switch (code) {
    case JsonRpcErrorCode.ServerError:
      // A JSON-RPC error that is not one of the modern ones: the server did not know server/discover.
      return typeof rpcCode === 'number' && !MODERN_CODES.has(rpcCode);
    case TransportErrorCode.HttpError:
      return typeof status === 'number' && CLASSIC_STATUSES.has(status);
    case JsonRpcErrorCode.RequestTimeout:
      // Silence is what some classic stdio servers answer an unknown pre-initialize request with. Over
      // HTTP a timeout is an outage.
      return transport !== 'http';
    default:
      return false;
  }
}
