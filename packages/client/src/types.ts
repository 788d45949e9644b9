// The `@mcpc/client/types` entry: every public type the root leaves out (wire shapes, option sub-types, hooks).
export type { NotificationListener, LogListener, RouteOptions, ToolCallOutcome } from './client.js';
export type { TransportChoice } from './connect.js';
export type {
  HttpServerOptions,
  PlainHttpServerOptions,
  SseServerOptions,
  AutoHttpServerOptions,
  HttpHeaders,
} from './http-configs.js';
export type { AuthContext, AuthChallenge, ServerConfigOptions } from '@mcpc/jsonrpc';
export type { ServerSpec, TransportServerConfig, StdioServerOptions, TransportContext } from './server-configs.js';
export type { CallToolAsTaskOptions, PageOptions, ListKindName } from './server/server.js';
export type { ConnectionState } from './server/connection.js';
export type { CacheInfo } from './cache/list-cache.js';
export type { ToolStreamEvent } from './features/streaming.js';
export type { BatchOptions } from './features/batch.js';
export type { StructuredContentValidation } from './features/structured-output.js';
export type { ValidationIssue, AnnotationKeyword } from '@mcpc/schema-validator';
export type { TextResourceContents, BlobResourceContents } from './features/resources.js';
export type { InputRequiredReason, InputRequiredContinuation } from './errors.js';
export type { TaskState, TaskJSON, TaskErrorDetail } from './tasks/task.js';
export type { TaskRef, TaskRequestOptions } from './tasks/server-tasks.js';
export type { WaitForTaskOptions } from './tasks/wait.js';
export type { TaskInputReason } from './tasks/errors.js';
export type { SubscriptionFilter, SubscriptionListener, ListenOptions } from './subscriptions/subscription.js';
export type { InputRequiredWait, InputRequiredWaitDecision, InputRequiredWaitHook } from './server/mrtr.js';
export type { ProtocolChoice } from './server/detect.js';
export type { Deprecation, DeprecatedFeature } from './deprecations.js';
export type { ProtocolErrorReason } from '@mcpc/jsonrpc/errors';
export type { HeaderParamsCheck, ParamHeader } from './features/header-params.js';
export type { LoadedSkill, SkillDirectoryItem } from './skills/loaded-skill.js';
export type {
  SkillEntry,
  SkillFile,
  SkillFrontmatter,
  SkillApprovalRequest,
  SkillApprovalHook,
  SkillContentCache,
  SkillOptions,
  LoadSkillOptions,
  SkillFileContent,
} from './skills/types.js';
export type { SkillEntryReason, SkillVerificationReason } from './errors/skills.js';
export type {
  ToolAnnotations,
  ToolExecution,
  TaskSupport,
  PromptArgument,
  PromptMessage,
  ListPage,
  CompletionReference,
  CompleteRequest,
  Completion,
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
  ModelPreferences,
  SamplingRequest,
  SamplingResult,
} from './types/host.js';
export type { MeterProviderLike, OpenTelemetryApiLike, TracerProviderLike } from './tracing/options.js';
