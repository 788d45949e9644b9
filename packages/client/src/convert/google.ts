// MCP tools as Google GenAI function declarations and tools.
import { nameTools } from './names.js';
import { describeTool, normalizeInputSchema } from './schema.js';
import type { ConvertOptions, ConvertibleTool, ObjectJsonSchema } from './types.js';

/**
 * A Google GenAI function declaration; assignable to `FunctionDeclaration` of `@google/genai`. The
 * schema goes in `parametersJsonSchema`, which takes JSON Schema as is, rather than `parameters`,
 * which takes Google's OpenAPI-subset `Schema` and would need a lossy translation.
 */
export interface GoogleFunctionDeclaration {
  name: string;
  description?: string;
  parametersJsonSchema: ObjectJsonSchema;
}

/** A Google GenAI tool holding function declarations; assignable to `Tool` of `@google/genai`. */
export interface GoogleTool {
  functionDeclarations: GoogleFunctionDeclaration[];
}

/**
 * MCP tools as Google GenAI function declarations, to combine with other declarations in one `Tool`.
 * Names Gemini would reject are sanitized (see `convertToolName`; Google allows `.` and `:`); map a
 * function call back with `mapToolNames(tools, 'google')`.
 *
 * @throws {ToolConversionError} on a duplicate name or an input schema that is not an object schema.
 */
export function toGoogleFunctionDeclarations<T extends ConvertibleTool>(
  tools: Iterable<T>,
  options?: ConvertOptions<T>,
): GoogleFunctionDeclaration[] {
  const out: GoogleFunctionDeclaration[] = [];
  nameTools(tools, 'google', options, (tool, name) => {
    const parametersJsonSchema = normalizeInputSchema(tool, 'google');
    const description = describeTool(tool);
    out.push(description === undefined ? { name, parametersJsonSchema } : { name, description, parametersJsonSchema });
  });
  return out;
}

/**
 * MCP tools as the `config.tools` list of `@google/genai`'s `generateContent`: one `Tool` holding every
 * function declaration, as Google recommends, or an empty list when there are no tools (a `Tool` with
 * no declarations is not sent).
 *
 * @throws {ToolConversionError} on a duplicate name or an input schema that is not an object schema.
 */
export function toGoogleTools<T extends ConvertibleTool>(
  tools: Iterable<T>,
  options?: ConvertOptions<T>,
): GoogleTool[] {
  const functionDeclarations = toGoogleFunctionDeclarations(tools, options);
  return functionDeclarations.length === 0 ? [] : [{ functionDeclarations }];
}
