// Tools: reading `tools/list` items and annotations, building `tools/call` params, reading call results.
import type { JsonRpcParams } from '@mcpc/jsonrpc';
import { ValidationError } from '../errors.js';
import { copyOwn } from './copy.js';
import type { ListKind } from '../cache/pagination.js';
import type { CallToolResult, TaskSupport, Tool, ToolAnnotations } from '../types/entities.js';
import type { Meta } from '../types/protocol.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const bool = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback);

/**
 * The MCP ToolAnnotations defaults: absent (or non-boolean) hints read as the less-safe value.
 *
 * The object `{ ...raw, readOnlyHint, … }`, built as a copy then stores: that spread gave every result a
 * map of its own (~3 µs per tool, 3 ms of every 1,000-tool `tools/list`). A non-string `title` is deleted —
 * a broken definition is rare, so only it pays for the slower object a `delete` makes.
 */
export function resolveAnnotations(raw: unknown): ToolAnnotations {
  if (!isObject(raw)) return { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
  const resolved = copyOwn(raw);
  resolved.readOnlyHint = bool(raw.readOnlyHint, false);
  resolved.destructiveHint = bool(raw.destructiveHint, true);
  resolved.idempotentHint = bool(raw.idempotentHint, false);
  resolved.openWorldHint = bool(raw.openWorldHint, true);
  if (raw.title !== undefined && typeof raw.title !== 'string') delete resolved.title;
  // The legacy annotations are typed booleans or absent: anything else a server sent under those names is dropped.
  for (const legacy of LEGACY_ANNOTATIONS)
    if (raw[legacy] !== undefined && typeof raw[legacy] !== 'boolean') delete resolved[legacy];
  return resolved as unknown as ToolAnnotations;
}

const LEGACY_ANNOTATIONS = ['readOnly', 'destructive', 'requiresConfirmation'] as const;

const TASK_SUPPORT: ReadonlySet<unknown> = new Set(['forbidden', 'optional', 'required']);

/**
 * A tool from `tools/list`, or why it was dropped. Unknown fields pass through.
 *
 * The object `{ ...raw, server, inputSchema, annotations, taskSupport }`, built as a copy then stores
 * (the spread cost ~4 µs per tool, and every tool of a list is read on each fetch), with an invalid
 * `outputSchema`, `title`, `description` or `icons` deleted: only a broken definition pays for that.
 */
export function readTool(raw: unknown, server: string): Tool | string {
  if (!isObject(raw)) return 'not an object';
  const name = raw.name;
  if (typeof name !== 'string' || name.length === 0) return 'no string "name"';
  let inputSchema = raw.inputSchema;
  // Missing is tolerated (older servers); present but not an object is a broken definition.
  if (inputSchema === undefined) inputSchema = { type: 'object' };
  else if (!isObject(inputSchema)) return `"${name.slice(0, 64)}": inputSchema is not an object`;
  const execution = raw.execution;
  const tool = copyOwn(raw);
  tool.server = server;
  tool.inputSchema = inputSchema;
  tool.annotations = resolveAnnotations(raw.annotations);
  if (isObject(raw.annotations)) DECLARED.set(tool, raw.annotations);
  tool.taskSupport = (
    isObject(execution) && TASK_SUPPORT.has(execution.taskSupport) ? execution.taskSupport : 'forbidden'
  ) as TaskSupport;
  const { title, description, outputSchema, icons } = raw;
  if (outputSchema !== undefined && !isObject(outputSchema)) delete tool.outputSchema;
  if (title !== undefined && typeof title !== 'string') delete tool.title;
  if (description !== undefined && typeof description !== 'string') delete tool.description;
  if (icons !== undefined && !Array.isArray(icons)) delete tool.icons;
  return tool as unknown as Tool;
}

/** The annotations each tool's server sent, before the defaults: kept aside, so a list pays one WeakMap entry a tool. */
const DECLARED = new WeakMap<object, Readonly<Record<string, unknown>>>();

/**
 * The annotations as the server sent them, without the defaults `tool.annotations` fills in: what a host
 * shows as "declared" (a read-only tool that says nothing of `destructiveHint` did not declare it `true`).
 * `undefined` when the server sent no annotations object, or the tool was not read from a list by this client.
 */
export function declaredAnnotations(tool: Tool): Readonly<Record<string, unknown>> | undefined {
  return DECLARED.get(tool);
}

export const TOOLS: ListKind<Tool> = { method: 'tools/list', key: 'tools', noun: 'tool', read: readTool };

/**
 * The params of a `tools/call`. A `_meta` key inside the arguments is request metadata, not an
 * argument: it is hoisted into the params' `_meta` (the call's own `meta` option wins on a clash).
 */
export function buildCallParams(
  name: string,
  args: Readonly<Record<string, unknown>> | undefined,
  meta: Meta | undefined,
): JsonRpcParams {
  let argumentsOut = args ?? {};
  let hoisted: Meta | undefined;
  if (args !== undefined && Object.hasOwn(args, '_meta')) {
    const { _meta, ...rest } = args;
    argumentsOut = rest;
    if (isObject(_meta)) hoisted = _meta;
  }
  const combined = hoisted === undefined ? meta : meta === undefined ? hoisted : { ...hoisted, ...meta };
  return combined === undefined
    ? { name, arguments: argumentsOut }
    : { name, arguments: argumentsOut, _meta: combined };
}

/**
 * Checks a `tools/call` result where the client relies on it. The result is returned as received (no
 * copy of what may be a large payload), except that a missing `content` becomes `[]`, and — unless
 * `anyJson` (MCP 2026-07-28, where structured content may be any JSON value) — a `structuredContent`
 * that is not an object is dropped: before 2026-07-28 it is no structured content at all.
 */
export function readCallToolResult(raw: unknown, server: string, tool: string, anyJson = false): CallToolResult {
  if (!isObject(raw)) {
    throw new ValidationError(`server "${server}" answered tools/call "${tool}" with something that is not an object`, {
      server,
      method: 'tools/call',
    });
  }
  if (raw.content === undefined) raw.content = [];
  else if (!Array.isArray(raw.content)) {
    throw new ValidationError(
      `server "${server}" answered tools/call "${tool}" with a "content" that is not an array`,
      { server, method: 'tools/call' },
    );
  }
  if (raw.isError !== undefined && typeof raw.isError !== 'boolean') raw.isError = Boolean(raw.isError);
  if (!anyJson && raw.structuredContent !== undefined && !isObject(raw.structuredContent)) delete raw.structuredContent;
  return raw as unknown as CallToolResult;
}

/** Why a result's `structuredContent` will not count as one on a session before 2026-07-28, if it will not. */
export function discardedStructuredContent(raw: unknown, anyJson: boolean): string | undefined {
  if (anyJson || !isObject(raw) || raw.structuredContent === undefined || isObject(raw.structuredContent))
    return undefined;
  const kind =
    raw.structuredContent === null
      ? 'null'
      : Array.isArray(raw.structuredContent)
        ? 'an array'
        : `a ${typeof raw.structuredContent}`;
  return `it sent ${kind}, and before MCP 2026-07-28 structuredContent is an object`;
}
