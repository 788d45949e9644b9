// ToolConversionError: a tool that cannot be converted for an LLM SDK, and why.
import { McpError } from '@mcpc/jsonrpc';
import { brand } from '../brand.js';
import { ClientErrorCode } from '../codes.js';
import type { ToolNameTarget } from './types.js';

/**
 * Why a conversion failed:
 * - `invalid-name`: the tool's name (or the `name` option's result) is not a string;
 * - `duplicate-name`: two tools would reach the model under the same name (two servers offering the
 *   same tool, or a sanitized name meeting another tool's name); one would silently shadow the other;
 * - `invalid-schema`: `inputSchema` cannot describe an arguments object (not an object, or a `type`
 *   other than `'object'`, or `properties` that is not an object);
 * - `unsupported-schema`: a valid schema the target rejects (OpenAI and Anthropic refuse `anyOf`,
 *   `oneOf`, `allOf` at the top level; OpenAI also `enum` and `not`) or a JSON Schema draft the AI SDK
 *   asked for and the schema cannot be given in;
 * - `invalid-arguments`: an AI SDK tool was executed with arguments that are not a JSON object.
 */
export type ToolConversionErrorReason =
  'invalid-name' | 'duplicate-name' | 'invalid-schema' | 'unsupported-schema' | 'invalid-arguments';

/** A tool could not be converted for an LLM SDK, or an AI SDK tool was called with unusable arguments. */
export class ToolConversionError extends McpError {
  static {
    brand(this, 'ToolConversionError');
  }
  readonly reason: ToolConversionErrorReason;
  /** The MCP name of the tool concerned; `undefined` only when that name is not a string. */
  readonly toolName: string | undefined;
  readonly target: ToolNameTarget;
  /** The name the tool would have had in the target SDK, when it was computed. */
  readonly convertedName: string | undefined;

  constructor(
    reason: ToolConversionErrorReason,
    message: string,
    options: {
      target: ToolNameTarget;
      toolName?: string | undefined;
      convertedName?: string | undefined;
      cause?: unknown;
    },
  ) {
    super(message, { code: ClientErrorCode.ToolConversion, cause: options.cause });
    this.reason = reason;
    this.target = options.target;
    this.toolName = options.toolName;
    this.convertedName = options.convertedName;
  }
}
