// MCP 2025-11-25 task input: the server requests naming a task that is being waited for, counted and bounded.
import { ErrorCode, ErrorReply, type JsonRpcParams, type RequestContext } from '@mcpc/jsonrpc';
import type { HostBridge } from '../server/era.js';

/** The `_meta` key by which a 2025-11-25 server ties a request to its task. */
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';

interface Watch {
  asked: number;
  readonly limit: number;
  readonly exceeded: () => void;
  /** Aborted when the wait ends: a dialog still open for the task is then abandoned. */
  readonly ended: AbortController;
}

/**
 * The waits open on one server's 2025-11-25 tasks. There a task asks for input with ordinary server
 * requests (elicitation, sampling) while `tasks/result` is open, so a task that asks anew forever would
 * reach the user forever. Each request whose `related-task` names a watched task counts one round; the
 * one past the limit is refused to the server, never shown to the host, and ends the wait. The task stays
 * refused once the wait is over (the server may go on asking) until a new wait for it starts.
 */
export class TaskInputRounds {
  readonly #open = new Map<string, Watch>();
  /** Tasks that asked too often, oldest first, at most `MAX_REFUSED` of them. */
  readonly #refused = new Set<string>();

  /** Starts counting a task's input requests (a refused task is given a fresh count); returns the function that stops. */
  watch(taskId: string, limit: number, exceeded: () => void): () => void {
    const watch: Watch = { asked: 0, limit, exceeded, ended: new AbortController() };
    this.#refused.delete(taskId);
    this.#open.set(taskId, watch);
    return () => {
      if (this.#open.get(taskId) === watch) this.#open.delete(taskId);
      watch.ended.abort(new Error('the wait for the task ended'));
    };
  }

  /**
   * Lets a server request through to the host, or throws the refusal the server is answered with. For a
   * watched task, answers the signal that fires when its wait ends (the host's handler should stop then).
   */
  admit(params: JsonRpcParams | undefined): AbortSignal | undefined {
    const taskId = relatedTaskOf(params);
    if (taskId === undefined) return undefined;
    const watch = this.#open.get(taskId);
    if (watch !== undefined && ++watch.asked > watch.limit) {
      this.#refuse(taskId);
      watch.exceeded();
    }
    if (!this.#refused.has(taskId)) return watch?.ended.signal;
    throw new ErrorReply(
      ErrorCode.InvalidRequest,
      `the client stopped answering input for task ${JSON.stringify(taskId).slice(0, 80)}: it asked for input more often than a wait allows`,
    );
  }

  #refuse(taskId: string): void {
    this.#refused.delete(taskId);
    this.#refused.add(taskId);
    if (this.#refused.size > MAX_REFUSED) this.#refused.delete(this.#refused.values().next().value as string);
  }
}

/** How many refused task ids are remembered per server (memory stays bounded under a hostile server). */
const MAX_REFUSED = 256;

/** The host side with every elicitation and sampling request passed through `rounds.admit` first. */
export function countingTaskInput(host: HostBridge, rounds: TaskInputRounds): HostBridge {
  const { elicit, sample } = host;
  return {
    ...host,
    elicit:
      elicit &&
      (async (params, context, options) => elicit(params, untilWaitEnds(context, rounds.admit(params)), options)),
    sample: sample && (async (params, context) => sample(params, untilWaitEnds(context, rounds.admit(params)))),
  };
}

/** The request's context, its signal also firing when the task's wait ends. */
function untilWaitEnds(context: RequestContext, ended: AbortSignal | undefined): RequestContext {
  return ended === undefined ? context : { ...context, signal: AbortSignal.any([context.signal, ended]) };
}

function relatedTaskOf(params: JsonRpcParams | undefined): string | undefined {
  const meta = (params as { _meta?: unknown } | undefined)?._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const related = (meta as Record<string, unknown>)[RELATED_TASK];
  const taskId = typeof related === 'object' && related !== null ? (related as { taskId?: unknown }).taskId : undefined;
  return typeof taskId === 'string' ? taskId : undefined;
}
