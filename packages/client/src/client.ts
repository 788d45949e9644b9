// The Client: many servers behind one API — lists aggregated, calls routed, roots, logging, close.
//
// Its options' checks, its server set and routing, its listeners and the roots' announcement live beside it.
// Over 450 lines by design: one public class whose ~45 methods each route in a few lines to a `Server`;
// splitting it would split its documentation, not its logic.
import { safeLog, warningsToConsole, type Logger } from '@mcpc/jsonrpc';
import type {
  ClientOptions,
  LogListener,
  NotificationListener,
  RouteOptions,
  ToolCall,
  ToolCallOutcome,
} from './options.js';
import { checkClientInfo, checkClientOptions, serverContext } from './client-context.js';
import { Listeners } from './client-listeners.js';
import { announceRoots, noteRootsUse } from './client-roots.js';
import { ServerSet } from './client-servers.js';
import { readServerConfigFile } from './config-file.js';
import {
  toAiSdkTools,
  toAnthropicTools,
  toGoogleTools,
  toOpenAITools,
  type AiSdkExecute,
  type AiSdkTool,
  type AnthropicTool,
  type ConvertOptions,
  type GoogleTool,
  type OpenAIChatTool,
} from './convert/index.js';
import { ClientClosedError, InputRequiredError, ToolNotFoundError } from './errors.js';
import { checkLevel } from './features/logging.js';
import type { ResourceContents } from './features/resources.js';
import { streamCall, type ToolStreamEvent } from './features/streaming.js';
import { runBatch, type BatchOptions } from './features/batch.js';
import { createHostBridge } from './host/bridge.js';
import { checkRoots } from './host/roots.js';
import { assignNames } from './naming.js';
import { routePrompt, routeResource, routeTool } from './routing.js';
import type { HostBridge } from './server/era.js';
import {
  CLOSE,
  Server,
  type CallToolAsTaskOptions,
  type CallToolOptions,
  type ListKindName,
  type PageOptions,
  type RequestOptions,
} from './server/server.js';
import { toConfig } from './server-configs.js';
import { getSkillAcross, listSkillsAcross, loadSkillAcross } from './skills/client-skills.js';
import type { LoadedSkill } from './skills/loaded-skill.js';
import type { LoadSkillOptions, SkillEntry } from './skills/types.js';
import type { TaskRef, TaskRequestOptions } from './tasks/server-tasks.js';
import type { Task } from './tasks/task.js';
import type { WaitForTaskOptions } from './tasks/wait.js';
import type {
  ListenOptions,
  Subscription,
  SubscriptionFilter,
  SubscriptionListener,
} from './subscriptions/subscription.js';
import type {
  CallToolResult,
  CompleteRequest,
  Completion,
  GetPromptResult,
  ListPage,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
} from './types/entities.js';
import type { Implementation, LoggingLevel, Root } from './types/protocol.js';

export type { ClientOptions, LogListener, NotificationListener, RouteOptions, ToolCall, ToolCallOutcome };

/**
 * An MCP client over one or many servers. Servers connect on first use (or all at once with
 * `connect()`); lists aggregate across servers, calls route to the server that offers the name, and
 * `{ server }` routes explicitly.
 */
export class Client {
  readonly #servers = new ServerSet();
  readonly #options: ClientOptions;
  readonly #logger: Logger;
  readonly #clientInfo: Implementation;
  readonly #listeners: Listeners;
  #roots: readonly Root[] | undefined;
  #closed = false;
  #closing: Promise<void> | undefined;

  constructor(options: ClientOptions = {}) {
    this.#options = options;
    this.#logger = options.logger ?? warningsToConsole;
    this.#clientInfo = checkClientInfo(options.clientInfo);
    this.#listeners = new Listeners(this.#logger);
    this.#roots = checkClientOptions(options);
    const configs = (options.servers ?? []).map(toConfig);
    const names = assignNames(configs);
    // Roots and sampling are noted by each connection whose negotiated revision deprecates them.
    const context = serverContext(
      options,
      this.#logger,
      (server) => this.#host(server),
      (server, method, params) => this.#listeners.deliver(server.name, method, params),
    );
    configs.forEach((config, i) => this.#servers.add(new Server(names[i]!, config, context)));
  }

  /**
   * A client for the servers of a server definition file (`{ "mcpServers": { … } }`), not yet connected.
   * `options` are the other client options.
   */
  static async fromConfigFile(path: string | URL, options: Omit<ClientOptions, 'servers'> = {}): Promise<Client> {
    return new Client({ ...options, servers: await readServerConfigFile(path) });
  }

  /** The servers, in configuration order. */
  get servers(): readonly Server[] {
    return this.#servers.all;
  }

  /** The server named `name`; throws `UnknownServerError` when there is none. */
  server(name: string): Server {
    return this.#servers.byName(name);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Connects every server. Rejects with the first `ConnectionError` once all attempts have settled. */
  async connect(): Promise<void> {
    this.#assertOpen('connect');
    const results = await Promise.allSettled(this.servers.map((s) => s.connect()));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }

  // ── tools ─────────────────────────────────────────────────────────────────────────────────────

  /** Every tool of every server (or of `{ server }`); with `{ server, cursor }`, one page. */
  listTools(options?: RouteOptions): Promise<readonly Tool[]>;
  listTools(options: RouteOptions & PageOptions): Promise<ListPage<Tool>>;
  listTools(options?: RouteOptions & Partial<PageOptions>): Promise<readonly Tool[] | ListPage<Tool>> {
    return this.#list('tools', 'tools', options, (s, page) => (page ? s.listTools(page) : s.listTools()));
  }

  /** The tool named `name` (undefined when no server offers it); `AmbiguousNameError` when several do. */
  async findTool(name: string, options: RouteOptions = {}): Promise<Tool | undefined> {
    this.#assertOpen('findTool');
    try {
      const server =
        options.server !== undefined
          ? this.server(options.server)
          : await routeTool(await this.#servers.connected(), name);
      return (await server.listTools()).find((t) => t.name === name);
    } catch (error) {
      if (error instanceof ToolNotFoundError) return undefined;
      throw error;
    }
  }

  /** Calls a tool, routed by `{ server }`, by the Tool object's server, or to the one server that offers the name. */
  callTool(
    tool: string | Tool,
    args?: Readonly<Record<string, unknown>>,
    options: CallToolOptions & RouteOptions = {},
  ): Promise<CallToolResult> {
    try {
      this.#assertOpen('tools/call');
      const name = typeof tool === 'string' ? tool : tool.name;
      const explicit = options.server ?? (typeof tool === 'string' ? undefined : tool.server);
      // Named, or the only server: no routing, no extra promise (the hot path).
      const server = explicit !== undefined ? this.server(explicit) : this.#servers.only();
      if (server !== undefined) return server.callTool(name, args, options);
      return this.#servers.toolServer(name, undefined).then((s) => s.callTool(name, args, options));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Calls several tools concurrently. Each outcome sits in the position of its call and holds its result
   * or its error: one failure does not fail the others. A result with `isError` is still `ok: true`.
   * Each result is checked against its tool's `outputSchema` as `callTool` checks one.
   */
  async callTools(calls: readonly ToolCall[], options: BatchOptions = {}): Promise<ToolCallOutcome[]> {
    this.#assertOpen('tools/call');
    return runBatch(calls, (name, server) => this.#servers.toolServer(name, server), options);
  }

  /**
   * Calls a tool as an async iterator: `{ type: 'progress', … }` events as the server reports them,
   * then one `{ type: 'result', result }`. Breaking out of the loop cancels the call.
   */
  callToolStreaming(
    tool: string | Tool,
    args?: Readonly<Record<string, unknown>>,
    options: CallToolOptions & RouteOptions = {},
  ): AsyncGenerator<ToolStreamEvent, void, undefined> {
    const { signal, onProgress, ...rest } = options;
    return streamCall(
      (progress, combined) =>
        this.callTool(tool, args, {
          ...rest,
          signal: combined,
          onProgress: (p) => {
            progress(p);
            onProgress?.(p);
          },
        }),
      signal,
    );
  }

  // ── tasks ─────────────────────────────────────────────────────────────────────────────────────

  /**
   * Calls a tool as a task and resolves with its `Task` handle as soon as the task exists (MCP 2025-11-25
   * with a `tasks.requests.tools.call` server; MCP 2026-07-28 with a server that declared the tasks
   * extension, which may still answer directly: the handle is then `direct` and `completed`). Routed as
   * `callTool` is. `ttl` is sent to 2025-11-25 servers only.
   */
  callToolAsTask(
    tool: string | Tool,
    args?: Readonly<Record<string, unknown>>,
    options: CallToolAsTaskOptions & RouteOptions = {},
  ): Promise<Task> {
    try {
      this.#assertOpen('tools/call');
      const name = typeof tool === 'string' ? tool : tool.name;
      return this.#servers
        .toolServer(name, options.server ?? (typeof tool === 'string' ? undefined : tool.server))
        .then((s) => s.callToolAsTask(name, args, options));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** `tasks/get`: the task's state now. A bare id needs `{ server }` when the client has several. */
  getTask(task: TaskRef, options: TaskRequestOptions & RouteOptions = {}): Promise<Task> {
    return this.#onTask('tasks/get', task, options, (s) => s.getTask(task, options));
  }

  /**
   * Waits until the task ends and hands back its final handle: polls at the server's pace (floored and
   * capped), answers `input_required` with the elicitation, sampling and roots handlers (never asking the
   * same request twice), and stops at `timeout` (`TaskTimeoutError`), at the task's `ttlMs`
   * (`TaskExpiredError`) or on `signal`. The task itself is not cancelled by a wait that stops.
   */
  waitForTask(task: TaskRef, options: WaitForTaskOptions & RouteOptions = {}): Promise<Task> {
    return this.#onTask('tasks/get', task, options, (s) => s.waitForTask(task, options));
  }

  /**
   * The task's `CallToolResult` once it ends, checked against the `outputSchema` its creating call went
   * out under (a bare id is not checked). A failed task raises `TaskFailedError`, a cancelled one
   * `TaskCancelledError`; a result with `isError` is returned.
   */
  getTaskResult(task: TaskRef, options: WaitForTaskOptions & RouteOptions = {}): Promise<CallToolResult> {
    return this.#onTask('tasks/result', task, options, (s) => s.getTaskResult(task, options));
  }

  /** `tasks/cancel` (never `notifications/cancelled`); `CapabilityError` where it was not negotiated. */
  cancelTask(task: TaskRef, options: TaskRequestOptions & RouteOptions = {}): Promise<Task> {
    return this.#onTask('tasks/cancel', task, options, (s) => s.cancelTask(task, options));
  }

  /** `tasks/update` (MCP 2026-07-28): the host answers the task's input requests itself, by key. */
  updateTask(
    task: TaskRef,
    inputResponses: Readonly<Record<string, unknown>>,
    options: TaskRequestOptions & RouteOptions = {},
  ): Promise<void> {
    return this.#onTask('tasks/update', task, options, (s) => s.updateTask(task, inputResponses, options));
  }

  /**
   * `tasks/list` (2025-11-25 only; `TaskUnsupportedError` on MCP 2026-07-28), every page: of `{ server }`,
   * or of every server that negotiated `tasks.list` — and when none did, the first server's error.
   */
  async listTasks(options: TaskRequestOptions & RouteOptions = {}): Promise<Task[]> {
    this.#assertOpen('tasks/list');
    if (options.server !== undefined) return this.server(options.server).listTasks(options);
    const connected = await this.#servers.connected();
    const servers = connected.filter((s) => s.protocolEra === 'legacy' && s.supports('tasks.list'));
    // No server can list its tasks: that server's own error (TaskUnsupportedError on 2026-07-28,
    // CapabilityError without tasks.list), raised before anything is sent, never an empty list.
    if (servers.length === 0 && connected[0] !== undefined) return connected[0].listTasks(options);
    return (await Promise.all(servers.map((s) => s.listTasks(options)))).flat();
  }

  #onTask<T>(method: string, task: TaskRef, options: RouteOptions, run: (server: Server) => Promise<T>): Promise<T> {
    try {
      this.#assertOpen(method);
      return run(this.#servers.taskServer(task, options.server));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  // ── prompts, resources, completion ────────────────────────────────────────────────────────────

  listPrompts(options?: RouteOptions): Promise<readonly Prompt[]>;
  listPrompts(options: RouteOptions & PageOptions): Promise<ListPage<Prompt>>;
  listPrompts(options?: RouteOptions & Partial<PageOptions>): Promise<readonly Prompt[] | ListPage<Prompt>> {
    return this.#list('prompts', 'prompts', options, (s, page) => (page ? s.listPrompts(page) : s.listPrompts()));
  }

  async getPrompt(
    name: string,
    args?: Readonly<Record<string, string>>,
    options: RequestOptions & RouteOptions = {},
  ): Promise<GetPromptResult> {
    this.#assertOpen('prompts/get');
    const server =
      options.server !== undefined
        ? this.server(options.server)
        : await this.#servers.single(() => this.#servers.connected().then((s) => routePrompt(s, name)));
    return server.getPrompt(name, args, options);
  }

  listResources(options?: RouteOptions): Promise<readonly Resource[]>;
  listResources(options: RouteOptions & PageOptions): Promise<ListPage<Resource>>;
  listResources(options?: RouteOptions & Partial<PageOptions>): Promise<readonly Resource[] | ListPage<Resource>> {
    return this.#list('resources', 'resources', options, (s, page) =>
      page ? s.listResources(page) : s.listResources(),
    );
  }

  listResourceTemplates(options?: RouteOptions): Promise<readonly ResourceTemplate[]>;
  listResourceTemplates(options: RouteOptions & PageOptions): Promise<ListPage<ResourceTemplate>>;
  listResourceTemplates(
    options?: RouteOptions & Partial<PageOptions>,
  ): Promise<readonly ResourceTemplate[] | ListPage<ResourceTemplate>> {
    return this.#list('resourceTemplates', 'resources', options, (s, page) =>
      page ? s.listResourceTemplates(page) : s.listResourceTemplates(),
    );
  }

  /** Reads a resource: its contents, each with `isText()` / `isBinary()`. */
  async readResource(uri: string, options: RequestOptions & RouteOptions = {}): Promise<ResourceContents[]> {
    this.#assertOpen('resources/read');
    const server =
      options.server !== undefined
        ? this.server(options.server)
        : await this.#servers.single(() => this.#servers.connected().then((s) => routeResource(s, uri)));
    return server.readResource(uri, options);
  }

  // ── skills (SEP-2640) ─────────────────────────────────────────────────────────────────────────

  /**
   * The skills of every server that declared the extension (or of `{ server }`), every page, cached by
   * the listings' `ttlMs` / `cacheScope`. Identity is (`server`, `uri`); same-named skills get distinct
   * labels. No skill file is read. An empty listing does not prove a server has no skills.
   */
  listSkills(options: RouteOptions = {}): Promise<readonly SkillEntry[]> {
    this.#assertOpen('skills/list');
    return listSkillsAcross(this.#servers, options.server);
  }

  /** `skills/get`: the current entry of the skill at `uri` (on `{ server }`, or the only server with skills). */
  getSkill(uri: string, options: RouteOptions = {}): Promise<SkillEntry> {
    this.#assertOpen('skills/get');
    return getSkillAcross(this.#servers, uri, options.server);
  }

  /**
   * Loads a skill, the only path that activates one: an entry, a `SKILL.md` URI (confirmed with
   * `skills/get`), or a name or label (`AmbiguousNameError` when it could mean several). The entry is
   * checked, `onSkillApproval` asked, and the `SKILL.md` read and verified (size, digest, frontmatter);
   * nothing else is read until the skill's `readFile` asks for it.
   */
  loadSkill(skill: SkillEntry | string, options: LoadSkillOptions = {}): Promise<LoadedSkill> {
    this.#assertOpen('loadSkill');
    return loadSkillAcross(this.#servers, skill, options);
  }

  /** Argument completion for a prompt or a resource template, routed by the reference. */
  async complete(request: CompleteRequest, options: RequestOptions & RouteOptions = {}): Promise<Completion> {
    this.#assertOpen('completion/complete');
    const { ref } = request;
    const route = (servers: readonly Server[]): Promise<Server> => {
      if (ref?.type === 'ref/prompt') return routePrompt(servers, ref.name);
      if (ref?.type === 'ref/resource') return routeResource(servers, ref.uri);
      throw new TypeError('complete() needs ref: { type: "ref/prompt", name } or { type: "ref/resource", uri }');
    };
    const server =
      options.server !== undefined
        ? this.server(options.server)
        : await this.#servers.single(() => this.#servers.connected().then(route));
    return server.complete(request, options);
  }

  /**
   * Resumes a multi round-trip request (MCP 2026-07-28) an `InputRequiredError` stopped, on the server
   * it was sent to (see `Server.resumeInputRequired`).
   */
  async resumeInputRequired(
    error: InputRequiredError,
    options: RequestOptions = {},
  ): Promise<CallToolResult | GetPromptResult | ResourceContents[]> {
    this.#assertOpen('resumeInputRequired');
    if (!(error instanceof InputRequiredError))
      throw new TypeError('resumeInputRequired() takes the InputRequiredError a call raised');
    return this.server(error.server).resumeInputRequired(error, options);
  }

  /**
   * Opens a subscription (MCP 2026-07-28 `subscriptions/listen`) on `{ server }`, or on the client's one
   * server: the notifications the filter asks for go to `listener`, on the subscription's own
   * dispatcher. See `Server.listen`.
   */
  listen(
    filter: SubscriptionFilter,
    listener: SubscriptionListener,
    options: ListenOptions & RouteOptions = {},
  ): Subscription {
    this.#assertOpen('subscriptions/listen');
    const { server, ...rest } = options;
    if (server === undefined && this.#servers.size !== 1)
      throw new TypeError('listen() is per server: pass { server }');
    return (server === undefined ? this.servers[0]! : this.server(server)).listen(filter, listener, rest);
  }

  // ── logging, roots, notifications ─────────────────────────────────────────────────────────────

  /**
   * Sets the log level on every connected-or-connectable server that negotiated logging (others are
   * skipped), or on `{ server }` alone (where a missing capability is a `CapabilityError`). A 2026-07-28
   * server is never skipped: the level rides in the `_meta` of its later requests.
   */
  async setLogLevel(level: LoggingLevel, options: RequestOptions & RouteOptions = {}): Promise<void> {
    this.#assertOpen('logging/setLevel');
    checkLevel(level);
    if (options.server !== undefined) return this.server(options.server).setLogLevel(level, options);
    const servers = (await this.#servers.connected()).filter(
      (s) => s.protocolEra === 'modern' || s.supports('logging'),
    );
    await Promise.all(servers.map((s) => s.setLogLevel(level, options)));
  }

  /** The roots served to servers that ask (`roots/list`); empty until set. */
  get roots(): readonly Root[] {
    return this.#roots ?? [];
  }

  /** Replaces the roots and tells every connected server that declared roots (`notifications/roots/list_changed`). */
  set roots(roots: readonly Root[]) {
    this.#assertOpen('roots');
    const checked = checkRoots(roots);
    noteRootsUse(this.#servers.values(), checked, this.#logger, this.#options.deprecationNotices !== false);
    this.#roots = checked;
    announceRoots(this.#servers.values(), (message) => this.#log('warn', message));
  }

  /** Listens to every server notification (after the client has acted on it). Returns the unsubscribe. */
  onNotification(listener: NotificationListener): () => void {
    return this.#listeners.onNotification(listener);
  }

  /** Listens to the servers' log messages, made safe to print. Returns the unsubscribe. */
  onLog(listener: LogListener): () => void {
    return this.#listeners.onLog(listener);
  }

  /** Pings one server, or every server. */
  async ping(options: RequestOptions & RouteOptions = {}): Promise<void> {
    this.#assertOpen('ping');
    const servers = options.server !== undefined ? [this.server(options.server)] : this.servers;
    await Promise.all(servers.map((s) => s.ping(options)));
  }

  /** Drops the cached lists of every server (or of one kind). They are re-fetched on next use. */
  clearCache(kind?: ListKindName | 'skills'): void {
    for (const server of this.#servers.values()) server.clearCache(kind);
  }

  /** Closes every server (their processes end); the client then refuses new calls. Idempotent. */
  close(): Promise<void> {
    this.#closed = true;
    this.#closing ??= Promise.allSettled(this.servers.map((s) => s[CLOSE]())).then(() => undefined);
    return this.#closing;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // ── LLM SDK tool shapes (the tools of every server when none are given) ────────────────────────

  async toOpenAITools(tools?: Iterable<Tool>, options?: ConvertOptions<Tool>): Promise<OpenAIChatTool[]> {
    return toOpenAITools(tools ?? (await this.listTools()), options);
  }

  async toAnthropicTools(tools?: Iterable<Tool>, options?: ConvertOptions<Tool>): Promise<AnthropicTool[]> {
    return toAnthropicTools(tools ?? (await this.listTools()), options);
  }

  async toGoogleTools(tools?: Iterable<Tool>, options?: ConvertOptions<Tool>): Promise<GoogleTool[]> {
    return toGoogleTools(tools ?? (await this.listTools()), options);
  }

  /** A Vercel AI SDK `ToolSet` whose `execute` calls the tool on its own server through this client. */
  async toAiSdkTools(tools?: Iterable<Tool>, options?: ConvertOptions<Tool>): Promise<Record<string, AiSdkTool>> {
    const execute: AiSdkExecute<Tool> = (_name, args, { signal, tool }) =>
      this.callTool(tool, args, signal === undefined ? {} : { signal });
    return toAiSdkTools(tools ?? (await this.listTools()), execute, options);
  }

  // ── internals ─────────────────────────────────────────────────────────────────────────────────

  #assertOpen(method: string): void {
    if (this.#closed) throw new ClientClosedError(method);
  }

  async #list<T>(
    kind: ListKindName,
    capability: string,
    options: (RouteOptions & Partial<PageOptions>) | undefined,
    list: (server: Server, page: PageOptions | undefined) => Promise<readonly T[] | ListPage<T>>,
  ): Promise<readonly T[] | ListPage<T>> {
    this.#assertOpen(kind);
    return this.#servers.list(kind, capability, options, list);
  }

  #host(server: string): HostBridge {
    return createHostBridge(this.#options, {
      server,
      clientInfo: this.#clientInfo,
      logger: this.#logger,
      roots: () => this.#roots,
    });
  }

  #log(level: 'warn' | 'error', message: string): void {
    safeLog(this.#logger, level, `[mcpc] ${message}`);
  }
}
