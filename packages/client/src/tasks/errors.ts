// The errors of the task flow: a task that failed, was cancelled, expired, is unknown or was replaced; waits run out.
import { McpError, escapeForLog, escapePeerText } from '@mcpc/jsonrpc';
import { brand } from '../brand.js';
import { ClientErrorCode } from '../codes.js';
import type { Task } from './task.js';

/** What a task-related error carries: the server, the task id, and the last state seen of the task (if any). */
abstract class TaskError extends McpError {
  readonly server: string;
  readonly taskId: string;
  /** The last state of the task the client saw, when it saw one. */
  readonly task: Task | undefined;

  constructor(
    message: string,
    code: ClientErrorCode,
    server: string,
    taskId: string,
    task: Task | undefined,
    cause?: unknown,
  ) {
    super(message, { code, cause });
    this.server = server;
    this.taskId = taskId;
    this.task = task;
  }
}

const named = (server: string, taskId: string): string =>
  `task "${escapeForLog(taskId, 100)}" on server "${escapeForLog(server, 100)}"`;

/**
 * The task ended `failed`: its request met a JSON-RPC error while it ran. `rpcCode`, `serverMessage` and
 * `data` are that error's (untrusted peer text; the message quotes it escaped). A tool result with
 * `isError` is no failure: it is returned as the result, as a direct call would.
 */
export class TaskFailedError extends TaskError {
  static {
    brand(this, 'TaskFailedError');
  }
  readonly rpcCode: number | undefined;
  readonly serverMessage: string | undefined;
  readonly data: unknown;

  constructor(server: string, taskId: string, task: Task | undefined, error: unknown, cause?: unknown) {
    const e = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
    const rpcCode = typeof e.code === 'number' ? e.code : undefined;
    const serverMessage = typeof e.message === 'string' ? e.message : undefined;
    super(
      `${named(server, taskId)} failed${rpcCode === undefined ? '' : ` (${rpcCode})`}: ${serverMessage === undefined ? 'no error detail' : escapePeerText(serverMessage, 500)}`,
      ClientErrorCode.TaskFailed,
      server,
      taskId,
      task,
      cause,
    );
    this.rpcCode = rpcCode;
    this.serverMessage = serverMessage;
    this.data = e.data;
  }
}

/** The task ended `cancelled` (by the server, or by a `tasks/cancel` sent earlier) before a result was had. */
export class TaskCancelledError extends TaskError {
  static {
    brand(this, 'TaskCancelledError');
  }
  constructor(server: string, taskId: string, task: Task | undefined) {
    const why = task?.statusMessage === undefined ? '' : `: ${escapePeerText(task.statusMessage, 300)}`;
    super(`${named(server, taskId)} was cancelled${why}`, ClientErrorCode.TaskCancelled, server, taskId, task);
  }
}

/**
 * The task's lifetime ran out before it ended: its `ttlMs` elapsed while it was still running (the
 * spec's backstop), or the server answered that it expired. The server may have discarded it.
 */
export class TaskExpiredError extends TaskError {
  static {
    brand(this, 'TaskExpiredError');
  }
  constructor(server: string, taskId: string, task: Task | undefined, detail: string, cause?: unknown) {
    super(`${named(server, taskId)} expired: ${detail}`, ClientErrorCode.TaskExpired, server, taskId, task, cause);
  }
}

/** The server does not know the task id (-32602): never created there, purged, or lost with a restarted server. */
export class TaskNotFoundError extends TaskError {
  static {
    brand(this, 'TaskNotFoundError');
  }
  constructor(server: string, taskId: string, task: Task | undefined, cause?: unknown) {
    super(
      `${named(server, taskId)} is not known to the server`,
      ClientErrorCode.TaskNotFound,
      server,
      taskId,
      task,
      cause,
    );
  }
}

/**
 * The server has handed this task id to a newer task (its `createdAt` differs from the handle's): the
 * handle names a task that is gone, and the client will not reach the replacement through it.
 */
export class TaskReplacedError extends TaskError {
  static {
    brand(this, 'TaskReplacedError');
  }
  /** When the task the handle names was created, and when the one now under its id was. */
  readonly createdAt: string;
  readonly replacedBy: string | undefined;
  constructor(server: string, taskId: string, task: Task | undefined, createdAt: string, replacedBy?: string) {
    super(
      `${named(server, taskId)} (created ${escapeForLog(createdAt, 40)}) was replaced by a newer task under the same id` +
        (replacedBy === undefined ? '' : ` (created ${escapeForLog(replacedBy, 40)})`) +
        '; this handle no longer names a live task',
      ClientErrorCode.TaskReplaced,
      server,
      taskId,
      task,
    );
    this.createdAt = createdAt;
    this.replacedBy = replacedBy;
  }
}

/** A wait for a task (`waitForTask`, or a `callTool` that became a task) ran past its `timeout`. */
export class TaskTimeoutError extends TaskError {
  static {
    brand(this, 'TaskTimeoutError');
  }
  readonly timeoutMs: number;
  constructor(server: string, taskId: string, task: Task | undefined, timeoutMs: number) {
    super(
      `${named(server, taskId)} was still ${task?.status ?? 'running'} after ${Math.round(timeoutMs)} ms`,
      ClientErrorCode.TaskTimeout,
      server,
      taskId,
      task,
    );
    this.timeoutMs = timeoutMs;
  }
}

/** Why a task's input request could not be answered. */
export type TaskInputReason = 'unsupported' | 'malformed' | 'handler-failed' | 'too-many' | 'too-many-rounds';

/**
 * A task asked for input (`input_required`) that the client could not give: no handler for it
 * (`'unsupported'`), a request that is not one (`'malformed'`), a handler that threw
 * (`'handler-failed'`), more requests at once than `maxInputRequests` (`'too-many'`), or new requests
 * after `MAX_ROUNDS` (10) rounds, the bound on a direct call's rounds (`'too-many-rounds'`; on 2025-11-25,
 * 10 server requests naming the task during one wait). Answers the
 * handlers already gave are kept and sent on the next wait; nothing answered is asked again.
 */
export class TaskInputError extends TaskError {
  static {
    brand(this, 'TaskInputError');
  }
  readonly reason: TaskInputReason;
  /** The key of the input request that could not be answered, when one was at fault. */
  readonly key: string | undefined;
  constructor(
    server: string,
    taskId: string,
    task: Task | undefined,
    reason: TaskInputReason,
    detail: string,
    options: { readonly key?: string; readonly cause?: unknown } = {},
  ) {
    super(
      `${named(server, taskId)} needs input: ${detail}`,
      ClientErrorCode.TaskInput,
      server,
      taskId,
      task,
      options.cause,
    );
    this.reason = reason;
    this.key = options.key;
  }
}

/** A bare task id, with several servers and no `{ server }`: ids are unique only within their server. */
export class AmbiguousTaskError extends McpError {
  static {
    brand(this, 'AmbiguousTaskError');
  }
  readonly taskId: string;
  /** The client's servers, one of which must be named. */
  readonly candidates: readonly string[];
  constructor(taskId: string, candidates: readonly string[]) {
    super(
      `task id "${escapeForLog(taskId, 100)}" names no server, and this client has ${candidates.length} ` +
        `(${candidates.map((c) => `"${escapeForLog(c, 100)}"`).join(', ')}); pass the Task handle, or { server }`,
      { code: ClientErrorCode.AmbiguousTask },
    );
    this.taskId = taskId;
    this.candidates = candidates;
  }
}

/**
 * A task operation this server cannot take: one its revision does not have (`tasks/list` and
 * `tasks/result` on MCP 2026-07-28, `tasks/update` before it), or a tool that may not run as a task
 * (`execution.taskSupport` absent or `'forbidden'`). Nothing was sent.
 */
export class TaskUnsupportedError extends McpError {
  static {
    brand(this, 'TaskUnsupportedError');
  }
  readonly server: string;
  readonly operation: string;
  constructor(server: string, operation: string, detail: string) {
    super(`${operation} on server "${escapeForLog(server, 100)}": ${detail}`, {
      code: ClientErrorCode.TaskUnsupported,
    });
    this.server = server;
    this.operation = operation;
  }
}
