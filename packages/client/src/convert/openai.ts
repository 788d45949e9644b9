// MCP tools as OpenAI Chat Completions and Responses API function tools.
import { nameTools } from './names.js';
import { describeTool, normalizeInputSchema } from './schema.js';
import type { ConvertOptions, ConvertibleTool, ObjectJsonSchema } from './types.js';

/** A Chat Completions function tool; assignable to `OpenAI.Chat.Completions.ChatCompletionTool`. */
export interface OpenAIChatTool {
  type: 'function';
  function: {
    name: string;
    description?: string;
    parameters: ObjectJsonSchema;
  };
}

/** A Responses API function tool; assignable to `OpenAI.Responses.FunctionTool` (and `Tool`). */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: ObjectJsonSchema;
  strict: false;
}

/**
 * MCP tools as OpenAI Chat Completions function tools (`tools` of `chat.completions.create`). Names
 * the API would reject are sanitized (see `convertToolName`); map a tool call back with
 * `mapToolNames(tools, 'openai')`. `strict` is left unset (off): strict mode needs a JSON Schema
 * subset MCP servers do not promise. OpenAI rejects `tools: []`: omit `tools` when the list is empty.
 *
 * @throws {ToolConversionError} on a duplicate name or an input schema OpenAI cannot take.
 */
export function toOpenAITools<T extends ConvertibleTool>(
  tools: Iterable<T>,
  options?: ConvertOptions<T>,
): OpenAIChatTool[] {
  const out: OpenAIChatTool[] = [];
  nameTools(tools, 'openai', options, (tool, name) => {
    const parameters = normalizeInputSchema(tool, 'openai');
    const description = describeTool(tool);
    out.push({
      type: 'function',
      function: description === undefined ? { name, parameters } : { name, description, parameters },
    });
  });
  return out;
}

/**
 * MCP tools as OpenAI Responses API function tools (`tools` of `responses.create`). Same names and
 * schemas as `toOpenAITools`, in the flat Responses shape. `strict: false` is sent explicitly: the
 * field is required there, and strict mode would reject most MCP schemas.
 *
 * @throws {ToolConversionError} on a duplicate name or an input schema OpenAI cannot take.
 */
export function toOpenAIResponsesTools<T extends ConvertibleTool>(
  tools: Iterable<T>,
  options?: ConvertOptions<T>,
): OpenAIResponsesTool[] {
  const out: OpenAIResponsesTool[] = [];
  nameTools(tools, 'openai', options, (tool, name) => {
    const parameters = normalizeInputSchema(tool, 'openai');
    const description = describeTool(tool);
    out.push(
      description === undefined
        ? { type: 'function', name, parameters, strict: false }
        : { type: 'function', name, description, parameters, strict: false },
    );
  });
  return out;
}
