// Tool names each LLM SDK accepts: conversion, collision-free naming, and the map back to MCP names.
import { describeForLog } from '@mcpc/jsonrpc';
import { ToolConversionError } from './errors.js';
import type { ConvertOptions, ConvertibleTool, ToolNameTarget } from './types.js';

/**
 * The function-name rules of each target. MCP allows names the SDKs reject (dots, slashes, up to 128
 * characters), and one invalid name fails the whole request, so every name is checked here.
 *
 * - OpenAI: `^[a-zA-Z0-9_-]{1,64}$` (the `FunctionDefinition.name` doc in `openai`).
 * - Anthropic: the same pattern. Anthropic's docs and OpenAPI spec say 64 characters while the
 *   Messages API currently accepts 128; 64 is valid everywhere (including Bedrock and Vertex).
 * - Google: starts with a letter or `_`, then letters, digits, `_ . : -` (the `FunctionDeclaration.name`
 *   doc in `@google/genai`). That doc allows 128, but the Gemini API and Vertex references say 64; 64.
 * - AI SDK: the provider is unknown here, so the intersection of the above.
 */
interface NamePolicy {
  readonly valid: RegExp;
  /** Matches one character (code point) the target does not allow. */
  readonly invalidChar: RegExp;
  readonly maxLength: number;
  readonly leadingLetterOrUnderscore: boolean;
}

const OPENAI_LIKE: NamePolicy = {
  valid: /^[a-zA-Z0-9_-]{1,64}$/,
  invalidChar: /[^a-zA-Z0-9_-]/gu,
  maxLength: 64,
  leadingLetterOrUnderscore: false,
};

const POLICIES: { readonly [T in ToolNameTarget]: NamePolicy } = {
  openai: OPENAI_LIKE,
  anthropic: OPENAI_LIKE,
  google: {
    valid: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
    invalidChar: /[^a-zA-Z0-9_.:-]/gu,
    maxLength: 64,
    leadingLetterOrUnderscore: true,
  },
  'ai-sdk': {
    valid: /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/,
    invalidChar: /[^a-zA-Z0-9_-]/gu,
    maxLength: 64,
    leadingLetterOrUnderscore: true,
  },
};

/** `_` plus 8 hex digits. */
const SUFFIX_LENGTH = 9;

/**
 * 32-bit FNV-1a over UTF-16 code units, as 8 hex digits. Pure JS so the converters run anywhere (no
 * `node:crypto`); it only has to separate names that sanitize alike, and a clash is detected anyway.
 * Changing it renames tools in existing conversations: treat its output as a stable contract.
 */
function hash(name: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * The name a converter gives a tool called `name` in `target`. A name the target accepts is kept as
 * is. Any other is sanitized: each disallowed character becomes `_`, a `_` is prefixed where the
 * target needs a leading letter, and the result is cut to fit before `_` and a hash of the full
 * original name is appended, e.g. `github.create_issue` → `github_create_issue_1b3c0a5e`.
 *
 * The result depends on `name` alone, never on the other tools in the list, so a tool keeps its name
 * when the server's tool list changes and earlier tool calls in a conversation still resolve.
 */
export function convertToolName(name: string, target: ToolNameTarget): string {
  const policy = POLICIES[target];
  if (policy.valid.test(name)) return name;
  let base = name.replace(policy.invalidChar, '_');
  if (policy.leadingLetterOrUnderscore && !/^[a-zA-Z_]/.test(base)) base = `_${base}`;
  return `${base.slice(0, policy.maxLength - SUFFIX_LENGTH)}_${hash(name)}`;
}

/**
 * Names every tool for `target`, calling `visit` with each, and returns the converted-name → tool map.
 * Throws `ToolConversionError` (`invalid-name`, `duplicate-name`) before a name is shadowed.
 */
export function nameTools<T extends ConvertibleTool>(
  tools: Iterable<T>,
  target: ToolNameTarget,
  options: ConvertOptions<T> | undefined,
  visit?: (tool: T, convertedName: string) => void,
): Map<string, T> {
  const byName = new Map<string, T>();
  const rename = options?.name;
  for (const tool of tools) {
    const name: unknown = rename === undefined ? tool.name : rename(tool);
    if (typeof name !== 'string') {
      const toolName = typeof tool.name === 'string' ? tool.name : undefined;
      throw new ToolConversionError('invalid-name', `a tool name must be a string, got ${describeForLog(name)}`, {
        target,
        toolName,
      });
    }
    const convertedName = convertToolName(name, target);
    const previous = byName.get(convertedName);
    if (previous !== undefined) {
      throw new ToolConversionError(
        'duplicate-name',
        `tools ${describeForLog(previous.name)} and ${describeForLog(tool.name)} would both be named ` +
          `${describeForLog(convertedName)} for ${target}; give them distinct names (the \`name\` option can prefix the server)`,
        { target, toolName: tool.name, convertedName },
      );
    }
    byName.set(convertedName, tool);
    visit?.(tool, convertedName);
  }
  return byName;
}

/**
 * The converted-name → tool map for `tools` as the `target` converter names them (with the same
 * `options`), to route a model's tool call back to the MCP tool it means. Throws what the converter
 * would throw for names; schemas are not looked at.
 *
 * @example
 * const byName = mapToolNames(tools, 'openai');
 * const tool = byName.get(call.function.name); // the MCP tool, with its original `name`
 */
export function mapToolNames<T extends ConvertibleTool>(
  tools: Iterable<T>,
  target: ToolNameTarget,
  options?: ConvertOptions<T>,
): ReadonlyMap<string, T> {
  return nameTools(tools, target, options);
}
