// MCP tools as Vercel AI SDK tools, with their JSON Schema wrapped and calls routed back to the client.
import { describeForLog } from '@mcpc/jsonrpc';
import { ToolConversionError } from './errors.js';
import { nameTools } from './names.js';
import { cloneJson, describeTool, isJsonObject, normalizeInputSchema } from './schema.js';
import type { ConvertOptions, ConvertibleTool, ObjectJsonSchema } from './types.js';

/**
 * The brand `jsonSchema()` of `@ai-sdk/provider-utils` (re-exported by `ai`) puts on a schema, and
 * which its `asSchema()` tests, along with `jsonSchema` and `validate` keys, before it uses a schema's
 * JSON Schema as given. `ai` is not a dependency of this package, so the wrapper is built here with the
 * same registry symbol; `Symbol.for` makes it the very symbol `ai` uses, whatever copy is installed.
 */
const AI_SDK_SCHEMA = Symbol.for('vercel.ai.schema');

/** The JSON Schema drafts an MCP input schema is handed over in, unchanged: MCP's default dialect is 2020-12, earlier revisions used draft-07 style schemas. */
const STANDARD_JSON_SCHEMA_TARGETS: ReadonlySet<string> = new Set(['draft-2020-12', 'draft-07']);

export type AiSdkValidationResult =
  | { readonly success: true; readonly value: Record<string, unknown> }
  | { readonly success: false; readonly error: Error };

export type AiSdkStandardResult =
  { readonly value: Record<string, unknown> } | { readonly issues: readonly { readonly message: string }[] };

/**
 * The input schema of a converted tool. At run time it also carries the AI SDK's schema brand, so `ai`
 * sends `jsonSchema` to the provider untouched. Its type is the Standard Schema + Standard JSON Schema
 * interface (`~standard`, implemented for real) because that is the member of the AI SDK's
 * `FlexibleSchema` that can be written without `ai`'s types: its brand is a `unique symbol` no other
 * package can name. Should `ai` ever stop recognising the brand, it falls back to `~standard`, which
 * gives it a fresh copy each time, as `ai` rewrites the schema it gets there (`additionalProperties`).
 */
export interface AiSdkInputSchema {
  readonly jsonSchema: ObjectJsonSchema;
  readonly validate: (value: unknown) => AiSdkValidationResult;
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'mcpc';
    readonly validate: (value: unknown) => AiSdkStandardResult;
    readonly jsonSchema: {
      /** @throws {ToolConversionError} `unsupported-schema` for a target other than `draft-2020-12` or `draft-07`. */
      readonly input: (options: { readonly target: string }) => ObjectJsonSchema;
      readonly output: (options: { readonly target: string }) => ObjectJsonSchema;
    };
  };
}

/**
 * What a converted tool's `execute` reads of the AI SDK's `ToolExecutionOptions`. The fields are
 * spelled out (rather than only `abortSignal`) so a direct call with the AI SDK's options type-checks.
 */
export interface AiSdkToolCallOptions {
  readonly toolCallId?: string;
  readonly abortSignal?: AbortSignal | undefined;
  readonly messages?: readonly unknown[];
}

/** A converted tool; assignable to `Tool` of `ai` (a dynamic tool, the AI SDK's kind for MCP tools). */
export interface AiSdkTool {
  type: 'dynamic';
  description?: string;
  inputSchema: AiSdkInputSchema;
  execute: (input: unknown, options?: AiSdkToolCallOptions) => Promise<unknown>;
}

export interface AiSdkExecuteOptions<T extends ConvertibleTool = ConvertibleTool> {
  /** The AI SDK's `abortSignal` for this call, when it has one. */
  readonly signal?: AbortSignal;
  /** The AI SDK's id of this tool call, when it has one: to correlate progress or logs. */
  readonly toolCallId?: string;
  /** The tool being called, as passed in: e.g. its `server`, to route the call. */
  readonly tool: T;
}

/**
 * Runs an MCP tool: `name` is the tool's MCP name (never the converted one), `args` its arguments.
 * Typically `(name, args, { tool, signal }) => client.callTool(...)`.
 */
export type AiSdkExecute<T extends ConvertibleTool = ConvertibleTool> = (
  name: string,
  args: Record<string, unknown>,
  options: AiSdkExecuteOptions<T>,
) => Promise<unknown>;

type BrandedInputSchema = AiSdkInputSchema & { readonly [AI_SDK_SCHEMA]: true; readonly _type: undefined };

function inputSchemaFor(tool: ConvertibleTool, schema: ObjectJsonSchema): AiSdkInputSchema {
  const notAnObject = (value: unknown): ToolConversionError =>
    new ToolConversionError(
      'invalid-arguments',
      `tool ${describeForLog(tool.name)}: arguments must be a JSON object, got ${describeForLog(value)}`,
      { target: 'ai-sdk', toolName: tool.name },
    );
  const exportSchema = (options: { readonly target: string }): ObjectJsonSchema => {
    if (!STANDARD_JSON_SCHEMA_TARGETS.has(options.target)) {
      throw new ToolConversionError(
        'unsupported-schema',
        `tool ${describeForLog(tool.name)}: its input schema is only available as JSON Schema draft-2020-12 or draft-07, not ${describeForLog(options.target)}`,
        { target: 'ai-sdk', toolName: tool.name },
      );
    }
    return cloneJson(schema);
  };
  const branded: BrandedInputSchema = {
    [AI_SDK_SCHEMA]: true,
    // Present, as on `jsonSchema()`'s result; only ever read by the AI SDK's types.
    _type: undefined,
    jsonSchema: schema,
    // Only the shape is checked: the server validates arguments against the full schema.
    validate: (value) =>
      isJsonObject(value)
        ? { success: true, value: value as Record<string, unknown> }
        : { success: false, error: notAnObject(value) },
    '~standard': {
      version: 1,
      vendor: 'mcpc',
      validate: (value) =>
        isJsonObject(value)
          ? { value: value as Record<string, unknown> }
          : { issues: [{ message: notAnObject(value).message }] },
      jsonSchema: { input: exportSchema, output: exportSchema },
    },
  };
  return branded;
}

/**
 * MCP tools as a Vercel AI SDK `ToolSet` (`tools` of `generateText` / `streamText` / agents), keyed by
 * converted name. Each tool's `execute` checks that the arguments are an object and calls `execute`
 * with the MCP name, the arguments, and `{ signal, toolCallId, tool }`. Names follow the strictest
 * provider rules (see `convertToolName`); `mapToolNames(tools, 'ai-sdk')` maps a tool-call part back.
 *
 * The record has no prototype, so a tool named `__proto__` or `constructor` is an ordinary entry.
 *
 * @throws {ToolConversionError} on a duplicate name or an input schema that is not an object schema.
 */
export function toAiSdkTools<T extends ConvertibleTool>(
  tools: Iterable<T>,
  execute: AiSdkExecute<T>,
  options?: ConvertOptions<T>,
): Record<string, AiSdkTool> {
  const out: Record<string, AiSdkTool> = Object.create(null) as Record<string, AiSdkTool>;
  nameTools(tools, 'ai-sdk', options, (tool, name) => {
    const inputSchema = inputSchemaFor(tool, normalizeInputSchema(tool, 'ai-sdk'));
    const run: AiSdkTool['execute'] = async (input, callOptions) => {
      const validation = inputSchema.validate(input);
      if (!validation.success) throw validation.error;
      const signal = callOptions?.abortSignal;
      const toolCallId = callOptions?.toolCallId;
      // Absent keys stay absent (exactOptionalPropertyTypes): `{ signal: undefined }` would be a lie.
      const forward: { signal?: AbortSignal; toolCallId?: string; tool: T } = { tool };
      if (signal !== undefined) forward.signal = signal;
      if (toolCallId !== undefined) forward.toolCallId = toolCallId;
      return execute(tool.name, validation.value, forward);
    };
    const description = describeTool(tool);
    out[name] =
      description === undefined
        ? { type: 'dynamic', inputSchema, execute: run }
        : { type: 'dynamic', description, inputSchema, execute: run };
  });
  return out;
}
