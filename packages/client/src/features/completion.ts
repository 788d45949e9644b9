// `completion/complete`: the request's params and the checked, capped answer.
import type { JsonRpcParams } from '@mcpc/jsonrpc';
import { ValidationError } from '../errors.js';
import type { CompleteRequest, Completion } from '../types/entities.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The spec caps a completion at 100 values; a server sending more does not get to flood the host. */
const MAX_VALUES = 100;

export function buildCompleteParams(request: CompleteRequest): JsonRpcParams {
  const { ref, argument, context } = request;
  if (!isObject(ref) || (ref.type !== 'ref/prompt' && ref.type !== 'ref/resource')) {
    throw new TypeError('complete() needs ref: { type: "ref/prompt", name } or { type: "ref/resource", uri }');
  }
  if (!isObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
    throw new TypeError('complete() needs argument: { name: string, value: string }');
  }
  return context === undefined ? { ref, argument } : { ref, argument, context };
}

export function readCompletion(raw: unknown, server: string): Completion {
  const completion = isObject(raw) ? raw.completion : undefined;
  if (!isObject(completion) || !Array.isArray(completion.values)) {
    throw new ValidationError(`server "${server}" answered completion/complete without a "completion.values" array`, {
      server,
      method: 'completion/complete',
    });
  }
  const values = completion.values.filter((v): v is string => typeof v === 'string').slice(0, MAX_VALUES);
  const out: { values: string[]; total?: number; hasMore?: boolean } = { values };
  if (typeof completion.total === 'number') out.total = completion.total;
  if (typeof completion.hasMore === 'boolean') out.hasMore = completion.hasMore;
  return out;
}
