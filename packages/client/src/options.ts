// The public shapes of the client's options, listeners, routing and batch calls.
import type { JsonRpcParams, Logger } from '@mcpc/jsonrpc';
import type { ServerSpec } from './server-configs.js';
import type { CallToolResult, LogMessage } from './types/entities.js';
import type { ElicitationHandler, ElicitationMode, SamplingHandler } from './types/host.js';
import type { Implementation, Meta, Root } from './types/protocol.js';
import type { InputRequiredWaitHook } from './server/mrtr.js';
import type { StructuredContentValidation } from './features/structured-output.js';
import type { SkillApprovalHook, SkillOptions } from './skills/types.js';
import type { TracingOption } from './tracing/options.js';

export interface ClientOptions {
  /** The servers, in order; the order of aggregated lists follows it. */
  readonly servers?: readonly ServerSpec[];
  /** Sent as `clientInfo` (name and version required). Defaults to this package. */
  readonly clientInfo?: Implementation;
  /** Where the client logs (never payloads). Defaults to warnings and errors on the console. */
  readonly logger?: Logger;
  /** Answers the servers' `elicitation/create` requests; declaring it declares the `elicitation` capability. */
  readonly onElicitation?: ElicitationHandler;
  /** The elicitation modes the handler supports (`['form']`). Add `'url'` only with a UI for URL consent. */
  readonly elicitationModes?: readonly ElicitationMode[];
  /** Answers `sampling/createMessage`; declares `sampling`. Deprecated in MCP 2026-07-28. */
  readonly onSampling?: SamplingHandler;
  /** Declares `sampling.tools` and lets tool-enabled sampling requests reach the handler. */
  readonly samplingSupportsTools?: boolean;
  /** Declares `roots` (even when empty) and answers `roots/list` with them. Deprecated in MCP 2026-07-28. */
  readonly roots?: readonly Root[];
  /** Default per-request timeout in milliseconds (60 000); `0` waits for ever. A call's `timeout` overrides it. */
  readonly requestTimeout?: number;
  /**
   * Bound on a server's first handshake, era detection (`server/discover`) and `initialize` together, in
   * milliseconds; `0` for none. By default 15 000 for stdio servers, and for others the request timeout
   * per step (their first request may wait on an interactive OAuth login). A stdio server that prints a
   * banner or never answers fails within it, with an error that says what it saw. Raise it for a server
   * slow to start (a first `npx` download).
   */
  readonly handshakeTimeout?: number;
  /** The most pages a list follows before failing with `PaginationError` (1000). */
  readonly maxPages?: number;
  /** Cap on strings in a server's log messages (2000 characters). */
  readonly logMessageLimit?: number;
  /** `false` silences this client's deprecation notices. */
  readonly deprecationNotices?: boolean;
  /**
   * Metadata merged into every request's `_meta` (under the caller's own and the protocol's keys): an
   * object, or a function evaluated as each request is built. Copied then, so editing it later changes
   * nothing already sent.
   */
  readonly requestMeta?: Meta | (() => Meta | undefined);
  /**
   * Steers a multi round-trip request (MCP 2026-07-28) that the server keeps answering with only a
   * `requestState` while it waits on something out of band: return `'cancel'` to stop (a resumable
   * `InputRequiredError`), `'retry'` to retry now; anything else waits the growing pause.
   */
  readonly onInputRequiredWait?: InputRequiredWaitHook;
  /**
   * The most `inputRequests` one `input_required` round may carry (MCP 2026-07-28; default 64). A round
   * asking for more fails with `InputLimitError` before any handler is called.
   */
  readonly maxInputRequests?: number;
  /**
   * The largest `requestState` the client echoes back, in UTF-8 bytes (default 262 144, 256 KiB). A
   * larger one fails with `InputLimitError` instead of being re-uploaded each round.
   */
  readonly maxRequestStateBytes?: number;
  /**
   * Extensions this client declares to MCP 2026-07-28 servers, as `clientCapabilities.extensions` on
   * every request: identifiers (`['io.modelcontextprotocol/tasks']`) or identifier → settings
   * (`{ 'io.modelcontextprotocol/tasks': {} }`). Declaring one is a promise to handle what it adds —
   * with the tasks extension, a server may answer any `callTool` with a task, which the client then
   * follows to its result. Classic servers, whose capabilities have no extensions, are not told.
   */
  readonly extensions?: readonly string[] | Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /**
   * How a `tools/call` result is checked against the `outputSchema` of the tool definition the call went
   * out under: `'warn'` (default) logs a mismatch, or a missing `structuredContent`, and returns the
   * result; `'strict'` throws `StructuredContentError`; `'off'` reads no tool schema at all. A call's own
   * `validateStructuredContent` overrides it.
   */
  readonly validateStructuredContent?: StructuredContentValidation;
  /**
   * Asked before a skill is loaded (SEP-2640), with the skill, its `allowed-tools` (shown, never granted)
   * and the `resources` set the approval binds to; true approves. Asked again when that set changes.
   * Without it, a `loadSkill` call is the host's own approval.
   */
  readonly onSkillApproval?: SkillApprovalHook;
  /** Skills: dynamic skills, the verified content cache, the listing bound. */
  readonly skills?: SkillOptions;
  /**
   * OpenTelemetry tracing and metrics: a CLIENT span per request (its context in the request's `_meta`),
   * SERVER spans for the server's requests, the `mcp.client.*.duration` histograms. By default on when
   * `@opentelemetry/api` is installed (its global providers and propagator); give `api` where none is
   * loaded (browsers, Workers); `false` turns it off.
   */
  readonly tracing?: TracingOption;
}

export type NotificationListener = (server: string, method: string, params: JsonRpcParams | undefined) => void;
export type LogListener = (server: string, message: LogMessage) => void;

export interface RouteOptions {
  /** The server to send to; needed when a name is offered by several. */
  readonly server?: string;
}

export interface ToolCall {
  readonly name: string;
  readonly arguments?: Readonly<Record<string, unknown>>;
  readonly server?: string;
  readonly meta?: CallToolResult['_meta'];
  readonly timeout?: number;
  readonly validateStructuredContent?: StructuredContentValidation;
}

/** One item of a batch, in the position of its call: the result, or the error, never both. */
export type ToolCallOutcome =
  | { readonly ok: true; readonly name: string; readonly server: string; readonly result: CallToolResult }
  | { readonly ok: false; readonly name: string; readonly server: string | undefined; readonly error: Error };
