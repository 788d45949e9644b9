// The errors @mcpc/client raises itself, one module per kind of failure (see errors/).
import type { McpError } from '@mcpc/jsonrpc';
import type { ClientErrorCode } from './codes.js';
import type { ToolConversionError } from './convert/errors.js';
import type {
  AmbiguousTaskError,
  TaskCancelledError,
  TaskExpiredError,
  TaskFailedError,
  TaskInputError,
  TaskNotFoundError,
  TaskReplacedError,
  TaskTimeoutError,
  TaskUnsupportedError,
} from './tasks/errors.js';
import type {
  CapabilityError,
  HeaderMismatchError,
  MissingRequiredClientCapabilityError,
  StructuredContentError,
  ToolSchemaError,
  ValidationError,
} from './errors/call.js';
import type {
  ClientClosedError,
  ConnectionError,
  CrashLoopError,
  TransportUnavailableError,
  UnsupportedProtocolVersionError,
} from './errors/connection.js';
import type { ConfigEntryError } from './errors/config.js';
import type { InputLimitError, InputRequiredError } from './errors/input.js';
import type {
  AmbiguousNameError,
  NotFoundError,
  PaginationError,
  PromptNotFoundError,
  ResourceNotFoundError,
  ToolNotFoundError,
  UnknownServerError,
} from './errors/lookup.js';
import type { SkillApprovalError, SkillEntryError, SkillVerificationError } from './errors/skills.js';
import type { SubscriptionError } from './errors/subscription.js';
export * from './errors/call.js';
export * from './errors/config.js';
export * from './errors/connection.js';
export * from './errors/input.js';
export * from './errors/lookup.js';
export * from './errors/skills.js';
export * from './errors/subscription.js';

// This package's errors in `AnyMcpcError` (see @mcpc/jsonrpc's `McpcErrors`).
declare module '@mcpc/jsonrpc' {
  interface McpcErrors {
    /** Not connected yet; a server that is not MCP 2026-07-28 where only that was asked for. */
    '@mcpc/client.McpError': McpError & {
      readonly code: typeof ClientErrorCode.NotConnected | typeof ClientErrorCode.NotModern;
    };
    '@mcpc/client.AmbiguousNameError': AmbiguousNameError & { readonly code: typeof ClientErrorCode.AmbiguousName };
    '@mcpc/client.AmbiguousTaskError': AmbiguousTaskError & { readonly code: typeof ClientErrorCode.AmbiguousTask };
    '@mcpc/client.CapabilityError': CapabilityError & { readonly code: typeof ClientErrorCode.CapabilityNotSupported };
    '@mcpc/client.ClientClosedError': ClientClosedError & { readonly code: typeof ClientErrorCode.ClientClosed };
    '@mcpc/client.ConfigEntryError': ConfigEntryError & { readonly code: typeof ClientErrorCode.InvalidConfigEntry };
    '@mcpc/client.ConnectionError': ConnectionError & {
      readonly code:
        | typeof ClientErrorCode.ConnectionFailed
        | typeof ClientErrorCode.ServerExited
        | typeof ClientErrorCode.HandshakeTimeout
        | typeof ClientErrorCode.ConnectionLost;
    };
    '@mcpc/client.CrashLoopError': CrashLoopError & { readonly code: typeof ClientErrorCode.CrashLoop };
    '@mcpc/client.HeaderMismatchError': HeaderMismatchError & { readonly code: typeof ClientErrorCode.HeaderMismatch };
    '@mcpc/client.InputLimitError': InputLimitError & {
      readonly code: typeof ClientErrorCode.RequestStateTooLarge | typeof ClientErrorCode.TooManyInputRequests;
    };
    '@mcpc/client.InputRequiredError': InputRequiredError & { readonly code: typeof ClientErrorCode.InputRequired };
    '@mcpc/client.MissingRequiredClientCapabilityError': MissingRequiredClientCapabilityError & {
      readonly code: typeof ClientErrorCode.MissingClientCapability;
    };
    '@mcpc/client.NotFoundError': NotFoundError & { readonly code: typeof ClientErrorCode.NotFound };
    '@mcpc/client.PaginationError': PaginationError & {
      readonly code: typeof ClientErrorCode.PaginationLimit | typeof ClientErrorCode.PaginationLoop;
    };
    '@mcpc/client.PromptNotFoundError': PromptNotFoundError & { readonly code: typeof ClientErrorCode.PromptNotFound };
    '@mcpc/client.ResourceNotFoundError': ResourceNotFoundError & {
      readonly code: typeof ClientErrorCode.ResourceNotFound;
    };
    '@mcpc/client.SkillApprovalError': SkillApprovalError & { readonly code: typeof ClientErrorCode.SkillNotApproved };
    '@mcpc/client.SkillEntryError': SkillEntryError & {
      readonly code:
        | typeof ClientErrorCode.SkillEntryInvalid
        | typeof ClientErrorCode.SkillTooLarge
        | typeof ClientErrorCode.SkillDynamicRefused;
    };
    '@mcpc/client.SkillVerificationError': SkillVerificationError & {
      readonly code: typeof ClientErrorCode.SkillVerificationFailed;
    };
    '@mcpc/client.StructuredContentError': StructuredContentError & {
      readonly code: typeof ClientErrorCode.StructuredContentInvalid;
    };
    '@mcpc/client.SubscriptionError': SubscriptionError & { readonly code: typeof ClientErrorCode.SubscriptionFailed };
    '@mcpc/client.TaskCancelledError': TaskCancelledError & { readonly code: typeof ClientErrorCode.TaskCancelled };
    '@mcpc/client.TaskExpiredError': TaskExpiredError & { readonly code: typeof ClientErrorCode.TaskExpired };
    '@mcpc/client.TaskFailedError': TaskFailedError & { readonly code: typeof ClientErrorCode.TaskFailed };
    '@mcpc/client.TaskInputError': TaskInputError & { readonly code: typeof ClientErrorCode.TaskInput };
    '@mcpc/client.TaskNotFoundError': TaskNotFoundError & { readonly code: typeof ClientErrorCode.TaskNotFound };
    '@mcpc/client.TaskReplacedError': TaskReplacedError & { readonly code: typeof ClientErrorCode.TaskReplaced };
    '@mcpc/client.TaskTimeoutError': TaskTimeoutError & { readonly code: typeof ClientErrorCode.TaskTimeout };
    '@mcpc/client.TaskUnsupportedError': TaskUnsupportedError & {
      readonly code: typeof ClientErrorCode.TaskUnsupported;
    };
    '@mcpc/client.ToolConversionError': ToolConversionError & { readonly code: typeof ClientErrorCode.ToolConversion };
    '@mcpc/client.ToolNotFoundError': ToolNotFoundError & { readonly code: typeof ClientErrorCode.ToolNotFound };
    '@mcpc/client.ToolSchemaError': ToolSchemaError & {
      readonly code: typeof ClientErrorCode.ToolSchemaUnusable | typeof ClientErrorCode.ToolSchemaUnsupportedDialect;
    };
    '@mcpc/client.TransportUnavailableError': TransportUnavailableError & {
      readonly code: typeof ClientErrorCode.TransportUnavailable;
    };
    '@mcpc/client.UnknownServerError': UnknownServerError & { readonly code: typeof ClientErrorCode.UnknownServer };
    '@mcpc/client.UnsupportedProtocolVersionError': UnsupportedProtocolVersionError & {
      readonly code: typeof ClientErrorCode.UnsupportedProtocolVersion;
    };
    '@mcpc/client.ValidationError': ValidationError & { readonly code: typeof ClientErrorCode.InvalidShape };
  }
}
