// One server's task operations: get, result, cancel, update and list, gated by revision and capability.
import {
  AbortError,
  ErrorCode,
  JsonRpcErrorCode,
  ServerError,
  escapeForLog,
  safeLog,
  type JsonRpcParams,
  type Logger,
} from '@mcpc/jsonrpc';
import { CapabilityError, PaginationError, ValidationError } from '../errors.js';
import type { Connection } from '../server/connection.js';
import type { EraCallOptions } from '../server/era.js';
import type { CallToolResult } from '../types/entities.js';
import { TaskBook, type Lifetime } from './book.js';
import {
  TaskCancelledError,
  TaskExpiredError,
  TaskFailedError,
  TaskNotFoundError,
  TaskUnsupportedError,
} from './errors.js';
import { Task, originOf, type TaskOrigin, type TaskState } from './task.js';
import { TASKS_EXTENSION, createdTask, declaresTasksExtension, readTaskPage, readTaskState } from './wire.js';

/** Options of one task request. */
export interface TaskRequestOptions {
  readonly timeout?: number;
  readonly signal?: AbortSignal;
}

export interface ServerTasksContext {
  readonly name: string;
  readonly connection: Connection;
  readonly logger: Logger;
  readonly maxPages: number;
  /** Reads a completed task's result as a `CallToolResult`, checked against the definition its creating call went out under. */
  readonly readResult: (raw: unknown, origin: TaskOrigin | undefined) => CallToolResult;
}

/** A task reference: a handle, or a bare id (whose result is then not checked: an id names no tool). */
export type TaskRef = Task | string;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The task methods of one server, in both revisions: MCP 2026-07-28's tasks extension (`tasks/get`
 * carries the result or error inline, `tasks/update` answers input requests, no list) and 2025-11-25's
 * tasks (`tasks/result` delivers the outcome and carries input requests as server requests, `tasks/list`
 * pages). Every request for a handle is checked against the lifetime it names first.
 */
export class ServerTasks {
  readonly #context: ServerTasksContext;
  readonly #connection: Connection;
  readonly book: TaskBook;

  constructor(context: ServerTasksContext) {
    this.#context = context;
    this.#connection = context.connection;
    this.book = new TaskBook(context.name);
  }

  get name(): string {
    return this.#context.name;
  }

  get logger(): Logger {
    return this.#context.logger;
  }

  /** A handle on a task a `tools/call` just created (its answer `raw`), remembered as its id's lifetime. */
  created(raw: Record<string, unknown>, modern: boolean, origin: TaskOrigin): Task {
    const state = createdTask(raw, modern, this.name);
    this.book.created(state);
    return this.#handle(state, origin);
  }

  /** A `completed` handle for a result the server gave directly to a call asked to run as a task. */
  direct(result: CallToolResult, origin: TaskOrigin): Task {
    const now = new Date().toISOString();
    const state: TaskState = {
      taskId: '',
      status: 'completed',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: null,
      result,
    };
    return new Task(this.name, state, { origin, direct: true });
  }

  /** `tasks/get`: the task's state now (a handle whose result is read and checked when it carries one). */
  async get(ref: TaskRef, options: TaskRequestOptions = {}): Promise<Task> {
    if (ref instanceof Task && ref.direct) return ref;
    const modern = await this.gate('tasks/get', ref);
    const taskId = typeof ref === 'string' ? ref : ref.taskId;
    if (typeof ref !== 'string') this.lifetime(ref);
    let raw: unknown;
    try {
      raw = await this.#request('tasks/get', { taskId }, options);
    } catch (error) {
      throw this.#notFound(error, ref, taskId);
    }
    const state = readTaskState(raw, modern, this.name, 'tasks/get');
    if (state.taskId !== taskId)
      throw new ValidationError(
        `server "${escapeForLog(this.name, 100)}" answered tasks/get for "${escapeForLog(taskId, 100)}" with another task`,
        { server: this.name, method: 'tasks/get', issues: ['taskId'] },
      );
    if (typeof ref === 'string') {
      this.book.created(state);
      return this.#handle(state, undefined);
    }
    this.book.observed(ref, state);
    return this.#refresh(ref, state);
  }

  /**
   * The task's outcome: its `CallToolResult` once completed. 2025-11-25's `tasks/result` blocks until the
   * task ends (input requests meanwhile reach the host's handlers as server requests); on MCP 2026-07-28
   * the outcome is read from `tasks/get`, which `wait` polls. A failed task raises `TaskFailedError`, a
   * cancelled one `TaskCancelledError`.
   */
  async result(
    ref: TaskRef,
    options: TaskRequestOptions,
    wait: (task: Task) => Promise<Task>,
  ): Promise<CallToolResult> {
    if (ref instanceof Task && ref.direct) return ref.result!;
    const modern = await this.gate('tasks/result', ref);
    if (modern) {
      const task = typeof ref === 'string' ? await this.get(ref, options) : ref;
      return outcome(this.name, await wait(task));
    }
    return this.fetchResult(ref, options);
  }

  /** 2025-11-25 `tasks/result`: blocks until the task ends; a JSON-RPC error there is the task's failure. */
  async fetchResult(ref: TaskRef, options: TaskRequestOptions): Promise<CallToolResult> {
    const taskId = typeof ref === 'string' ? ref : ref.taskId;
    const task = typeof ref === 'string' ? undefined : ref;
    if (task !== undefined) this.lifetime(task);
    // A cancelled task has no result: what tasks/result answers for it is no failure of its request.
    if (task?.status === 'cancelled') throw new TaskCancelledError(this.name, taskId, task);
    let raw: unknown;
    try {
      raw = await this.#request('tasks/result', { taskId }, options);
    } catch (error) {
      if (error instanceof ServerError && error.code === JsonRpcErrorCode.ServerError) {
        if (error.rpcCode === ErrorCode.InvalidParams && /not found|expired|unknown/i.test(error.serverMessage))
          throw this.#notFound(error, ref, taskId);
        // The error is the request's failure — unless the task was cancelled, which tasks/get tells.
        const now = await this.get(ref, { ...(options.signal !== undefined && { signal: options.signal }) }).catch(
          () => undefined,
        );
        if (now?.status === 'cancelled') throw new TaskCancelledError(this.name, taskId, now);
        throw new TaskFailedError(
          this.name,
          taskId,
          task,
          { code: error.rpcCode, message: error.serverMessage, data: error.data },
          error,
        );
      }
      throw error;
    }
    return this.#context.readResult(raw, task === undefined ? undefined : originOf(task));
  }

  /**
   * `tasks/cancel`: asks the server to cancel the task (never `notifications/cancelled`). 2025-11-25 answers
   * with the task; MCP 2026-07-28 only acknowledges (cancellation is eventually consistent), so one
   * `tasks/get` after the acknowledgment says where the task stands (`look`).
   */
  async cancel(ref: TaskRef, options: TaskRequestOptions = {}, look = true): Promise<Task> {
    if (ref instanceof Task && ref.direct) return ref;
    const modern = await this.gate('tasks/cancel', ref);
    const taskId = typeof ref === 'string' ? ref : ref.taskId;
    const lifetime = typeof ref === 'string' ? undefined : this.lifetime(ref);
    const raw = await this.#request('tasks/cancel', { taskId }, options);
    // The answers kept for it will not be needed again.
    lifetime?.answers.clear();
    if (!modern && isObject(raw) && raw.taskId !== undefined) {
      const state = readTaskState(raw, false, this.name, 'tasks/cancel');
      if (typeof ref === 'string') return this.#handle(state, undefined);
      this.book.observed(ref, state);
      return this.#refresh(ref, state);
    }
    // The ack says nothing of the task: one look tells the caller where it stands (its last state if that
    // fails). A call abandoning its task has no caller to tell, and does not look.
    if (!look) return typeof ref === 'string' ? this.#bare(ref) : ref;
    return this.get(ref, options).catch(() => (typeof ref === 'string' ? this.#bare(ref) : ref));
  }

  /**
   * `tasks/update` (MCP 2026-07-28): answers input requests the host fulfilled itself. The keys answered
   * are recorded, so a wait never asks the host for them again.
   */
  async update(ref: TaskRef, inputResponses: Readonly<Record<string, unknown>>, options: TaskRequestOptions = {}) {
    if (!isObject(inputResponses))
      throw new TypeError('updateTask() takes the answers as an object keyed by input-request key');
    const modern = await this.gate('tasks/update', ref);
    if (!modern)
      throw new TaskUnsupportedError(
        this.name,
        'tasks/update',
        'MCP 2025-11-25 has no tasks/update: a task asks for input with server requests while tasks/result is open, which waitForTask answers with the host handlers',
      );
    const taskId = typeof ref === 'string' ? ref : ref.taskId;
    const lifetime = typeof ref === 'string' ? undefined : this.lifetime(ref);
    await this.#request('tasks/update', { taskId, inputResponses: { ...inputResponses } }, options);
    if (lifetime !== undefined) this.book.delivered(lifetime, Object.keys(inputResponses));
  }

  /** `tasks/list` (2025-11-25 only): every task the server lists for this client, following `nextCursor`. */
  async list(options: TaskRequestOptions = {}): Promise<Task[]> {
    const modern = await this.gate('tasks/list', undefined);
    if (modern)
      throw new TaskUnsupportedError(
        this.name,
        'tasks/list',
        'MCP 2026-07-28 has no tasks/list (a task is named only by the handle its creation returned)',
      );
    const tasks: Task[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let pages = 1; ; pages++) {
      const page = readTaskPage(
        await this.#request('tasks/list', cursor === undefined ? {} : { cursor }, options),
        this.name,
      );
      for (const state of page.tasks) tasks.push(new Task(this.name, state));
      if (page.nextCursor === undefined) return tasks;
      if (seen.has(page.nextCursor)) throw new PaginationError('cursor-loop', this.name, 'tasks/list', pages, tasks);
      if (pages >= this.#context.maxPages)
        throw new PaginationError('page-limit', this.name, 'tasks/list', pages, tasks);
      seen.add(page.nextCursor);
      cursor = page.nextCursor;
    }
  }

  /**
   * Connects, and refuses what this server cannot take before anything is sent. MCP 2026-07-28: the
   * server declared the tasks extension (or created the task in hand). 2025-11-25: its `tasks`
   * capability, with `tasks.cancel` for a cancel and `tasks.list` for a list. Resolves with whether the
   * server is modern.
   */
  async gate(method: string, ref: TaskRef | undefined): Promise<boolean> {
    await this.#connection.connect();
    const modern = this.#connection.isModern;
    if (modern) {
      if (method === 'tasks/list' || method === 'tasks/result') return true;
      const known = ref instanceof Task && this.book.knows(ref.taskId);
      if (!known && !declaresTasksExtension(this.#connection.facts?.capabilities))
        throw new CapabilityError(this.name, `extensions["${TASKS_EXTENSION}"]`, method);
      return true;
    }
    const capability = method === 'tasks/cancel' ? 'tasks.cancel' : method === 'tasks/list' ? 'tasks.list' : 'tasks';
    if (!this.#connection.supports(capability)) throw new CapabilityError(this.name, capability, method);
    return false;
  }

  /** The lifetime a handle names (`TaskReplacedError` when the id names a newer task now). */
  lifetime(task: Task): Lifetime {
    return this.book.lifetimeOf(task);
  }

  /** A handle with a newer state, its inline result read and checked against the handle's definition. */
  #refresh(task: Task, state: TaskState): Task {
    const origin = originOf(task);
    const read = this.#withResult(state, origin);
    if (task.server === this.name) return task.with(read);
    // A handle routed here by `{ server }` from another client: the new one names this server.
    return new Task(this.name, read, {
      ...(task.tool !== undefined && { tool: task.tool }),
      ...(origin !== undefined && { origin }),
    });
  }

  #handle(state: TaskState, origin: TaskOrigin | undefined): Task {
    const read = this.#withResult(state, origin);
    return new Task(this.name, read, origin === undefined ? {} : { origin });
  }

  #bare(taskId: string): Task {
    const now = new Date(0).toISOString();
    return new Task(this.name, { taskId, status: 'working', createdAt: now, lastUpdatedAt: now, ttlMs: null });
  }

  #withResult(state: TaskState, origin: TaskOrigin | undefined): TaskState {
    if (state.result === undefined) return state;
    return { ...state, result: this.#context.readResult(state.result, origin) };
  }

  /** -32602 on a task request: the server does not know the id (expired, when it says so). */
  #notFound(error: unknown, ref: TaskRef, taskId: string): unknown {
    if (!(error instanceof ServerError) || error.code !== JsonRpcErrorCode.ServerError) return error;
    if (error.rpcCode !== ErrorCode.InvalidParams) return error;
    const task = typeof ref === 'string' ? undefined : ref;
    if (/expired/i.test(error.serverMessage))
      return new TaskExpiredError(this.name, taskId, task, 'the server says it expired', error);
    return new TaskNotFoundError(this.name, taskId, task, error);
  }

  #request(method: string, params: JsonRpcParams, options: TaskRequestOptions): Promise<unknown> {
    const call: EraCallOptions = {
      declareTasks: true,
      ...(options.timeout !== undefined && { timeout: options.timeout }),
      ...(options.signal !== undefined && { signal: options.signal }),
    };
    if (options.signal?.aborted) return Promise.reject(new AbortError(method, options.signal.reason));
    return this.#connection.request(method, params, call);
  }

  /** Logs for the server, escaped. */
  debug(message: string): void {
    safeLog(this.#context.logger, 'debug', `[mcpc] server "${escapeForLog(this.name, 100)}": ${message}`);
  }
}

/** A terminal task's outcome: its result, or the typed error of its failure or cancellation. */
export function outcome(server: string, task: Task): CallToolResult {
  // 2025-11-25 ends a tool call whose result has isError `failed`, with that result: a result, as a direct call's.
  if (task.status === 'failed' && task.result !== undefined) return task.result;
  if (task.status === 'completed') {
    if (task.result === undefined)
      throw new ValidationError(
        `server "${escapeForLog(server, 100)}" said task "${escapeForLog(task.taskId, 100)}" completed without its result`,
        { server, method: 'tasks/get', issues: ['result'] },
      );
    return task.result;
  }
  if (task.status === 'failed') throw new TaskFailedError(server, task.taskId, task, task.error);
  if (task.status === 'cancelled') throw new TaskCancelledError(server, task.taskId, task);
  throw new TypeError(`task "${task.taskId}" has not ended (${task.status})`);
}
