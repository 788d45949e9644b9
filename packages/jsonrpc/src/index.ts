// The public entry of @mcpc/jsonrpc: messages, the engine, the Transport contract, errors, logging and codes.
export type {
  JsonRpcId,
  JsonRpcParams,
  JsonRpcRequest,
  JsonRpcNotification,
  JsonRpcSuccess,
  JsonRpcFailure,
  JsonRpcErrorObject,
  JsonRpcResponse,
  JsonRpcMessage,
} from './messages.js';
export { isRequest, isNotification, isResponse, isFailure } from './messages.js';
export { decodeMessage, validateMessage, type DecodeResult } from './decode.js';
export * from './errors-entry.js';
export { brandFor } from './errors.js';
export type { Transport, TransportSink, TransportSendOptions, MessageInfo } from './transport.js';
export { InMemoryTransport, createInMemoryTransportPair, type InMemoryTransportOptions } from './in-memory.js';
export {
  JsonRpcEngine,
  type EngineOptions,
  type RequestOptions,
  type RequestObserver,
  type RequestObservation,
  type IncomingObserver,
  type IncomingObservation,
  type RequestContext,
  type RequestHandler,
  type NotificationListener,
  type Progress,
} from './engine.js';
export {
  type Logger,
  silentLogger,
  warningsToConsole,
  safeLog,
  escapeForLog,
  describeForLog,
  DEFAULT_LOG_STRING_LIMIT,
} from './logger.js';
export { escapePeerText, DEFAULT_PEER_TEXT_LIMIT } from './peer-text.js';
export {
  noteDeprecation,
  setDeprecationNotices,
  deprecationNoticesEnabled,
  deprecationsNoted,
  forgetDeprecations,
} from './deprecations.js';
export type { AuthProvider, AuthContext, AuthChallenge, AuthResponse, AuthMethod } from './auth.js';
export {
  serverConfig,
  transportPart,
  checkProtocolChoice,
  checkEraOptions,
  urlLabel,
  type ServerConfig,
  type ServerConfigOptions,
  type TransportContext,
  type ProtocolChoice,
} from './server-config.js';
