// MCP tools as Anthropic Messages API tools.
import { nameTools } from './names.js';
import { describeTool, normalizeInputSchema } from './schema.js';
import type { ConvertOptions, ConvertibleTool, ObjectJsonSchema } from './types.js';

/** An Anthropic Messages API client tool; assignable to `Anthropic.Messages.Tool` (`ToolUnion`). */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: ObjectJsonSchema;
}

/**
 * MCP tools as Anthropic Messages API tools (`tools` of `messages.create`). Names the API would
 * reject are sanitized (see `convertToolName`); map a `tool_use` block back with
 * `mapToolNames(tools, 'anthropic')`. Each tool is a new object, so setting `cache_control` on the
 * last one is safe.
 *
 * @throws {ToolConversionError} on a duplicate name or an input schema Anthropic cannot take.
 */
export function toAnthropicTools<T extends ConvertibleTool>(
  tools: Iterable<T>,
  options?: ConvertOptions<T>,
): AnthropicTool[] {
  const out: AnthropicTool[] = [];
  nameTools(tools, 'anthropic', options, (tool, name) => {
    const input_schema = normalizeInputSchema(tool, 'anthropic');
    const description = describeTool(tool);
    out.push(description === undefined ? { name, input_schema } : { name, description, input_schema });
  });
  return out;
}
