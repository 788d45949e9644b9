// Reading tasks off the wire in both revisions: a creation, a `tasks/get` answer, a status notification, a list page.
import { escapeForLog } from '@mcpc/jsonrpc';
import { ValidationError } from '../errors.js';
import { isTaskStatus, type TaskErrorDetail, type TaskState } from './task.js';

/** The tasks extension's identifier (MCP 2026-07-28). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Longest task id the client keeps; a longer one is refused (the server chooses its size). */
const MAX_TASK_ID = 1024;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonNegative = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/**
 * Whether a `tools/call` answer is a task rather than a result: `resultType: "task"` (MCP 2026-07-28),
 * or — for a call sent with `task` (2025-11-25) — a `CreateTaskResult` (`{ task: {…} }`, no `content`).
 */
export function isCreateTaskResult(raw: unknown, modern: boolean, sentAsTask: boolean): boolean {
  if (!isObject(raw)) return false;
  if (modern) return raw.resultType === 'task';
  return sentAsTask && isObject(raw.task) && raw.content === undefined;
}

/**
 * A task as a server described it, checked and normalized. `modern`: the MCP 2026-07-28 extension's
 * shape (`ttlMs`, `pollIntervalMs`, result and error inline); otherwise 2025-11-25's (`ttl`,
 * `pollInterval`). Anything the client relies on that is missing or malformed is a `ValidationError`.
 */
export function readTaskState(raw: unknown, modern: boolean, server: string, method: string): TaskState {
  const fail = (issues: string[]): never => {
    throw new ValidationError(
      `server "${escapeForLog(server, 100)}" answered ${method} with a task whose ${issues.join(', ')} ${issues.length === 1 ? 'is' : 'are'} missing or malformed`,
      { server, method, issues },
    );
  };
  if (!isObject(raw)) return fail(['task']);
  const issues: string[] = [];
  const { taskId, status, createdAt } = raw;
  if (typeof taskId !== 'string' || taskId === '' || taskId.length > MAX_TASK_ID) issues.push('taskId');
  if (!isTaskStatus(status)) issues.push('status');
  if (typeof createdAt !== 'string' || createdAt === '') issues.push('createdAt');
  const ttl = modern ? raw.ttlMs : raw.ttl;
  if (ttl !== undefined && ttl !== null && !nonNegative(ttl)) issues.push(modern ? 'ttlMs' : 'ttl');
  let inputRequests: Record<string, unknown> | undefined;
  let result: Record<string, unknown> | undefined;
  let error: TaskErrorDetail | undefined;
  if (modern && status === 'input_required') {
    if (!isObject(raw.inputRequests)) issues.push('inputRequests');
    else inputRequests = raw.inputRequests;
  }
  if (modern && status === 'completed' && raw.result !== undefined) {
    if (!isObject(raw.result)) issues.push('result');
    else result = raw.result;
  }
  if (modern && status === 'failed' && raw.error !== undefined) {
    const e = raw.error;
    if (!isObject(e) || typeof e.code !== 'number' || typeof e.message !== 'string') issues.push('error');
    else error = { code: e.code, message: e.message, ...(e.data !== undefined && { data: e.data }) };
  }
  if (issues.length > 0) fail(issues);
  const poll = modern ? raw.pollIntervalMs : raw.pollInterval;
  return {
    taskId: taskId as string,
    status: status as TaskState['status'],
    statusMessage: typeof raw.statusMessage === 'string' ? raw.statusMessage : undefined,
    createdAt: createdAt as string,
    lastUpdatedAt: typeof raw.lastUpdatedAt === 'string' ? raw.lastUpdatedAt : (createdAt as string),
    ttlMs: nonNegative(ttl) ? ttl : null,
    pollIntervalMs: nonNegative(poll) ? poll : undefined,
    inputRequests,
    // Read into a CallToolResult by the caller, which knows the tool.
    result: result as TaskState['result'],
    error,
  };
}

/** The task inside a creation answer: the result itself (MCP 2026-07-28) or its `task` (2025-11-25). */
export function createdTask(raw: Record<string, unknown>, modern: boolean, server: string): TaskState {
  return readTaskState(modern ? raw : raw.task, modern, server, 'tools/call');
}

/** A `tasks/list` page (2025-11-25): its tasks and the cursor of the next page. */
export function readTaskPage(
  raw: unknown,
  server: string,
): { readonly tasks: TaskState[]; readonly nextCursor: string | undefined } {
  if (!isObject(raw) || !Array.isArray(raw.tasks))
    throw new ValidationError(`server "${escapeForLog(server, 100)}" answered tasks/list without a tasks array`, {
      server,
      method: 'tasks/list',
      issues: ['tasks'],
    });
  const tasks = raw.tasks.map((t) => readTaskState(t, false, server, 'tasks/list'));
  const next = raw.nextCursor;
  return { tasks, nextCursor: typeof next === 'string' ? next : undefined };
}

/** Whether a server declared the tasks extension (MCP 2026-07-28 `capabilities.extensions`). */
export function declaresTasksExtension(capabilities: unknown): boolean {
  if (!isObject(capabilities) || !isObject(capabilities.extensions)) return false;
  const entry = capabilities.extensions[TASKS_EXTENSION];
  return entry !== undefined && entry !== null && entry !== false;
}
