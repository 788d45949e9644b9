// The public surface of @mcpc/client: what a typical host names.
//
// Adding an export is an API decision: test/api-surface.json pins every name. Converters: `/convert`; constants and
// bounds: `/constants`; other types: `/types`.

export { Client, type ClientOptions, type RouteOptions, type ToolCall } from './client.js';
export type { PropagatorLike, TracerLike, TracingOption, TracingOptions } from './tracing/options.js';
export { connect, splitCommandLine, type ConnectTarget, type ConnectOptions } from './connect.js';
export { streamableHttp, http, sse, autoHttp } from './http-configs.js';
// The auth hook every HTTP transport takes (an `OAuthProvider` of `@mcpc/oauth` is one), declared in the kernel.
export type { AuthProvider } from '@mcpc/jsonrpc';
export { serversFromConfig, readServerConfigFile } from './config-file.js';
export { stdio, type ServerConfig } from './server-configs.js';
export { Server, type RequestOptions, type CallToolOptions } from './server/server.js';
export type { ResourceContents } from './features/resources.js';

export { ClientErrorCode } from './codes.js';
// The kernel's errors and codes (the generic transport failures among them, so they are caught here
// without installing the transport that raises them): each listed once, in @mcpc/jsonrpc/errors.
export * from '@mcpc/jsonrpc/errors';
export {
  CapabilityError,
  ConfigEntryError,
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
  SkillEntryError,
  SkillVerificationError,
  SkillApprovalError,
} from './errors.js';
export { Task, supportsTask, type TaskStatus } from './tasks/task.js';
export { declaredAnnotations } from './features/tools.js';
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
} from './tasks/errors.js';
export { Subscription } from './subscriptions/subscription.js';

export { deprecations, DEPRECATIONS } from './deprecations.js';
export type { Logger, Transport, Progress } from '@mcpc/jsonrpc';

export type {
  Tool,
  CallToolResult,
  Prompt,
  GetPromptResult,
  Resource,
  ResourceTemplate,
  LogMessage,
} from './types/entities.js';
export type { ContentBlock } from './types/protocol.js';
export type { ElicitationHandler, SamplingHandler } from './types/host.js';
export { isTextContent, isResourceLink, textOf } from './content.js';
export { HeaderParams } from './features/header-params.js';
export { closeNames } from './routing.js';
