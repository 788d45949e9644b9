// The public surface of @mcpc/client. Adding an export is an API decision.

export { Client, type ClientOptions, type NotificationListener, type LogListener, type RouteOptions, type ToolCall, type ToolCallOutcome } from './client.js';
export { connect, splitCommandLine, type ConnectTarget, type ConnectOptions, type TransportChoice } from './connect.js';
export {
  streamableHttp,
  http,
  sse,
  autoHttp,
  type HttpServerOptions,
  type PlainHttpServerOptions,
  type HttpHeaders,
  type HttpAuthProvider,
} from './http-transports.js';
export { serversFromConfig, readServerConfigFile } from './config-file.js';
export {
  stdio,
  type ServerConfig,
  type ServerSpec,
  type TransportServerConfig,
  type StdioServerOptions,
  type TransportContext,
} from './transports.js';
export { Server, type RequestOptions, type CallToolOptions, type PageOptions, type ListKindName } from './server/server.js';
export type { ConnectionState } from './server/connection.js';
export type { ProtocolEra, SessionFacts, HostBridge, EraRequestOptions } from './server/era.js';
export {
  CLASSIC_PROTOCOL_VERSIONS,
  LATEST_CLASSIC_VERSION,
  MODERN_PROTOCOL_VERSIONS,
  LATEST_MODERN_VERSION,
  PROTOCOL_VERSIONS,
  type ClassicProtocolVersion,
  type ModernProtocolVersion,
} from './server/versions.js';
export type { CacheInfo } from './cache/list-cache.js';
export type { ToolStreamEvent } from './features/streaming.js';
export { MAX_PENDING_PROGRESS } from './features/streaming.js';
export type { BatchOptions } from './features/batch.js';
export type { StructuredContentValidation } from './features/structured-output.js';
export type { ValidationIssue, AnnotationKeyword } from '@mcpc/schema-validator';
export type { ResourceContents, TextResourceContents, BlobResourceContents } from './features/resources.js';

export {
  McpError,
  ServerError,
  ErrorReply,
  RequestTimeoutError,
  AbortError,
  TransportError,
  MessageTooLargeError,
  ConnectionClosedError,
  JsonRpcProtocolError,
  ErrorCode,
  CapabilityError,
  ValidationError,
  ConnectionError,
  UnsupportedProtocolVersionError,
  CrashLoopError,
  AmbiguousNameError,
  NotFoundError,
  ToolNotFoundError,
  PromptNotFoundError,
  ResourceNotFoundError,
  UnknownServerError,
  PaginationError,
  ClientClosedError,
  TransportUnavailableError,
  HeaderMismatchError,
  MissingRequiredClientCapabilityError,
  InputRequiredError,
  InputLimitError,
  SubscriptionError,
  StructuredContentError,
  ToolSchemaError,
  type InputRequiredReason,
  type InputRequiredContinuation,
} from './errors.js';
export { Subscription, type SubscriptionFilter, type SubscriptionListener, type ListenOptions } from './subscriptions/subscription.js';
export { MAX_PENDING_NOTIFICATIONS, MAX_PENDING_NOTIFICATION_BYTES } from './subscriptions/queue.js';
export { SUBSCRIPTION_RESTART_MIN_INTERVAL } from './subscriptions/server-streams.js';
export type { InputRequiredWait, InputRequiredWaitDecision, InputRequiredWaitHook } from './server/mrtr.js';
export type { ProtocolChoice } from './server/detect.js';
export type { EraCallOptions } from './server/era.js';

export { deprecations, DEPRECATIONS, type Deprecation, type DeprecatedFeature } from './deprecations.js';
export type { Logger, Transport, Progress } from '@mcpc/jsonrpc';

export type {
  Tool,
  ToolAnnotations,
  ToolExecution,
  TaskSupport,
  CallToolResult,
  Prompt,
  PromptArgument,
  PromptMessage,
  GetPromptResult,
  Resource,
  ResourceTemplate,
  ListPage,
  CompletionReference,
  CompleteRequest,
  Completion,
  LogMessage,
} from './types/entities.js';
export {
  LOGGING_LEVELS,
  type Meta,
  type JsonSchemaObject,
  type ToolInputSchema,
  type Icon,
  type Implementation,
  type Role,
  type Annotations,
  type TextContent,
  type ImageContent,
  type AudioContent,
  type ResourceLink,
  type ResourceDescription,
  type EmbeddedResource,
  type TextResourceContentsData,
  type BlobResourceContentsData,
  type ContentBlock,
  type ToolUseContent,
  type ToolResultContent,
  type SamplingContent,
  type SamplingMessage,
  type ServerCapabilities,
  type ClientCapabilities,
  type LoggingLevel,
  type Root,
  type ToolDefinition,
} from './types/protocol.js';
export type {
  HostRequestContext,
  ElicitationMode,
  ElicitationValue,
  FormElicitation,
  UrlElicitation,
  ElicitationRequest,
  ElicitationAction,
  ElicitationResult,
  ElicitationAnswer,
  ElicitationHandler,
  ModelPreferences,
  SamplingRequest,
  SamplingResult,
  SamplingHandler,
} from './types/host.js';
export { isTextContent, isResourceLink, textOf } from './content.js';

export {
  toOpenAITools,
  toOpenAIResponsesTools,
  toAnthropicTools,
  toGoogleTools,
  toGoogleFunctionDeclarations,
  toAiSdkTools,
  convertToolName,
  mapToolNames,
  ToolConversionError,
  type ToolConversionErrorReason,
  type ConvertibleTool,
  type ConvertOptions,
  type ObjectJsonSchema,
  type ToolNameTarget,
  type OpenAIChatTool,
  type OpenAIResponsesTool,
  type AnthropicTool,
  type GoogleTool,
  type GoogleFunctionDeclaration,
  type AiSdkTool,
  type AiSdkInputSchema,
  type AiSdkExecute,
  type AiSdkExecuteOptions,
  type AiSdkValidationResult,
  type AiSdkStandardResult,
} from './convert/index.js';
