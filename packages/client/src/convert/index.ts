// The `@mcpc/client/convert` entry: standalone converters from MCP tools to the tool shapes of model SDKs.
export type { ConvertibleTool, ConvertOptions, ObjectJsonSchema, ToolNameTarget } from './types.js';
export { ToolConversionError, type ToolConversionErrorReason } from './errors.js';
export { convertToolName, mapToolNames } from './names.js';
export { toOpenAITools, toOpenAIResponsesTools, type OpenAIChatTool, type OpenAIResponsesTool } from './openai.js';
export { toAnthropicTools, type AnthropicTool } from './anthropic.js';
export {
  toGoogleTools,
  toGoogleFunctionDeclarations,
  type GoogleTool,
  type GoogleFunctionDeclaration,
} from './google.js';
export {
  toAiSdkTools,
  type AiSdkTool,
  type AiSdkInputSchema,
  type AiSdkExecute,
  type AiSdkExecuteOptions,
  type AiSdkToolCallOptions,
  type AiSdkValidationResult,
  type AiSdkStandardResult,
} from './ai-sdk.js';
