// The public shapes of what servers offer: tools, prompts, resources, templates, pages and completions.
import type {
  Annotations,
  ContentBlock,
  Icon,
  JsonSchemaObject,
  LoggingLevel,
  Meta,
  ResourceDescription,
  Role,
  ToolInputSchema,
} from './protocol.js';

/**
 * Tool annotations with the MCP defaults applied where the server gave no hint. The defaults are the
 * less-safe reading, so an un-annotated tool is treated as writable, destructive, non-idempotent and
 * open-world. Hints are untrusted: they describe, they do not guarantee.
 */
export interface ToolAnnotations {
  readonly title?: string;
  /** Default `false`: the tool may modify its environment. */
  readonly readOnlyHint: boolean;
  /** Default `true`: the tool may perform destructive updates (meaningful when not read-only). */
  readonly destructiveHint: boolean;
  /** Default `false`: repeating a call may have further effects. */
  readonly idempotentHint: boolean;
  /** Default `true`: the tool may interact with an open world of external entities. */
  readonly openWorldHint: boolean;
  /**
   * The legacy (pre-hint) annotations, as the server sent them: present only when it sent a boolean, no
   * default. `readOnly`: safe to execute; `destructive`: a destructive operation; `requiresConfirmation`:
   * a person should confirm the call.
   */
  readonly readOnly?: boolean;
  readonly destructive?: boolean;
  readonly requiresConfirmation?: boolean;
}

export type TaskSupport = 'forbidden' | 'optional' | 'required';

export interface ToolExecution {
  readonly taskSupport?: TaskSupport;
}

/** A tool offered by one of the client's servers. */
export interface Tool {
  /** The name of the server that offers it (the routing key for `callTool`). */
  readonly server: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: ToolInputSchema;
  readonly outputSchema?: JsonSchemaObject;
  /** Always present, with the MCP defaults filled in. */
  readonly annotations: ToolAnnotations;
  readonly icons?: readonly Icon[];
  readonly execution?: ToolExecution;
  /** `execution.taskSupport`, `'forbidden'` when absent. */
  readonly taskSupport: TaskSupport;
  readonly _meta?: Meta;
}

export interface CallToolResult {
  readonly content: readonly ContentBlock[];
  /**
   * The tool's structured output: any JSON value from an MCP 2026-07-28 server (`null` included), an
   * object from earlier revisions (anything else they send is dropped). Checked against the tool's
   * `outputSchema` unless `validateStructuredContent` is `'off'`.
   */
  readonly structuredContent?: unknown;
  /** The tool failed: the content describes the error (for the model to read), the call itself succeeded. */
  readonly isError?: boolean;
  readonly _meta?: Meta;
}

export interface PromptArgument {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required?: boolean;
}

export interface Prompt {
  readonly server: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly PromptArgument[];
  readonly icons?: readonly Icon[];
  readonly _meta?: Meta;
}

export interface PromptMessage {
  readonly role: Role;
  readonly content: ContentBlock;
}

export interface GetPromptResult {
  readonly description?: string;
  readonly messages: readonly PromptMessage[];
  readonly _meta?: Meta;
}

export interface Resource extends ResourceDescription {
  readonly server: string;
}

export interface ResourceTemplate {
  readonly server: string;
  /** An RFC 6570 URI template. */
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly icons?: readonly Icon[];
  readonly annotations?: Annotations;
  readonly _meta?: Meta;
}

/** One page of a list, as an explicit `{ cursor }` call returns it. */
export interface ListPage<T> {
  readonly items: readonly T[];
  /** Pass it as `cursor` to get the next page; absent on the last page. */
  readonly nextCursor?: string;
  readonly server: string;
}

export type CompletionReference =
  { readonly type: 'ref/prompt'; readonly name: string } | { readonly type: 'ref/resource'; readonly uri: string };

export interface CompleteRequest {
  readonly ref: CompletionReference;
  readonly argument: { readonly name: string; readonly value: string };
  /** Values of arguments already chosen, which may narrow the completion. */
  readonly context?: { readonly arguments?: { readonly [name: string]: string } };
}

export interface Completion {
  /** At most 100 values, as the spec caps them. */
  readonly values: readonly string[];
  readonly total?: number;
  readonly hasMore?: boolean;
}

/** A `notifications/message` from a server, with its strings made safe to print. */
export interface LogMessage {
  readonly level: LoggingLevel;
  /** The server-side logger name, escaped and capped. */
  readonly logger?: string;
  /** The payload: strings escaped and capped; structures bounded in size (an oversized one becomes a capped string). */
  readonly data: unknown;
}
