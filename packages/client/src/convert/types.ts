// The structural types the LLM-SDK tool converters share: input tools, targets, options, object schemas.
/**
 * Types shared by the LLM-SDK tool converters. Everything here is structural: the converters never
 * import an LLM SDK, so `@mcpc/client` carries no dependency on any of them. The tests check that each
 * output type is assignable to the official package's own type.
 */

/**
 * What a converter needs from an MCP tool. The client's `Tool` objects are assignable to it, and so is
 * a `tools/list` entry as a server sends it, so tools from other MCP libraries convert too.
 */
export interface ConvertibleTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** The tool's JSON Schema for its arguments. MCP requires `type: 'object'`; the converters cope when it is missing. */
  readonly inputSchema: { readonly [keyword: string]: unknown };
  /** Read for its `title` only: the MCP display-name fallback after `title`. */
  readonly annotations?: { readonly title?: string };
}

/**
 * The SDK whose naming rules a converted name follows. `'openai'` covers both the Chat Completions and
 * the Responses API; `'ai-sdk'` follows the strictest rules of the providers the AI SDK talks to, as the
 * converter cannot know which one the caller will use.
 */
export type ToolNameTarget = 'openai' | 'anthropic' | 'google' | 'ai-sdk';

/** Options every converter takes. */
export interface ConvertOptions<T extends ConvertibleTool = ConvertibleTool> {
  /**
   * The name to offer the model for a tool, before the target's naming rules are applied. Defaults to
   * `tool.name`. Use it to namespace the tools of several servers, e.g. `(t) => \`${t.server}__${t.name}\``,
   * when two servers offer the same name (the converters throw on a duplicate rather than drop one).
   */
  readonly name?: (tool: T) => string;
}

/**
 * A converted argument schema: always an object schema with `properties`, as every SDK requires. It
 * is a new top-level object; nested schemas are shared with the input, so treat them as read-only.
 */
export interface ObjectJsonSchema {
  type: 'object';
  properties: { readonly [name: string]: unknown };
  [keyword: string]: unknown;
}
