// `Task`: an immutable handle on one server's task — its state as last seen, and how it moves to another client.
import { ValidationError } from '../errors.js';
import type { CallToolResult, Tool } from '../types/entities.js';

/** A task's status: `working` and `input_required` run on; `completed`, `failed` and `cancelled` are final. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const STATUSES: ReadonlySet<unknown> = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);
const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** The JSON-RPC error a `failed` task carries (untrusted peer data). */
export interface TaskErrorDetail {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** What a server said of a task, normalized across revisions (`ttl`/`pollInterval` of 2025-11-25 become `…Ms`). */
export interface TaskState {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string | undefined;
  /** ISO 8601, as the server gave it: with the id, it names one task's lifetime. */
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  /** Lifetime from creation in ms, `null` for unlimited. */
  readonly ttlMs: number | null;
  /** The server's suggested polling interval in ms, if it gave one. */
  readonly pollIntervalMs?: number | undefined;
  /** `input_required` (MCP 2026-07-28): the outstanding requests, by key (untrusted). */
  readonly inputRequests?: Readonly<Record<string, unknown>> | undefined;
  /** `completed`: the tool's result, once the client has it. */
  readonly result?: CallToolResult | undefined;
  /** `failed`: the JSON-RPC error its request met, once the client has it. */
  readonly error?: TaskErrorDetail | undefined;
}

/** `task.toJSON()`: enough to name the task in another client (`Task.fromJSON(json, { server })`). */
export interface TaskJSON {
  readonly taskId: string;
  readonly server: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly ttlMs: number | null;
  readonly pollIntervalMs?: number;
  /** The tool whose call created it, when known. */
  readonly tool?: string;
}

/** How a handle's task came to be: the tool definition its creating call went out under, for checking its result. */
export interface TaskOrigin {
  readonly tool: string;
  /** The definition, when the client had one (the result is then checked against its `outputSchema`). */
  readonly definition: Tool | undefined;
  /** The result check prepared for that definition (opaque to this module). */
  readonly check: unknown;
}

// Internal: which handles carry a creating call's definition. Not on the handle itself, so it never
// serializes, and a handle made from JSON carries none.
const origins = new WeakMap<Task, TaskOrigin>();

/** The origin a handle carries (undefined: made from JSON or a bare id, so its result is not checked). */
export function originOf(task: Task): TaskOrigin | undefined {
  return origins.get(task);
}

/**
 * A handle on a task: which server holds it, and its state when the client last saw it. Handles are
 * immutable: `client.getTask(task)` and `client.waitForTask(task)` hand back new ones. A handle names
 * one task's lifetime (its id and `createdAt`): once the server gives that id to a newer task, using
 * the handle raises `TaskReplacedError`.
 */
export class Task implements TaskState {
  readonly server: string;
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage: string | undefined;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number | undefined;
  readonly inputRequests: Readonly<Record<string, unknown>> | undefined;
  readonly result: CallToolResult | undefined;
  readonly error: TaskErrorDetail | undefined;
  /** The tool whose call created the task, when known. */
  readonly tool: string | undefined;
  /**
   * True when the server answered `callToolAsTask` with the result itself rather than a task (MCP
   * 2026-07-28 lets the server decide): the handle is `completed` with that result, and names no
   * task on the server (`taskId` is empty).
   */
  readonly direct: boolean;

  /** Handles come from the client (`callToolAsTask`, `getTask`, …) or from `Task.fromJSON`. */
  constructor(
    server: string,
    state: TaskState,
    options: { tool?: string; origin?: TaskOrigin; direct?: boolean } = {},
  ) {
    this.server = server;
    this.taskId = state.taskId;
    this.status = state.status;
    this.statusMessage = state.statusMessage;
    this.createdAt = state.createdAt;
    this.lastUpdatedAt = state.lastUpdatedAt;
    this.ttlMs = state.ttlMs;
    this.pollIntervalMs = state.pollIntervalMs;
    this.inputRequests = state.inputRequests;
    this.result = state.result;
    this.error = state.error;
    this.tool = options.tool ?? options.origin?.tool;
    this.direct = options.direct === true;
    if (options.origin !== undefined) origins.set(this, options.origin);
    Object.freeze(this);
  }

  /** Whether the task has ended (`completed`, `failed` or `cancelled`). */
  get terminal(): boolean {
    return TERMINAL.has(this.status);
  }

  /** Whether the server waits for the client's input. */
  get inputRequired(): boolean {
    return this.status === 'input_required';
  }

  /** A handle with a newer state of the same task, keeping what this one carries. */
  with(state: TaskState): Task {
    const origin = origins.get(this);
    return new Task(this.server, state, {
      ...(this.tool !== undefined && { tool: this.tool }),
      ...(origin !== undefined && { origin }),
    });
  }

  toJSON(): TaskJSON {
    return {
      taskId: this.taskId,
      server: this.server,
      status: this.status,
      ...(this.statusMessage !== undefined && { statusMessage: this.statusMessage }),
      createdAt: this.createdAt,
      lastUpdatedAt: this.lastUpdatedAt,
      ttlMs: this.ttlMs,
      ...(this.pollIntervalMs !== undefined && { pollIntervalMs: this.pollIntervalMs }),
      ...(this.tool !== undefined && { tool: this.tool }),
    };
  }

  /**
   * A handle from `task.toJSON()` (or its parsed JSON text), naming the same task in this or another
   * client. `server` is the name of the server it is on in the client that will use it (the JSON's own
   * `server` when omitted). Its result is not checked against an `outputSchema`: JSON carries no
   * definition.
   */
  static fromJSON(json: unknown, options: { readonly server?: string | { readonly name: string } } = {}): Task {
    const value = typeof json === 'string' ? parseJson(json) : json;
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new ValidationError('Task.fromJSON() takes the object task.toJSON() made', { issues: ['task'] });
    const v = value as Record<string, unknown>;
    const named = options.server;
    const server = typeof named === 'string' ? named : typeof named === 'object' ? named.name : v.server;
    if (typeof server !== 'string' || server === '')
      throw new ValidationError('Task.fromJSON() needs the server the task is on: pass { server }', {
        issues: ['server'],
      });
    const issues: string[] = [];
    if (typeof v.taskId !== 'string' || v.taskId === '') issues.push('taskId');
    if (!STATUSES.has(v.status)) issues.push('status');
    if (typeof v.createdAt !== 'string') issues.push('createdAt');
    if (v.ttlMs !== undefined && v.ttlMs !== null && !(typeof v.ttlMs === 'number' && v.ttlMs >= 0))
      issues.push('ttlMs');
    if (issues.length > 0)
      throw new ValidationError(`Task.fromJSON(): ${issues.join(', ')} missing or malformed`, { issues });
    const state: TaskState = {
      taskId: v.taskId as string,
      status: v.status as TaskStatus,
      statusMessage: typeof v.statusMessage === 'string' ? v.statusMessage : undefined,
      createdAt: v.createdAt as string,
      lastUpdatedAt: typeof v.lastUpdatedAt === 'string' ? v.lastUpdatedAt : (v.createdAt as string),
      ttlMs: typeof v.ttlMs === 'number' ? v.ttlMs : null,
      pollIntervalMs: typeof v.pollIntervalMs === 'number' && v.pollIntervalMs >= 0 ? v.pollIntervalMs : undefined,
    };
    return new Task(server, state, typeof v.tool === 'string' ? { tool: v.tool } : {});
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ValidationError('Task.fromJSON() was given text that is not JSON', { issues: ['task'], cause: error });
  }
}

/** Whether a tool may run as a task (`execution.taskSupport` is `'optional'` or `'required'`). */
export function supportsTask(tool: Pick<Tool, 'taskSupport'>): boolean {
  return tool.taskSupport === 'optional' || tool.taskSupport === 'required';
}

export const isTaskStatus = (value: unknown): value is TaskStatus => STATUSES.has(value);
