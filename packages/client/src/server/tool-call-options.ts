// A tool call's options (`callTool`, `callToolAsTask`), what the call policy needs of its server, the tool index.
import type { Logger } from '@mcpc/jsonrpc';
import type { StructuredContentValidation } from '../features/structured-output.js';
import type { CallToolResult, Tool } from '../types/entities.js';
import type { Meta } from '../types/protocol.js';
import type { ServerTasks } from '../tasks/server-tasks.js';
import type { Task } from '../tasks/task.js';
import type { WaitForTaskOptions } from '../tasks/wait.js';
import type { Connection } from './connection.js';
import type { EraRequestOptions } from './era.js';
import type { ServerLists } from './lists.js';

export interface CallToolOptions extends EraRequestOptions {
  /** Request metadata, merged over a `_meta` found in the arguments. */
  readonly meta?: Meta;
  /** How this call's result is checked against the tool's `outputSchema`; the client's option by default. */
  readonly validateStructuredContent?: StructuredContentValidation;
  /**
   * Told each new state of the task when the server runs the call as one (the call still resolves with
   * the tool's result). `timeout`, when given, bounds the whole call, the task's polling included.
   */
  readonly onTaskStatus?: (task: Task) => void;
}

/** `callToolAsTask` options. */
export interface CallToolAsTaskOptions extends Omit<CallToolOptions, 'onTaskStatus'> {
  /** The lifetime asked for, in ms: sent to 2025-11-25 servers (which may grant another); MCP 2026-07-28 servers choose it. */
  readonly ttl?: number;
}

/** What the policy needs of its server: the connection and lists it shares with the facade. */
export interface ToolCallsContext {
  readonly connection: Connection;
  readonly lists: ServerLists;
  readonly logger: Logger;
  /** How results are checked against their tool's `outputSchema` unless a call says otherwise. */
  readonly validateStructuredContent: StructuredContentValidation;
  /** The server's `listTools()`: connects, gates on the capability, and fills the cache. */
  readonly listTools: () => Promise<readonly Tool[]>;
  /** Drops the cached tool list (the server's `clearCache('tools')`). */
  readonly clearTools: () => void;
  /**
   * Routes a synthetic `notifications/tools/list_changed` as a server's own would go (caches dropped, then
   * the subscriptions, then the host's `onNotification`): what a HeaderMismatch refresh announces.
   */
  readonly toolsChanged: () => void;
  readonly warn: (message: string) => void;
  /** The server's task methods: a call answered with a task is remembered there. */
  readonly tasks: ServerTasks;
  /** Follows a task a call became to the call's result (polling, input, cancel on abandon). */
  readonly follow: (task: Task, options: WaitForTaskOptions) => Promise<CallToolResult>;
}

/** `callTool` options the request itself does not take. */
export function withoutCallOptions(options: CallToolOptions & { readonly ttl?: number }): EraRequestOptions {
  if (
    options.meta === undefined &&
    options.validateStructuredContent === undefined &&
    options.onTaskStatus === undefined &&
    options.ttl === undefined
  )
    return options;
  const { meta: _meta, validateStructuredContent: _mode, onTaskStatus: _status, ttl: _ttl, ...rest } = options;
  return rest;
}

const indexes = new WeakMap<readonly Tool[], Map<string, Tool>>();
/** A cached tool list by name, built once per list (a call must not scan a long list each time). */
export function toolsByName(tools: readonly Tool[]): Map<string, Tool> {
  let index = indexes.get(tools);
  if (index === undefined) {
    index = new Map();
    for (const tool of tools) if (!index.has(tool.name)) index.set(tool.name, tool);
    indexes.set(tools, index);
  }
  return index;
}
