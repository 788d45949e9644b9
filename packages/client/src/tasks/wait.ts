// Driving a task to its end: polling at the server's pace within bounds, answering its input, the TTL backstop.
import { neverAborted } from '../server/never-signal.js';
import {
  AbortError,
  ErrorReply,
  ErrorCode,
  RequestTimeoutError,
  escapeForLog,
  type RequestContext,
} from '@mcpc/jsonrpc';
import { StructuredContentError, ValidationError } from '../errors.js';
import { fulfil, MAX_ROUNDS, UNSUPPORTED } from '../server/mrtr.js';
import type { HostBridge } from '../server/era.js';
import type { CallToolResult } from '../types/entities.js';
import type { Lifetime } from './book.js';
import type { TaskInputRounds } from './input-rounds.js';
import { TaskCancelledError, TaskExpiredError, TaskFailedError, TaskInputError, TaskTimeoutError } from './errors.js';
import { outcome, type ServerTasks } from './server-tasks.js';
import type { Task, TaskErrorDetail } from './task.js';

/** The interval used when the server suggests none (ms). */
export const DEFAULT_POLL_INTERVAL_MS = 1_000;
/** The floor on the polling interval: a server answering `0` cannot make the client spin (ms). */
export const MIN_POLL_INTERVAL_MS = 100;
/** The ceiling on the polling interval: a server answering 10¹² still gets looked at (ms). */
export const MAX_POLL_INTERVAL_MS = 60_000;

export interface WaitForTaskOptions {
  readonly signal?: AbortSignal;
  /** Bound on the whole wait, in ms (`TaskTimeoutError`; the task itself runs on). None by default: the task's `ttlMs` bounds it. */
  readonly timeout?: number;
  /** Told each new state of the task as the wait sees it (host code: one that throws is logged, not fatal). */
  readonly onStatus?: (task: Task) => void;
  /** Bound on each `tasks/get` (and `tasks/update`), in ms; the request timeout by default. */
  readonly requestTimeout?: number;
}

/** What the wait needs of its server beyond the task methods. */
export interface WaitContext {
  readonly tasks: ServerTasks;
  /** The host handlers, as declared to this server (undefined before it connects). */
  readonly host: () => HostBridge | undefined;
  readonly maxInputRequests: number;
  readonly isModern: () => boolean;
  /** Counts a 2025-11-25 task's input requests while its `tasks/result` is open (absent: not counted). */
  readonly inputRounds?: TaskInputRounds;
}

/**
 * Waits for a task to end and hands back its final state. Polls `tasks/get` at the server's
 * `pollIntervalMs` (kept within `MIN_POLL_INTERVAL_MS`…`MAX_POLL_INTERVAL_MS`). `input_required` is
 * answered with the host's handlers: on MCP 2026-07-28 through `tasks/update`, each request asked of
 * the host once — answers survive a failed update, a dropped connection and a failing handler and are
 * re-sent, not re-asked; on 2025-11-25 by opening `tasks/result`, during which the server sends its
 * requests to the handlers. A task still running once its `ttlMs` has elapsed raises `TaskExpiredError`.
 */
export async function waitForTask(ctx: WaitContext, start: Task, options: WaitForTaskOptions = {}): Promise<Task> {
  const { tasks } = ctx;
  if (start.direct) return start;
  const begun = performance.now();
  const budget = options.timeout;
  if (budget !== undefined && !(Number.isFinite(budget) && budget > 0))
    throw new TypeError('waitForTask() timeout must be a positive number of milliseconds');
  const deadline = budget === undefined ? Number.POSITIVE_INFINITY : begun + budget;
  const signal = options.signal;
  const requestOptions = (): { timeout?: number; signal?: AbortSignal } => {
    const left = deadline - performance.now();
    const each = options.requestTimeout;
    const timeout = Number.isFinite(left) ? Math.max(1, Math.min(left, each ?? left)) : each;
    return { ...(timeout !== undefined && { timeout }), ...(signal !== undefined && { signal }) };
  };
  await tasks.gate('tasks/get', start);
  let lifetime = tasks.lifetime(start);
  let task = start;
  // A handle that says it ended but carries no outcome (from JSON, or a notification) is looked at afresh.
  if (
    task.terminal &&
    task.status !== 'cancelled' &&
    task.result === undefined &&
    task.error === undefined &&
    ctx.isModern()
  )
    task = await tasks.get(task, requestOptions());
  let told: string | undefined;
  const tell = (t: Task): void => {
    const seen = `${t.status}\u0000${t.statusMessage ?? ''}\u0000${t.lastUpdatedAt}`;
    if (seen === told || options.onStatus === undefined) return;
    told = seen;
    try {
      options.onStatus(t);
    } catch (error) {
      tasks.debug(`an onStatus listener threw (ignored): ${messageOf(error)}`);
    }
  };

  // Rounds in which the task asked the host something new: bounded as a direct call's are (MAX_ROUNDS).
  let rounds = 0;
  for (let polls = 0; ; polls++) {
    if (signal?.aborted) throw new AbortError('tasks/get', signal.reason);
    tell(task);
    if (task.terminal) return ctx.isModern() ? task : withLegacyOutcome(ctx, task, requestOptions());
    if (task.inputRequired) {
      if (!ctx.isModern()) return settleThroughResult(ctx, task, deadline, budget, signal);
      const asksAnew = Object.keys(task.inputRequests ?? {}).some(
        (key) => !lifetime.delivered.has(key) && !lifetime.answers.has(key),
      );
      if (asksAnew && ++rounds > MAX_ROUNDS)
        throw new TaskInputError(
          tasks.name,
          task.taskId,
          task,
          'too-many-rounds',
          `it still asked for new input after ${MAX_ROUNDS} rounds; nothing more was asked of the host`,
        );
      // The host's handlers (a person answering a dialog) get until the task expires or the wait's deadline,
      // whichever is first: a dialog left open past the ttl was shown as "waiting for your answer" for ever.
      const until = Math.min(expiryOf(task, lifetime), deadline);
      const bound = boundedSignal(signal, until - performance.now());
      try {
        await answerInputs(ctx, task, lifetime, requestOptions(), bound.signal);
      } catch (error) {
        if (!bound.ran()) throw error;
        if (performance.now() >= deadline - 5) throw new TaskTimeoutError(tasks.name, task.taskId, task, budget!);
        throw new TaskExpiredError(
          tasks.name,
          task.taskId,
          task,
          `its ttlMs of ${task.ttlMs} ran out while the host was still answering its input`,
        );
      } finally {
        bound.clear();
      }
    }
    const expiresAt = expiryOf(task, lifetime);
    const now = performance.now();
    if (polls > 0 && now >= expiresAt)
      throw new TaskExpiredError(
        tasks.name,
        task.taskId,
        task,
        `it was still ${task.status} ${Math.round(now - lifetime.firstSeen)} ms after it was first seen, past its ttlMs of ${task.ttlMs}`,
      );
    if (now >= deadline) throw new TaskTimeoutError(tasks.name, task.taskId, task, budget!);
    const pace = pollDelay(task.pollIntervalMs);
    // Never asleep past the TTL or the deadline: the last look is taken at the first of them, however long
    // the server asks us to wait between looks (a 10^9 ms interval with a 1.5 s TTL was reported at 60 s).
    const delay = Math.max(0, Math.min(pace, deadline - now, expiresAt - now));
    await sleep(delay, signal);
    // Woken at the deadline (timers are not exact): a look with no time left to answer is not sent.
    if (performance.now() >= deadline - 5) throw new TaskTimeoutError(tasks.name, task.taskId, task, budget!);
    try {
      task = await tasks.get(task, requestOptions());
    } catch (error) {
      // A look cut short by the wait's own deadline is the wait timing out, not the server.
      if (error instanceof RequestTimeoutError && performance.now() >= deadline - 5)
        throw new TaskTimeoutError(tasks.name, task.taskId, task, budget!);
      throw error;
    }
    lifetime = tasks.lifetime(task);
  }
}

/** When the task expires on the wait's clock: its ttl from when the client first saw it (never: no ttl). */
const expiryOf = (task: Task, lifetime: Lifetime): number =>
  task.ttlMs === null ? Number.POSITIVE_INFINITY : lifetime.firstSeen + task.ttlMs;

/**
 * The caller's signal, and one that fires after `ms` (none for an endless bound). `ran()` tells whether the
 * bound fired, not the caller; `clear()` stops its timer.
 */
function boundedSignal(
  signal: AbortSignal | undefined,
  ms: number,
): { signal: AbortSignal | undefined; ran: () => boolean; clear: () => void } {
  if (!Number.isFinite(ms)) return { signal, ran: () => false, clear: () => undefined };
  const bound = new AbortController();
  const timer = setTimeout(() => bound.abort(new Error('the task expired')), Math.max(0, ms));
  return {
    signal: signal === undefined ? bound.signal : AbortSignal.any([signal, bound.signal]),
    ran: () => bound.signal.aborted && signal?.aborted !== true,
    clear: () => clearTimeout(timer),
  };
}

/** Settles as `promise`, or rejects with an `AbortError` once `signal` fires: a handler that ignores it cannot hold the wait. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined, method: string): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(new AbortError(method, signal.reason));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new AbortError(method, signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** The polling interval to use for a server's suggestion: its own, kept within the floor and the ceiling. */
export function pollDelay(suggested: number | undefined): number {
  const wanted = suggested ?? DEFAULT_POLL_INTERVAL_MS;
  return Math.min(MAX_POLL_INTERVAL_MS, Math.max(MIN_POLL_INTERVAL_MS, wanted));
}

/**
 * Answers an `input_required` task (MCP 2026-07-28): each request not yet answered is put to the host
 * once; every answer the server has not acknowledged is sent with `tasks/update`. An update that fails
 * keeps its answers for the next poll. A handler that fails first sends what the others produced.
 */
async function answerInputs(
  ctx: WaitContext,
  task: Task,
  lifetime: Lifetime,
  requestOptions: { timeout?: number; signal?: AbortSignal },
  signal: AbortSignal | undefined,
): Promise<void> {
  const { tasks } = ctx;
  const requests = task.inputRequests ?? {};
  const keys = Object.keys(requests);
  if (keys.length > ctx.maxInputRequests)
    throw new TaskInputError(
      tasks.name,
      task.taskId,
      task,
      'too-many',
      `it asked for ${keys.length} inputs at once, more than maxInputRequests (${ctx.maxInputRequests}); none was asked of the host`,
    );
  const host = ctx.host();
  let failure: TaskInputError | undefined;
  for (const key of keys) {
    if (lifetime.delivered.has(key) || lifetime.answers.has(key)) continue;
    const entry = requests[key];
    if (
      typeof entry !== 'object' ||
      entry === null ||
      typeof (entry as { method?: unknown }).method !== 'string' ||
      ((entry as { params?: unknown }).params !== undefined &&
        (typeof (entry as { params?: unknown }).params !== 'object' || (entry as { params?: unknown }).params === null))
    ) {
      failure = new TaskInputError(
        tasks.name,
        task.taskId,
        task,
        'malformed',
        `input request "${escapeForLog(key, 64)}" is not a { method, params } request`,
        { key },
      );
      break;
    }
    const { method, params } = entry as { method: string; params?: Record<string, unknown> };
    const context: RequestContext = { id: key, method, signal: signal ?? neverAborted() };
    try {
      if (host === undefined) throw UNSUPPORTED;
      const answer = await unlessAborted(
        (async () => fulfil({ host, logger: tasks.logger, server: tasks.name }, method, params, context))(),
        signal,
        method,
      );
      tasks.book.answered(lifetime, key, answer);
    } catch (error) {
      if (error instanceof AbortError) throw error;
      const unsupported = error === UNSUPPORTED;
      const malformed = error instanceof ErrorReply && error.rpcCode === ErrorCode.InvalidParams;
      failure = new TaskInputError(
        tasks.name,
        task.taskId,
        task,
        unsupported ? 'unsupported' : malformed ? 'malformed' : 'handler-failed',
        unsupported
          ? `it asked for ${escapeForLog(method, 64)}, which this client has no handler for (or did not declare)`
          : `input request "${escapeForLog(key, 64)}" (${escapeForLog(method, 64)}) failed: ${messageOf(error)}`,
        unsupported ? { key } : { key, cause: error },
      );
      break;
    }
  }
  // Only keys still outstanding may be answered; an answer to one the server no longer lists was taken.
  const outstanding = new Set(keys);
  const gone = [...lifetime.answers.keys()].filter((k) => !outstanding.has(k));
  if (gone.length > 0) tasks.book.delivered(lifetime, gone);
  const send: Record<string, unknown> = {};
  for (const [key, answer] of lifetime.answers)
    Object.defineProperty(send, key, { value: answer, enumerable: true, writable: true, configurable: true });
  if (Object.keys(send).length > 0) {
    try {
      await tasks.update(task, send, requestOptions);
    } catch (error) {
      if (error instanceof AbortError || failure !== undefined) {
        if (failure === undefined) throw error;
      } else {
        tasks.debug(
          `tasks/update for task "${escapeForLog(task.taskId, 100)}" failed (${messageOf(error)}); its answers are kept and sent again`,
        );
      }
    }
  }
  if (failure !== undefined) throw failure;
}

/**
 * 2025-11-25: a task waiting for input is taken up by `tasks/result`, which the server holds open while
 * it sends its requests (answered by the host handlers on the session) and answers once the task ends.
 */
async function settleThroughResult(
  ctx: WaitContext,
  task: Task,
  deadline: number,
  budget: number | undefined,
  signal: AbortSignal | undefined,
): Promise<Task> {
  const { tasks } = ctx;
  const left = deadline - performance.now();
  const expiresAt = task.ttlMs === null ? Number.POSITIVE_INFINITY : tasks.lifetime(task).firstSeen + task.ttlMs;
  const bound = Math.min(left, expiresAt - performance.now());
  const timeout = Number.isFinite(bound) ? Math.max(1, bound) : 0;
  let result: CallToolResult | undefined;
  let failure: unknown;
  // The server asks during tasks/result with requests of its own: past MAX_ROUNDS of them, the one over
  // is refused to the server, the result is no longer waited for, and the wait fails as a modern one does.
  let overAsked: TaskInputError | undefined;
  const stop = new AbortController();
  const unwatch = ctx.inputRounds?.watch(task.taskId, MAX_ROUNDS, () => {
    overAsked = new TaskInputError(
      tasks.name,
      task.taskId,
      task,
      'too-many-rounds',
      `it still asked for new input after ${MAX_ROUNDS} requests; nothing more was asked of the host`,
    );
    stop.abort(overAsked);
  });
  const waitSignal = signal === undefined ? stop.signal : AbortSignal.any([signal, stop.signal]);
  try {
    result = await tasks.fetchResult(task, { timeout, signal: waitSignal });
  } catch (error) {
    failure = error;
  } finally {
    unwatch?.();
  }
  if (overAsked !== undefined) throw overAsked;
  if (failure instanceof TaskCancelledError) return failure.task ?? task.with({ ...task, status: 'cancelled' });
  if (failure !== undefined && !isTaskFailure(failure)) {
    if (budget !== undefined && performance.now() >= deadline - 1 && failure instanceof RequestTimeoutError)
      throw new TaskTimeoutError(tasks.name, task.taskId, task, budget);
    throw failure;
  }
  // The final state, for the status and message; the outcome is what tasks/result said.
  let final: Task;
  try {
    final = await tasks.get(task, { ...(signal !== undefined && { signal }) });
  } catch {
    final = task;
  }
  if (failure !== undefined) {
    return final.with({ ...final, status: final.terminal ? final.status : 'failed', error: failureDetail(failure) });
  }
  return final.with({ ...final, status: final.terminal ? final.status : 'completed', result });
}

/** 2025-11-25: a terminal task's outcome comes from `tasks/result` (a completed or failed one). */
async function withLegacyOutcome(
  ctx: WaitContext,
  task: Task,
  options: { timeout?: number; signal?: AbortSignal },
): Promise<Task> {
  if (task.status === 'cancelled' || task.result !== undefined || task.error !== undefined) return task;
  try {
    const result = await ctx.tasks.fetchResult(task, options);
    return task.with({ ...task, result });
  } catch (error) {
    if (error instanceof TaskCancelledError) return error.task ?? task;
    if (!isTaskFailure(error)) throw error;
    return task.with({ ...task, error: failureDetail(error) });
  }
}

/**
 * A `callTool` that became a task, followed to its result as if the call had answered directly: a tool
 * result with `isError` is returned; a failed task raises `TaskFailedError`, a cancelled one
 * `TaskCancelledError`. A wait that is aborted, times out or cannot answer the task's input cancels the
 * task (`tasks/cancel`, best effort): nothing else holds a handle on it.
 */
export async function followTask(ctx: WaitContext, task: Task, options: WaitForTaskOptions): Promise<CallToolResult> {
  let last = task;
  try {
    const done = await waitForTask(ctx, task, {
      ...options,
      onStatus: (t) => {
        last = t;
        options.onStatus?.(t);
      },
    });
    return outcome(ctx.tasks.name, done);
  } catch (error) {
    if (!last.terminal && cancels(error)) {
      ctx.tasks.debug(
        `cancelling task "${escapeForLog(task.taskId, 100)}" of an abandoned tools/call (${messageOf(error)})`,
      );
      await ctx.tasks.cancel(last, { timeout: 5_000 }, false).catch((e: unknown) => {
        ctx.tasks.debug(`tasks/cancel for "${escapeForLog(task.taskId, 100)}" failed: ${messageOf(e)}`);
      });
    }
    throw error;
  }
}

/** Failures after which a task nobody else holds is left running unless cancelled. */
function cancels(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error instanceof AbortError ||
    error instanceof TaskTimeoutError ||
    error instanceof TaskInputError ||
    error instanceof ValidationError ||
    error instanceof StructuredContentError ||
    error instanceof RequestTimeoutError
  );
}

const isTaskFailure = (error: unknown): boolean => error instanceof TaskFailedError;

/** The JSON-RPC error a `TaskFailedError` from `tasks/result` carries, as a failed task's `error`. */
function failureDetail(error: unknown): TaskErrorDetail {
  const e = error as { rpcCode?: number; serverMessage?: string; data?: unknown };
  return { code: e.rpcCode ?? ErrorCode.InternalError, message: e.serverMessage ?? '', data: e.data };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError('tasks/get', signal.reason));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortError('tasks/get', signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const messageOf = (e: unknown): string => escapeForLog(e instanceof Error ? e.message : String(e), 300);
