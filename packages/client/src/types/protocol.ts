// MCP protocol types as the client hands them to the host: schemas, content, resources, capabilities.
/**
 * MCP protocol types (2025-11-25 schema), as the client hands them to the host.
 *
 * Everything here arrives from a server and is untrusted: the client checks the fields it relies on
 * (names, URIs, the shapes of lists) and passes the rest through as received, including fields a later
 * revision adds. The types describe what a conforming server sends; `_meta` is always open.
 */

/** `_meta`: reserved for protocol and vendor metadata; keys are namespaced strings. */
export type Meta = { readonly [key: string]: unknown };

/** A JSON Schema object, as tools, elicitations and output schemas carry them. */
export interface JsonSchemaObject {
  readonly type?: string | readonly string[];
  readonly $schema?: string;
  readonly properties?: { readonly [name: string]: unknown };
  readonly required?: readonly string[];
  readonly [keyword: string]: unknown;
}

/** The input schema of a tool: always an object schema. */
export interface ToolInputSchema extends JsonSchemaObject {
  readonly type: 'object';
}

export interface Icon {
  readonly src: string;
  readonly mimeType?: string;
  readonly sizes?: readonly string[];
  readonly theme?: 'light' | 'dark';
}

/** Who a client or server is (`clientInfo`, `serverInfo`). */
export interface Implementation {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly description?: string;
  readonly websiteUrl?: string;
  readonly icons?: readonly Icon[];
}

export type Role = 'user' | 'assistant';

/** Hints about how a piece of content is meant to be used. */
export interface Annotations {
  readonly audience?: readonly Role[];
  /** 0 (least important) … 1 (most important). */
  readonly priority?: number;
  /** ISO 8601 timestamp. */
  readonly lastModified?: string;
}

// ── content ─────────────────────────────────────────────────────────────────────────────────────

export interface TextContent {
  readonly type: 'text';
  readonly text: string;
  readonly annotations?: Annotations;
  readonly _meta?: Meta;
}

export interface ImageContent {
  readonly type: 'image';
  /** Base64-encoded image data. */
  readonly data: string;
  readonly mimeType: string;
  readonly annotations?: Annotations;
  readonly _meta?: Meta;
}

export interface AudioContent {
  readonly type: 'audio';
  /** Base64-encoded audio data. */
  readonly data: string;
  readonly mimeType: string;
  readonly annotations?: Annotations;
  readonly _meta?: Meta;
}

/** A reference to a resource the client may read (or subscribe to) later. */
/** What describes a resource, in a list and in a `resource_link` content block alike (the schema's `Resource`). */
export interface ResourceDescription {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly icons?: readonly Icon[];
  readonly annotations?: Annotations;
  readonly _meta?: Meta;
}

export interface ResourceLink extends ResourceDescription {
  readonly type: 'resource_link';
}

export interface TextResourceContentsData {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text: string;
  readonly _meta?: Meta;
}

export interface BlobResourceContentsData {
  readonly uri: string;
  readonly mimeType?: string;
  /** Base64-encoded bytes. */
  readonly blob: string;
  readonly _meta?: Meta;
}

/** A resource's contents carried inline in a tool result or prompt message. */
export interface EmbeddedResource {
  readonly type: 'resource';
  readonly resource: TextResourceContentsData | BlobResourceContentsData;
  readonly annotations?: Annotations;
  readonly _meta?: Meta;
}

/** What tool results and prompt messages carry. */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

// ── sampling content (tool use) ────────────────────────────────────────────────────────────────

export interface ToolUseContent {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: { readonly [key: string]: unknown };
  readonly _meta?: Meta;
}

export interface ToolResultContent {
  readonly type: 'tool_result';
  readonly toolUseId: string;
  readonly content: readonly ContentBlock[];
  readonly structuredContent?: { readonly [key: string]: unknown };
  readonly isError?: boolean;
  readonly _meta?: Meta;
}

export type SamplingContent = TextContent | ImageContent | AudioContent | ToolUseContent | ToolResultContent;

export interface SamplingMessage {
  readonly role: Role;
  readonly content: SamplingContent | readonly SamplingContent[];
  readonly _meta?: Meta;
}

// ── capabilities ────────────────────────────────────────────────────────────────────────────────

type Open = { readonly [key: string]: unknown };

export interface ServerCapabilities {
  readonly tools?: { readonly listChanged?: boolean };
  readonly prompts?: { readonly listChanged?: boolean };
  readonly resources?: { readonly subscribe?: boolean; readonly listChanged?: boolean };
  readonly logging?: Open;
  readonly completions?: Open;
  readonly tasks?: Open;
  /** MCP 2026-07-28 extensions the server supports, by identifier (`io.modelcontextprotocol/tasks`). */
  readonly extensions?: { readonly [name: string]: Open };
  readonly experimental?: { readonly [name: string]: Open };
  readonly [capability: string]: unknown;
}

export interface ClientCapabilities {
  readonly roots?: { readonly listChanged?: boolean };
  readonly sampling?: { readonly tools?: Open; readonly context?: Open };
  readonly elicitation?: { readonly form?: Open; readonly url?: Open };
  /** MCP 2026-07-28 extensions the client declares, by identifier. */
  readonly extensions?: { readonly [name: string]: Open };
  readonly experimental?: { readonly [name: string]: Open };
  readonly [capability: string]: unknown;
}

export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

export const LOGGING_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

export interface Root {
  /** A `file://` URI. */
  readonly uri: string;
  readonly name?: string;
  readonly _meta?: Meta;
}

/** A tool definition as a server sends it (`tools/list`, and the `tools` of a sampling request). */
export interface ToolDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: ToolInputSchema;
  readonly outputSchema?: JsonSchemaObject;
  readonly annotations?: {
    readonly title?: string;
    readonly readOnlyHint?: boolean;
    readonly destructiveHint?: boolean;
    readonly idempotentHint?: boolean;
    readonly openWorldHint?: boolean;
  };
  readonly icons?: readonly Icon[];
  readonly execution?: { readonly taskSupport?: 'forbidden' | 'optional' | 'required' };
  readonly _meta?: Meta;
}
