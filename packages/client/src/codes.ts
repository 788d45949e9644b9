// The `code` strings of the errors this package raises, one constant each: match on these, not on literals.
//
// A code names one class (several codes may name one class: `ConnectionError` says why it failed).

export const ClientErrorCode = Object.freeze({
  /** `CapabilityError`: the server did not negotiate the capability; nothing was sent. */
  CapabilityNotSupported: 'MCPC_CAPABILITY_NOT_SUPPORTED',
  /** `ValidationError`: a server answer the client relies on, or a host argument, has the wrong shape. */
  InvalidShape: 'MCPC_INVALID_SHAPE',
  /** `StructuredContentError`. */
  StructuredContentInvalid: 'MCPC_STRUCTURED_CONTENT_INVALID',
  /** `ToolSchemaError`, `reason: 'unsupported-dialect'`. */
  ToolSchemaUnsupportedDialect: 'MCPC_TOOL_SCHEMA_UNSUPPORTED_DIALECT',
  /** `ToolSchemaError`, `reason: 'unusable'`. */
  ToolSchemaUnusable: 'MCPC_TOOL_SCHEMA_UNUSABLE',
  /** `ConnectionError`: the transport could not be started, or the handshake failed. */
  ConnectionFailed: 'MCPC_CONNECTION_FAILED',
  /** `ConnectionError`: the server process exited during the handshake. */
  ServerExited: 'MCPC_SERVER_EXITED',
  /** `ConnectionError`: the server did not answer the handshake in time. */
  HandshakeTimeout: 'MCPC_HANDSHAKE_TIMEOUT',
  /** `ConnectionError`: the server was lost and cannot be restarted. */
  ConnectionLost: 'MCPC_CONNECTION_LOST',
  /** `CrashLoopError`. */
  CrashLoop: 'MCPC_CRASH_LOOP',
  /** `UnsupportedProtocolVersionError`. */
  UnsupportedProtocolVersion: 'MCPC_UNSUPPORTED_PROTOCOL_VERSION',
  /** `HeaderMismatchError`. */
  HeaderMismatch: 'MCPC_HEADER_MISMATCH',
  /** `MissingRequiredClientCapabilityError`. */
  MissingClientCapability: 'MCPC_MISSING_CLIENT_CAPABILITY',
  /** `InputRequiredError`. */
  InputRequired: 'MCPC_INPUT_REQUIRED',
  /** `InputLimitError`, `limit: 'inputRequests'`. */
  TooManyInputRequests: 'MCPC_TOO_MANY_INPUT_REQUESTS',
  /** `InputLimitError`, `limit: 'requestState'`. */
  RequestStateTooLarge: 'MCPC_REQUEST_STATE_TOO_LARGE',
  /** `SubscriptionError`. */
  SubscriptionFailed: 'MCPC_SUBSCRIPTION_FAILED',
  /** Internal: the server does not speak MCP 2026-07-28 (caught by detection, never seen by a caller). */
  NotModern: 'MCPC_NOT_MODERN',
  /** `AmbiguousNameError`. */
  AmbiguousName: 'MCPC_AMBIGUOUS_NAME',
  /** `NotFoundError` made directly, without the code of a subclass. */
  NotFound: 'MCPC_NOT_FOUND',
  /** `ToolNotFoundError`. */
  ToolNotFound: 'MCPC_TOOL_NOT_FOUND',
  /** `PromptNotFoundError`. */
  PromptNotFound: 'MCPC_PROMPT_NOT_FOUND',
  /** `ResourceNotFoundError`. */
  ResourceNotFound: 'MCPC_RESOURCE_NOT_FOUND',
  /** `UnknownServerError`. */
  UnknownServer: 'MCPC_UNKNOWN_SERVER',
  /** `PaginationError`, `reason: 'cursor-loop'`. */
  PaginationLoop: 'MCPC_PAGINATION_LOOP',
  /** `PaginationError`, `reason: 'page-limit'` or `'item-limit'`. */
  PaginationLimit: 'MCPC_PAGINATION_LIMIT',
  /** `ClientClosedError`. */
  ClientClosed: 'MCPC_CLIENT_CLOSED',
  /** `TransportUnavailableError`. */
  TransportUnavailable: 'MCPC_TRANSPORT_UNAVAILABLE',
  /** `McpError`: a session fact was read before the server connected. */
  NotConnected: 'MCPC_NOT_CONNECTED',
  /** `TaskFailedError`: the task ended `failed`, with the JSON-RPC error its request met. */
  TaskFailed: 'MCPC_TASK_FAILED',
  /** `TaskCancelledError`: the task ended `cancelled` before its result was had. */
  TaskCancelled: 'MCPC_TASK_CANCELLED',
  /** `TaskExpiredError`: the task's `ttlMs` ran out before it ended (or the server said it expired). */
  TaskExpired: 'MCPC_TASK_EXPIRED',
  /** `TaskNotFoundError`: the server does not know the task id. */
  TaskNotFound: 'MCPC_TASK_NOT_FOUND',
  /** `TaskReplacedError`: the server has given the handle's task id to a newer task. */
  TaskReplaced: 'MCPC_TASK_REPLACED',
  /** `TaskTimeoutError`: a wait for a task ran past its `timeout`. */
  TaskTimeout: 'MCPC_TASK_TIMEOUT',
  /** `TaskInputError`: an input request of a task could not be answered. */
  TaskInput: 'MCPC_TASK_INPUT',
  /** `AmbiguousTaskError`: a bare task id with several servers and no `{ server }`. */
  AmbiguousTask: 'MCPC_AMBIGUOUS_TASK',
  /** `TaskUnsupportedError`: the task operation does not exist on this server's revision, or the tool may not run as a task. */
  TaskUnsupported: 'MCPC_TASK_UNSUPPORTED',
  /** `ConfigEntryError`: an `mcpServers` entry that cannot be read (`readConfigEntry`, `serversFromConfig`). */
  InvalidConfigEntry: 'MCPC_INVALID_CONFIG_ENTRY',
  /** `SkillEntryError`: a skill entry is malformed or incomplete; nothing of it was fetched. */
  SkillEntryInvalid: 'MCPC_SKILL_ENTRY_INVALID',
  /** `SkillEntryError`, `reason: 'too-many-files'` or `'too-large'`: past the 512-file / 16 MiB limits. */
  SkillTooLarge: 'MCPC_SKILL_TOO_LARGE',
  /** `SkillEntryError`, `reason: 'dynamic'`: the skill has no manifest and the host did not opt in. */
  SkillDynamicRefused: 'MCPC_SKILL_DYNAMIC_REFUSED',
  /** `SkillVerificationError`: a file read did not match the held entry; its content was not used. */
  SkillVerificationFailed: 'MCPC_SKILL_VERIFICATION_FAILED',
  /** `SkillApprovalError`: the host's `onSkillApproval` did not approve loading the skill. */
  SkillNotApproved: 'MCPC_SKILL_NOT_APPROVED',
  /** `ToolConversionError` (`@mcpc/client/convert`). */
  ToolConversion: 'MCPC_TOOL_CONVERSION',
} as const);
export type ClientErrorCode = (typeof ClientErrorCode)[keyof typeof ClientErrorCode];
