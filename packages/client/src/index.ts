// The public surface of @mcpc/client. Adding an export is an API decision: test/api-surface.test.ts lists every
// runtime name. Tool converters live at `@mcpc/client/convert`, protocol constants and bounds at `@mcpc/client/constants`.

export {
  Client,
  type ClientOptions,
  type NotificationListener,
  type LogListener,
  type RouteOptions,
  type ToolCall,
  type ToolCallOutcome,
} from './client.js';
export { connect, splitCommandLine, type ConnectTarget, type ConnectOptions, type TransportChoice } from './connect.js';
export {
  streamableHttp,
  http,
  sse,
  autoHttp,
  type HttpServerOptions,
  type PlainHttpServerOptions,
  type SseServerOptions,
  type AutoHttpServerOptions,
  type HttpHeaders,
} from './http-configs.js';
// The auth hook every HTTP transport takes (an `OAuthProvider` of `@mcpc/oauth` is one), declared in the kernel.
export type { AuthProvider, AuthContext, AuthChallenge, ServerConfigOptions } from '@mcpc/jsonrpc';
export { serversFromConfig, readServerConfigFile } from './config-file.js';
export {
  stdio,
  type ServerConfig,
  type ServerSpec,
  type TransportServerConfig,
  type StdioServerOptions,
  type TransportContext,
} from './server-configs.js';
export {
  Server,
  type RequestOptions,
  type CallToolOptions,
  type CallToolAsTaskOptions,
  type PageOptions,
  type ListKindName,
} from './server/server.js';
export type { ConnectionState } from './server/connection.js';
export type { CacheInfo } from './cache/list-cache.js';
export type { ToolStreamEvent } from './features/streaming.js';
export type { BatchOptions } from './features/batch.js';
export type { StructuredContentValidation } from './features/structured-output.js';
export type { ValidationIssue, AnnotationKeyword } from '@mcpc/schema-validator';
export type { ResourceContents, TextResourceContents, BlobResourceContents } from './features/resources.js';

export { ClientErrorCode } from './codes.js';
// The kernel's errors and codes (the generic transport failures among them, so they are caught here
// without installing the transport that raises them): each listed once, in @mcpc/jsonrpc/errors.
export * from '@mcpc/jsonrpc/errors';
export {
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
export {
  Task,
  supportsTask,
  type TaskStatus,
  type TaskState,
  type TaskJSON,
  type TaskErrorDetail,
} from './tasks/task.js';
export { declaredAnnotations } from './features/tools.js';
export type { TaskRef, TaskRequestOptions } from './tasks/server-tasks.js';
export type { WaitForTaskOptions } from './tasks/wait.js';
export {
  TaskFailedError,
  TaskCancelledError,
  TaskExpiredError,
  TaskNotFoundError,
  TaskReplacedError,
  TaskTimeoutError,
  TaskInputError,
  AmbiguousTaskError,
  TaskUnsupportedError,
  type TaskInputReason,
} from './tasks/errors.js';
export {
  Subscription,
  type SubscriptionFilter,
  type SubscriptionListener,
  type ListenOptions,
} from './subscriptions/subscription.js';
export type { InputRequiredWait, InputRequiredWaitDecision, InputRequiredWaitHook } from './server/mrtr.js';
export type { ProtocolChoice } from './server/detect.js';

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
export type {
  Meta,
  JsonSchemaObject,
  ToolInputSchema,
  Icon,
  Implementation,
  Role,
  Annotations,
  TextContent,
  ImageContent,
  AudioContent,
  ResourceLink,
  ResourceDescription,
  EmbeddedResource,
  TextResourceContentsData,
  BlobResourceContentsData,
  ContentBlock,
  ToolUseContent,
  ToolResultContent,
  SamplingContent,
  SamplingMessage,
  ServerCapabilities,
  ClientCapabilities,
  LoggingLevel,
  Root,
  ToolDefinition,
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
export { HeaderParams, type HeaderParamsCheck, type ParamHeader } from './features/header-params.js';
export { closeNames } from './routing.js';
