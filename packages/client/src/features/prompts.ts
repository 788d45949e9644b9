// Prompts: reading `prompts/list` items and `prompts/get` results, and checking prompt arguments.
import { ValidationError } from '../errors.js';
import { copyOwn } from './copy.js';
import type { ListKind } from '../cache/pagination.js';
import type { GetPromptResult, Prompt } from '../types/entities.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A prompt from `prompts/list`, or why it was dropped. Unknown fields pass through. */
export function readPrompt(raw: unknown, server: string): Prompt | string {
  if (!isObject(raw)) return 'not an object';
  if (typeof raw.name !== 'string' || raw.name.length === 0) return 'no string "name"';
  const prompt = copyOwn(raw);
  prompt.server = server;
  if (raw.arguments !== undefined) {
    if (Array.isArray(raw.arguments))
      prompt.arguments = raw.arguments.filter((a) => isObject(a) && typeof a.name === 'string');
    else delete prompt.arguments;
  }
  return prompt as unknown as Prompt;
}

export const PROMPTS: ListKind<Prompt> = { method: 'prompts/list', key: 'prompts', noun: 'prompt', read: readPrompt };

export function readGetPromptResult(raw: unknown, server: string, name: string): GetPromptResult {
  if (!isObject(raw) || !Array.isArray(raw.messages)) {
    throw new ValidationError(`server "${server}" answered prompts/get "${name}" without a "messages" array`, {
      server,
      method: 'prompts/get',
    });
  }
  return raw as unknown as GetPromptResult;
}

/** Prompt arguments are strings on the wire; other values are a host mistake worth a clear error. */
export function checkPromptArguments(
  args: Readonly<Record<string, unknown>> | undefined,
): Record<string, string> | undefined {
  if (args === undefined) return undefined;
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string')
      throw new TypeError(
        `prompt argument "${key}" must be a string (MCP prompt arguments are strings), not ${typeof value}`,
      );
  }
  return args as Record<string, string>;
}
