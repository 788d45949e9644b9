// `sampling/createMessage`: the request checked before the handler, the handler's result as the wire answer.
import type { JsonRpcParams, Logger } from '@mcpc/jsonrpc';
import type { SamplingHandler, SamplingRequest, SamplingResult } from '../types/host.js';
import { respondWith } from './respond.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const INCLUDE_CONTEXT: ReadonlySet<unknown> = new Set(['none', 'thisServer', 'allServers']);

/** A block's problem, or undefined when it is well-formed. */
function checkBlock(block: unknown, tools: boolean): string | undefined {
  if (!isObject(block)) return 'a content block is not an object';
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? undefined : 'a text block has no string "text"';
    case 'image':
    case 'audio':
      return typeof block.data === 'string' && typeof block.mimeType === 'string'
        ? undefined
        : `an ${block.type} block needs string "data" and "mimeType"`;
    case 'tool_use':
      if (!tools) return 'tool use in sampling is not enabled on this client';
      return typeof block.id === 'string' && typeof block.name === 'string' && isObject(block.input)
        ? undefined
        : 'a tool_use block needs "id", "name" and an "input" object';
    case 'tool_result':
      if (!tools) return 'tool use in sampling is not enabled on this client';
      return typeof block.toolUseId === 'string' && Array.isArray(block.content)
        ? undefined
        : 'a tool_result block needs "toolUseId" and a "content" array';
    default:
      return 'a content block has an unknown type';
  }
}

const blocksOf = (content: unknown): unknown[] => (Array.isArray(content) ? content : [content]);

/**
 * Checks a `sampling/createMessage` before the handler sees it (both parties SHOULD validate message
 * content): every message has a role and well-formed content; a user message holding tool results holds
 * nothing else; every assistant tool use is answered, by id, by the user message that follows it; and
 * tools appear only when the host opted in (`samplingSupportsTools`), as the spec requires.
 */
export function checkSampling(params: JsonRpcParams | undefined, tools: boolean): SamplingRequest | string {
  if (params === undefined) return 'no params';
  const { messages, maxTokens } = params;
  if (!Array.isArray(messages) || messages.length === 0) return '"messages" must be a non-empty array';
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens <= 0)
    return '"maxTokens" must be a positive integer';
  if ((params.tools !== undefined || params.toolChoice !== undefined) && !tools)
    return 'tool use in sampling is not enabled on this client';
  if (
    params.tools !== undefined &&
    (!Array.isArray(params.tools) || !params.tools.every((t) => isObject(t) && typeof t.name === 'string'))
  ) {
    return '"tools" must be an array of tool definitions';
  }
  if (params.includeContext !== undefined && !INCLUDE_CONTEXT.has(params.includeContext))
    return 'unknown "includeContext"';
  if (params.systemPrompt !== undefined && typeof params.systemPrompt !== 'string')
    return '"systemPrompt" must be a string';

  let pendingToolUses: Set<string> | undefined;
  for (let i = 0; i < messages.length; i++) {
    const message: unknown = messages[i];
    if (!isObject(message)) return `message #${i} is not an object`;
    if (message.role !== 'user' && message.role !== 'assistant')
      return `message #${i} has a role other than "user" or "assistant"`;
    if (message.content === undefined || (Array.isArray(message.content) && message.content.length === 0))
      return `message #${i} has no content`;
    const blocks = blocksOf(message.content);
    for (const block of blocks) {
      const problem = checkBlock(block, tools);
      if (problem !== undefined) return `message #${i}: ${problem}`;
    }
    const results = blocks.filter((b) => (b as { type: string }).type === 'tool_result') as { toolUseId: string }[];
    const uses = blocks.filter((b) => (b as { type: string }).type === 'tool_use') as { id: string }[];
    if (message.role === 'user') {
      if (results.length > 0 && results.length !== blocks.length)
        return `message #${i}: tool results mixed with other content`;
      if (uses.length > 0) return `message #${i}: a user message cannot hold tool_use`;
      if (pendingToolUses !== undefined) {
        const answered = new Set(results.map((r) => r.toolUseId));
        for (const id of pendingToolUses) if (!answered.has(id)) return `message #${i}: tool result missing in request`;
        if (answered.size !== pendingToolUses.size) return `message #${i}: a tool result answers no tool use`;
      } else if (results.length > 0) {
        return `message #${i}: a tool result answers no tool use`;
      }
      pendingToolUses = undefined;
    } else {
      if (results.length > 0) return `message #${i}: an assistant message cannot hold tool_result`;
      if (pendingToolUses !== undefined) return `message #${i}: tool result missing in request`;
      pendingToolUses = uses.length > 0 ? new Set(uses.map((u) => u.id)) : undefined;
    }
  }
  if (pendingToolUses !== undefined) return 'tool result missing in request';
  return params as unknown as SamplingRequest;
}

/** The wire result; throws (answered with the constant failure) when the handler's result is unusable. */
export function samplingAnswer(result: SamplingResult, tools: boolean): unknown {
  if (!isObject(result)) throw new Error('the sampling handler returned something that is not an object');
  if (typeof result.model !== 'string') throw new Error('the sampling handler returned no string "model"');
  if (result.content === undefined) throw new Error('the sampling handler returned no "content"');
  for (const block of blocksOf(result.content)) {
    const problem = checkBlock(block, tools);
    if (problem !== undefined) throw new Error(`the sampling handler returned bad content: ${problem}`);
  }
  if (result.role !== undefined && result.role !== 'assistant')
    throw new Error('the sampling handler returned a role other than "assistant"');
  return result.role === undefined ? { ...result, role: 'assistant' } : result;
}

// The `includeContext` deprecation notice is the connection's to give: it knows the session's revision.
export function samplingResponder(handler: SamplingHandler, tools: boolean, server: string, logger: Logger) {
  return respondWith<SamplingRequest, SamplingResult>({
    server,
    method: 'sampling/createMessage',
    logger,
    check: (params) => checkSampling(params, tools),
    handle: (request, context) => handler(request, context),
    answer: (result) => samplingAnswer(result, tools),
  });
}
