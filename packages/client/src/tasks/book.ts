// One server's record of the tasks this client has seen: which lifetime each id names now, and the input already given.
import { TaskReplacedError } from './errors.js';
import type { Task, TaskState } from './task.js';

/** Most tasks remembered per server; the oldest record goes first (a forgotten one is re-learned from the server). */
export const MAX_TASK_RECORDS = 1024;
/** Most input answers remembered per task (keys are unique over a task's lifetime, so this bounds a chatty one). */
const MAX_ANSWER_KEYS = 1024;

/** What the client knows of one task's lifetime (an id and its `createdAt`). */
export interface Lifetime {
  readonly taskId: string;
  readonly createdAt: string;
  /** When this client first saw it (`performance.now()`): the TTL backstop counts from here, on this clock. */
  readonly firstSeen: number;
  /** Answers the host gave that the server has not acknowledged yet, by input-request key. */
  readonly answers: Map<string, unknown>;
  /** Keys whose answers the server acknowledged (`tasks/update`): never asked, never sent again. */
  readonly delivered: Set<string>;
}

/**
 * The tasks of one server, by id. An id names one lifetime at a time: a creation or an answer naming
 * the same id with another `createdAt` means the server gave the id to a new task, and handles on the
 * old one raise `TaskReplacedError` from then on, without reaching the new one.
 */
export class TaskBook {
  readonly #server: string;
  readonly #byId = new Map<string, Lifetime>();

  constructor(server: string) {
    this.#server = server;
  }

  /** A task the server just created: it is the id's lifetime now, whatever was there before. */
  created(state: TaskState): Lifetime {
    return this.#set(state.taskId, state.createdAt);
  }

  /**
   * The lifetime a handle names, checked before anything is sent for it: a handle on a lifetime the
   * id no longer names raises `TaskReplacedError`. A handle this client never saw (from JSON, or
   * forgotten) is taken as the id's lifetime unless a newer one is known.
   */
  lifetimeOf(task: Task): Lifetime {
    const known = this.#byId.get(task.taskId);
    if (known === undefined) return this.#set(task.taskId, task.createdAt);
    if (known.createdAt === task.createdAt) return known;
    if (newer(task.createdAt, known.createdAt)) return this.#set(task.taskId, task.createdAt);
    throw new TaskReplacedError(this.#server, task.taskId, task, task.createdAt, known.createdAt);
  }

  /**
   * Checks a server's answer about `task` against the lifetime the handle names: another `createdAt`
   * means the id now names another task, which becomes the id's lifetime; the handle is then replaced.
   */
  observed(task: Task, state: TaskState): void {
    if (state.createdAt === task.createdAt) return;
    this.#set(state.taskId, state.createdAt);
    throw new TaskReplacedError(this.#server, task.taskId, task, task.createdAt, state.createdAt);
  }

  /** The host's answer to one input request, kept until the server acknowledges it. */
  answered(lifetime: Lifetime, key: string, answer: unknown): void {
    if (lifetime.answers.size + lifetime.delivered.size >= MAX_ANSWER_KEYS) {
      const oldest = lifetime.delivered.values().next();
      if (!oldest.done) lifetime.delivered.delete(oldest.value);
    }
    lifetime.answers.set(key, answer);
  }

  /** The server acknowledged these answers: they are never asked for or sent again. */
  delivered(lifetime: Lifetime, keys: Iterable<string>): void {
    for (const key of keys) {
      lifetime.answers.delete(key);
      lifetime.delivered.add(key);
    }
  }

  /** Forgets a task (it was cancelled by this client, so its bookkeeping may go). */
  forget(task: Task): void {
    const known = this.#byId.get(task.taskId);
    if (known !== undefined && known.createdAt === task.createdAt) this.#byId.delete(task.taskId);
  }

  /** Whether this client has seen a task under this id (the server created it, or answered for it). */
  knows(taskId: string): boolean {
    return this.#byId.has(taskId);
  }

  get size(): number {
    return this.#byId.size;
  }

  #set(taskId: string, createdAt: string): Lifetime {
    const lifetime: Lifetime = {
      taskId,
      createdAt,
      firstSeen: performance.now(),
      answers: new Map(),
      delivered: new Set(),
    };
    this.#byId.delete(taskId);
    this.#byId.set(taskId, lifetime);
    if (this.#byId.size > MAX_TASK_RECORDS) this.#byId.delete(this.#byId.keys().next().value as string);
    return lifetime;
  }
}

/** Whether `a` is a later creation time than `b` (unparseable times are never newer: the known one stands). */
function newer(a: string, b: string): boolean {
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  return Number.isFinite(ta) && Number.isFinite(tb) && ta > tb;
}
