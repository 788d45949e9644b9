// Input schemas and descriptions shaped for each LLM SDK: keywords they reject removed, JSON cloned.
import { describeForLog } from '@mcpc/jsonrpc';
import { ToolConversionError } from './errors.js';
import type { ConvertibleTool, ObjectJsonSchema, ToolNameTarget } from './types.js';

export const isJsonObject = (value: unknown): value is { readonly [key: string]: unknown } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Top-level keywords each target rejects with a 400 for the whole request ("schema must have type
 * 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level"; Anthropic: "input_schema
 * does not support oneOf, allOf, or anyOf at the top level"). Google and the AI SDK get them as is: the
 * Gemini JSON Schema field accepts them and AI SDK providers adapt schemas themselves.
 */
const REJECTED_AT_TOP_LEVEL: { readonly [T in ToolNameTarget]: readonly string[] } = {
  openai: ['anyOf', 'oneOf', 'allOf', 'enum', 'not'],
  anthropic: ['anyOf', 'oneOf', 'allOf'],
  google: [],
  'ai-sdk': [],
};

/**
 * The tool's input schema as an object schema every SDK accepts: `type: 'object'` (a missing `type`
 * is added, a `type` list containing `'object'` is narrowed to it: arguments are always an object) and
 * `properties` (added when missing; OpenAI rejects an object schema without it). A missing schema
 * means no arguments. The result is a new top-level object; the input is never written to, and nested
 * schemas are shared rather than copied, which keeps a conversion to one small object per tool.
 */
export function normalizeInputSchema(tool: ConvertibleTool, target: ToolNameTarget): ObjectJsonSchema {
  const schema: unknown = tool.inputSchema;
  if (schema === undefined || schema === null) return { type: 'object', properties: {} };
  const fail = (reason: 'invalid-schema' | 'unsupported-schema', why: string): ToolConversionError =>
    new ToolConversionError(reason, `tool ${describeForLog(tool.name)}: ${why}`, { target, toolName: tool.name });

  if (!isJsonObject(schema))
    throw fail('invalid-schema', `inputSchema must be a JSON Schema object, got ${describeForLog(schema)}`);
  const type = schema['type'];
  if (type !== undefined && type !== 'object' && !(Array.isArray(type) && type.includes('object'))) {
    throw fail(
      'invalid-schema',
      `inputSchema.type is ${describeForLog(type)}, but tool arguments are always a JSON object`,
    );
  }
  const properties = schema['properties'];
  if (properties !== undefined && properties !== null && !isJsonObject(properties)) {
    throw fail('invalid-schema', `inputSchema.properties must be an object, got ${describeForLog(properties)}`);
  }
  for (const keyword of REJECTED_AT_TOP_LEVEL[target]) {
    if (schema[keyword] !== undefined) {
      throw fail(
        'unsupported-schema',
        `${target} does not accept \`${keyword}\` at the top level of a tool's input schema`,
      );
    }
  }
  return { ...schema, type: 'object', properties: properties ?? {} };
}

const hasText = (value: unknown): value is string => typeof value === 'string' && /\S/.test(value);

/**
 * What to tell the model the tool does: its description, else its title, else its annotations' title
 * (the MCP display-name order), else nothing. A blank string counts as absent: it tells the model
 * nothing and a title does.
 */
export function describeTool(tool: ConvertibleTool): string | undefined {
  if (hasText(tool.description)) return tool.description;
  if (hasText(tool.title)) return tool.title;
  const annotationsTitle = tool.annotations?.title;
  return hasText(annotationsTitle) ? annotationsTitle : undefined;
}

/** A deep copy of a JSON value, for consumers that write to the schema they are given. */
export function cloneJson<V>(value: V): V {
  if (Array.isArray(value)) return value.map(cloneJson) as V;
  if (!isJsonObject(value)) return value;
  const copy: { [key: string]: unknown } = {};
  for (const key of Object.keys(value)) {
    // defineProperty, not assignment: a `__proto__` key must stay data, not become the prototype.
    Object.defineProperty(copy, key, {
      value: cloneJson(value[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy as V;
}
