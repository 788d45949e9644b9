// `Server`: the facade of one of the client's servers: session facts, lists, prompts, resources, subscriptions.
//
// Over 450 lines by design: one public class whose ~40 methods each delegate in a few lines (tool calls to
// `ToolCalls`, lists to `ServerLists`, tasks to `ServerTasks`); splitting it would split its documentation.
import { escapeForLog, safeLog, type JsonRpcParams } from '@mcpc/jsonrpc';
import { ResourceNotFoundError, type InputRequiredError } from '../errors.js';
import type { CacheInfo } from '../cache/list-cache.js';
import type { ListKind } from '../cache/pagination.js';
import { noteDeprecatedUse } from '../deprecations.js';
import { buildCompleteParams, readCompletion } from '../features/completion.js';
import { checkLevel, sanitizeLogMessage } from '../features/logging.js';
import { PROMPTS, checkPromptArguments, readGetPromptResult } from '../features/prompts.js';
import {
  RESOURCES,
  TEMPLATES,
  isResourceNotFound,
  readContents,
  type ResourceContents,
} from '../features/resources.js';
import { TOOLS } from '../features/tools.js';
import type { StructuredContentValidation } from '../features/structured-output.js';
import type { ServerConfig } from '../server-configs.js';
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
} from '../types/entities.js';
import type { ClientCapabilities, Implementation, LoggingLevel, ServerCapabilities } from '../types/protocol.js';
import { Connection, factsOf, type ConnectionContext, type ConnectionState } from './connection.js';
import type { EraRequestOptions } from './era.js';
import { ServerLists, type ListKindName } from './lists.js';
import { resolveSkillName } from '../skills/labels.js';
import type { LoadedSkill } from '../skills/loaded-skill.js';
import { ServerSkills, type SkillsShared } from '../skills/server-skills.js';
import type { LoadSkillOptions, SkillEntry } from '../skills/types.js';
import { ResourceSubscriptions } from '../subscriptions/resource-subscriptions.js';
import { ServerStreams } from '../subscriptions/server-streams.js';
import type {
  ListenOptions,
  Subscription,
  SubscriptionFilter,
  SubscriptionListener,
} from '../subscriptions/subscription.js';
import type { CallToolAsTaskOptions, CallToolOptions } from './tool-call-options.js';
import { ToolCalls } from './tool-calls.js';
import { DEFAULT_MAX_INPUT_REQUESTS } from './mrtr.js';
import { TaskInputRounds } from '../tasks/input-rounds.js';
import { ServerTasks, type TaskRef, type TaskRequestOptions } from '../tasks/server-tasks.js';
import { supportsTask, type Task } from '../tasks/task.js';
import { followTask, waitForTask, type WaitContext, type WaitForTaskOptions } from '../tasks/wait.js';
import { declaresTasksExtension } from '../tasks/wire.js';

/** Options every request takes. */
export type RequestOptions = EraRequestOptions;

export type { CallToolAsTaskOptions, CallToolOptions };

export interface PageOptions {
  /** `null` for the first page, or a `nextCursor` from the page before. */
  readonly cursor: string | null;
}

export type { ListKindName };

export interface ServerContext extends Omit<ConnectionContext, 'onNotification' | 'onClose'> {
  readonly maxPages: number;
  readonly logMessageLimit: number;
  readonly deprecationNotices: boolean;
  /** How results are checked against their tool's `outputSchema` unless a call says otherwise. */
  readonly validateStructuredContent: StructuredContentValidation;
  /** Skills (SEP-2640): the approvals, the verified content cache and the bounds every server shares. */
  readonly skills: SkillsShared;
  /** Hands a notification to the client's listeners; called after the caches it invalidates are dropped. */
  readonly deliver: (server: Server, method: string, params: JsonRpcParams | undefined) => void;
}

// Symbol-keyed, and not exported from the package: the client's levers, not part of a server's API.
export const CLOSE: unique symbol = Symbol('close');
export const ROOTS_CHANGED: unique symbol = Symbol('rootsChanged');

/** Notifications that invalidate a cached list, and the lists they invalidate. */
const INVALIDATES: ReadonlyMap<string, readonly ListKindName[]> = new Map([
  ['notifications/tools/list_changed', ['tools']],
  ['notifications/prompts/list_changed', ['prompts']],
  ['notifications/resources/list_changed', ['resources', 'resourceTemplates']],
]);

/**
 * One of the client's servers: its identity and negotiated session, and every feature addressed to it
 * alone. Get one with `client.server(name)`. Lists are cached until the server says they changed.
 */
export class Server {
  readonly #connection: Connection;
  readonly #context: ServerContext;
  readonly #lists: ServerLists;
  readonly #streams: ServerStreams;
  readonly #resourceSubscriptions: ResourceSubscriptions;
  /** The tool-call policy: definitions, output checks, header mirroring, retries and resumes. */
  readonly #tools: ToolCalls;
  /** The task methods, and what a wait for a task needs. */
  readonly #tasks: ServerTasks;
  readonly #waits: WaitContext;
  readonly #skills: ServerSkills;

  constructor(name: string, config: ServerConfig, context: ServerContext) {
    this.#context = context;
    const taskInputRounds = new TaskInputRounds();
    this.#connection = new Connection(name, config, {
      ...context,
      taskInputRounds,
      onNotification: (_c, method, params) => this.#onNotification(method, params),
      onClose: () => this.clearCache(),
    });
    const watched = new Set<string>();
    this.#streams = new ServerStreams({
      name,
      connection: this.#connection,
      logger: context.logger,
      ackTimeout: config.requestTimeout ?? context.requestTimeout ?? 60_000,
      watched,
      warn: (m) => this.#warn(m),
    });
    this.#resourceSubscriptions = new ResourceSubscriptions(name, this.#connection, this.#streams, watched);
    this.#lists = new ServerLists({
      connection: this.#connection,
      maxPages: context.maxPages,
      warn: (m) => this.#warn(m),
      screen: (kind, items, dropped) => this.#tools.screen(kind, items, dropped),
    });
    this.#skills = new ServerSkills({
      connection: this.#connection,
      maxPages: context.maxPages,
      shared: context.skills,
      warn: (m) => this.#warn(m),
    });
    this.#tasks = new ServerTasks({
      name,
      connection: this.#connection,
      logger: context.logger,
      maxPages: context.maxPages,
      readResult: (raw, origin) => this.#tools.readTaskResult(raw, origin),
    });
    this.#waits = {
      tasks: this.#tasks,
      host: () => this.#connection.host,
      maxInputRequests: context.inputLimits?.maxInputRequests ?? DEFAULT_MAX_INPUT_REQUESTS,
      isModern: () => this.#connection.isModern,
      inputRounds: taskInputRounds,
    };
    this.#tools = new ToolCalls(name, {
      connection: this.#connection,
      lists: this.#lists,
      logger: context.logger,
      validateStructuredContent: context.validateStructuredContent,
      listTools: () => this.listTools(),
      clearTools: () => this.clearCache('tools'),
      toolsChanged: () => this.#onNotification('notifications/tools/list_changed', undefined),
      warn: (m) => this.#warn(m),
      tasks: this.#tasks,
      follow: (task, options) => followTask(this.#waits, task, options),
    });
  }

  /** Unique within the client. */
  get name(): string {
    return this.#connection.name;
  }
  get state(): ConnectionState {
    return this.#connection.state;
  }
  /** The transport that connected: `'stdio'`, `'streamable-http'`, `'sse'`, `'http'`, `'custom'` (undefined before). */
  get transportKind(): string | undefined {
    return this.#connection.transportKind;
  }

  /**
   * `'modern'` for an MCP 2026-07-28 server (stateless: no `initialize` handshake), `'legacy'` for one that
   * ran the `initialize` handshake; undefined until connected. The same words as the `protocol` option.
   */
  get protocolEra(): 'modern' | 'legacy' | undefined {
    const era = this.#connection.era;
    return era === undefined ? undefined : era === 'stateless' ? 'modern' : 'legacy';
  }
  /** The negotiated protocol revision. Throws before the server is connected, as do the other session facts. */
  get protocolVersion(): string {
    return factsOf(this.#connection).protocolVersion;
  }
  get serverInfo(): Implementation {
    return factsOf(this.#connection).serverInfo;
  }
  get capabilities(): ServerCapabilities {
    return factsOf(this.#connection).capabilities;
  }
  /** The server's hint on how to use it (untrusted text, meant for the model's context). */
  get instructions(): string | undefined {
    return factsOf(this.#connection).instructions;
  }
  /** The capabilities this client declared to the server. */
  get clientCapabilities(): ClientCapabilities | undefined {
    return this.#connection.host?.capabilities;
  }
  /** URIs this client is subscribed to on this server. */
  get subscriptions(): ReadonlySet<string> {
    return this.#resourceSubscriptions.uris;
  }

  /** Connects, if not already connected. Rejects with `ConnectionError` (or a subclass) when it cannot. */
  async connect(): Promise<void> {
    await this.#connection.connect();
  }

  /** Whether the server negotiated a capability, given as a path: `'tools'`, `'resources.subscribe'`. */
  supports(capability: string): boolean {
    return this.#connection.supports(capability);
  }

  ping(options?: RequestOptions): Promise<void> {
    return this.#connection.ping(options);
  }

  /**
   * Sends any request to this server and resolves with its raw result (gated like every other call).
   * For methods this client has no wrapper for; prefer the typed methods.
   */
  request(method: string, params?: JsonRpcParams, options?: RequestOptions): Promise<unknown> {
    return this.#connection.request(method, params, options);
  }

  // ── lists ───────────────────────────────────────────────────────────────────────────────────────

  listTools(): Promise<readonly Tool[]>;
  listTools(options: PageOptions): Promise<ListPage<Tool>>;
  listTools(options?: PageOptions): Promise<readonly Tool[] | ListPage<Tool>> {
    return this.#list(TOOLS, 'tools', options);
  }

  listPrompts(): Promise<readonly Prompt[]>;
  listPrompts(options: PageOptions): Promise<ListPage<Prompt>>;
  listPrompts(options?: PageOptions): Promise<readonly Prompt[] | ListPage<Prompt>> {
    return this.#list(PROMPTS, 'prompts', options);
  }

  listResources(): Promise<readonly Resource[]>;
  listResources(options: PageOptions): Promise<ListPage<Resource>>;
  listResources(options?: PageOptions): Promise<readonly Resource[] | ListPage<Resource>> {
    return this.#list(RESOURCES, 'resources', options);
  }

  listResourceTemplates(): Promise<readonly ResourceTemplate[]>;
  listResourceTemplates(options: PageOptions): Promise<ListPage<ResourceTemplate>>;
  listResourceTemplates(options?: PageOptions): Promise<readonly ResourceTemplate[] | ListPage<ResourceTemplate>> {
    return this.#list(TEMPLATES, 'resourceTemplates', options);
  }

  /** The cached list of `kind`, without fetching (undefined when not cached). */
  cached(kind: 'tools'): readonly Tool[] | undefined;
  cached(kind: 'prompts'): readonly Prompt[] | undefined;
  cached(kind: 'resources'): readonly Resource[] | undefined;
  cached(kind: 'resourceTemplates'): readonly ResourceTemplate[] | undefined;
  cached(kind: ListKindName): readonly unknown[] | undefined {
    return this.#lists.peek(kind);
  }

  /**
   * What the cache holds for a list, or (`'read'`) for one resource: when it was received, the server's
   * `ttlMs` and `cacheScope` (MCP 2026-07-28), and whether it is fresh.
   */
  cacheInfo(kind: ListKindName | 'skills'): CacheInfo;
  cacheInfo(kind: 'read', uri: string): CacheInfo;
  cacheInfo(kind: ListKindName | 'skills' | 'read', uri?: string): CacheInfo {
    if (kind === 'read') return this.#lists.readInfo(String(uri));
    if (kind === 'skills') return this.#skills.info();
    return this.#lists.info(kind);
  }

  /** Drops one cached list, or everything cached (the skills listing among them). */
  clearCache(kind?: ListKindName | 'skills'): void {
    if (kind === undefined || kind === 'skills') this.#skills.invalidate();
    if (kind === 'skills') return;
    if (kind === undefined || kind === 'tools') this.#tools.toolsDropped();
    this.#lists.invalidate(kind);
  }

  // ── skills (SEP-2640, io.modelcontextprotocol/skills) ──────────────────────────────────────────

  /**
   * The extension's settings as the server declared them (`{ directoryRead?: boolean }`), or undefined
   * when it did not declare skills (or is not connected): then no skill method is sent to it.
   */
  get skillsExtension(): Readonly<Record<string, unknown>> | undefined {
    return this.#skills.settings();
  }

  /**
   * `skills/list`, every page (bounded: `maxPages`, and `skills.maxListItems` entries), cached by the
   * listing's `ttlMs` / `cacheScope`. Reads no skill file. An entry that may not be loaded is listed
   * with its `problem`. An empty or short listing does not mean the server has no other skills.
   * `CapabilityError` when the server did not declare the extension.
   */
  listSkills(): Promise<readonly SkillEntry[]> {
    return this.#skills.list();
  }

  /** `skills/get`: the current entry of the skill whose `SKILL.md` is at `uri` (`NotFoundError` when none). */
  getSkill(uri: string): Promise<SkillEntry> {
    return this.#skills.get(uri);
  }

  /**
   * Loads a skill (see `Client.loadSkill`): an entry of this server, a `SKILL.md` URI (confirmed with
   * `skills/get`), or a name or label from this server's listing.
   */
  async loadSkill(skill: SkillEntry | string, options: LoadSkillOptions = {}): Promise<LoadedSkill> {
    let entry: SkillEntry;
    if (typeof skill !== 'string') entry = skill;
    else if (skill.includes('://')) entry = await this.getSkill(skill);
    else entry = resolveSkillName(skill, await this.listSkills(), [this.name]);
    return this.#skills.load(entry, options.allowDynamic);
  }

  async #list<T>(
    kind: ListKind<T>,
    name: ListKindName,
    options: PageOptions | undefined,
  ): Promise<readonly T[] | ListPage<T>> {
    await this.#connection.connect();
    this.#connection.assertCapability(kind.method);
    if (options === undefined) return (await this.#lists.all(name)) as readonly T[];
    const page = await this.#lists.page(name, options.cursor ?? undefined);
    const items = page.items as T[];
    return page.nextCursor === undefined
      ? { items, server: this.name }
      : { items, nextCursor: page.nextCursor, server: this.name };
  }

  // ── tools, prompts, resources, completion ─────────────────────────────────────────────────────────

  callTool(
    name: string,
    args?: Readonly<Record<string, unknown>>,
    options: CallToolOptions = {},
  ): Promise<CallToolResult> {
    return this.#tools.call(name, args, options);
  }

  async getPrompt(
    name: string,
    args?: Readonly<Record<string, string>>,
    options: RequestOptions = {},
  ): Promise<GetPromptResult> {
    const checked = checkPromptArguments(args);
    const raw = await this.#connection.request(
      'prompts/get',
      checked === undefined ? { name } : { name, arguments: checked },
      options,
    );
    return readGetPromptResult(raw, this.name, name);
  }

  async readResource(uri: string, options: RequestOptions = {}): Promise<ResourceContents[]> {
    let raw: unknown;
    try {
      raw = await this.#lists.read(uri, async () => {
        let rounds = 0;
        const result = await this.#connection.request(
          'resources/read',
          { uri },
          { ...options, onRounds: (n) => (rounds = n) },
        );
        return { raw: result, cacheable: rounds === 0 };
      });
    } catch (error) {
      if (isResourceNotFound(error, uri))
        throw new ResourceNotFoundError(uri, [this.name], { server: this.name, error });
      throw error;
    }
    const dropped: string[] = [];
    const contents = readContents(raw, this.name, uri, dropped);
    if (dropped.length > 0)
      this.#warn(`dropped from resources/read: ${escapeForLog(dropped.slice(0, 5).join('; '), 1000)}`);
    return contents;
  }

  async complete(request: CompleteRequest, options: RequestOptions = {}): Promise<Completion> {
    const params = buildCompleteParams(request);
    return readCompletion(await this.#connection.request('completion/complete', params, options), this.name);
  }

  // ── tasks ───────────────────────────────────────────────────────────────────────────────────────

  /**
   * Whether a tool may run as a task here: on 2025-11-25, the server negotiated
   * `tasks.requests.tools.call` and the tool's `execution.taskSupport` allows it; on MCP 2026-07-28, the
   * server declared the tasks extension (it decides per call). False before connecting.
   */
  supportsTask(tool: Tool): boolean {
    if (this.#connection.facts === undefined) return false;
    if (this.#connection.isModern) return declaresTasksExtension(this.#connection.facts.capabilities);
    return this.#connection.supports('tasks.requests.tools.call') && supportsTask(tool);
  }

  /** Calls a tool as a task and resolves with its handle at once (see `Client.callToolAsTask`). */
  callToolAsTask(
    name: string,
    args?: Readonly<Record<string, unknown>>,
    options: CallToolAsTaskOptions = {},
  ): Promise<Task> {
    return this.#tools.callAsTask(name, args, options);
  }

  /** `tasks/get`: the task's state now, as a new handle. */
  getTask(task: TaskRef, options: TaskRequestOptions = {}): Promise<Task> {
    return this.#tasks.get(task, options);
  }

  /** Waits for the task to end, answering its input requests with the host handlers (see `Client.waitForTask`). */
  waitForTask(task: TaskRef, options: WaitForTaskOptions = {}): Promise<Task> {
    return this.#handleOf(task, options).then((t) => waitForTask(this.#waits, t, options));
  }

  /** The task's `CallToolResult` once it ends (`TaskFailedError`, `TaskCancelledError` otherwise). */
  getTaskResult(task: TaskRef, options: WaitForTaskOptions = {}): Promise<CallToolResult> {
    return this.#tasks.result(task, options, (t) => waitForTask(this.#waits, t, options));
  }

  /** `tasks/cancel` (never `notifications/cancelled`). */
  cancelTask(task: TaskRef, options: TaskRequestOptions = {}): Promise<Task> {
    return this.#tasks.cancel(task, options);
  }

  /** `tasks/update` (MCP 2026-07-28): the host answers the task's input requests itself. */
  updateTask(
    task: TaskRef,
    inputResponses: Readonly<Record<string, unknown>>,
    options: TaskRequestOptions = {},
  ): Promise<void> {
    return this.#tasks.update(task, inputResponses, options);
  }

  /** `tasks/list` (2025-11-25 only), every page. */
  listTasks(options: TaskRequestOptions = {}): Promise<Task[]> {
    return this.#tasks.list(options);
  }

  #handleOf(task: TaskRef, options: TaskRequestOptions): Promise<Task> {
    return typeof task === 'string' ? this.#tasks.get(task, options) : Promise.resolve(task);
  }

  /**
   * Takes up a multi round-trip request (MCP 2026-07-28) where an `InputRequiredError` left it: the
   * inputs not yet answered are asked for again (answers already produced are kept), and the request is
   * re-sent with the server's last `requestState`. Resolves with what the original call would have.
   */
  resumeInputRequired(
    error: InputRequiredError,
    options: RequestOptions = {},
  ): Promise<CallToolResult | GetPromptResult | ResourceContents[]> {
    return this.#tools.resume(error, options);
  }

  /**
   * Opens a `subscriptions/listen` stream (MCP 2026-07-28) for the notifications `filter` asks for;
   * `listener` receives them (and the acknowledgment) on the subscription's own dispatcher. Returns at
   * once: await `subscription.ready` for the acknowledgment. A classic server has no such streams: the
   * subscription ends with a `SubscriptionError` (`'unsupported'`); use `onNotification` there.
   */
  listen(filter: SubscriptionFilter, listener: SubscriptionListener, options: ListenOptions = {}): Subscription {
    return this.#streams.listen(filter, listener, options);
  }

  /**
   * Resolves once the server has confirmed the subscription; updates then arrive as
   * `notifications/resources/updated`. On a 2026-07-28 server this is a listen stream of its own, and
   * the confirmation is its acknowledgment naming the URI (one that leaves it out is refused with
   * `SubscriptionError`, and so is a later re-acknowledgment that drops it).
   */
  subscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    return this.#resourceSubscriptions.subscribe(uri, options);
  }

  /**
   * Ends a subscription. Calls for one URI run in the order they were made; a stream still being
   * opened for it is ended at once (its `subscribeResource` then fails with `SubscriptionError`).
   */
  unsubscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    return this.#resourceSubscriptions.unsubscribe(uri, options);
  }

  /** Sets the minimum level of the server's log messages. Deprecated in MCP 2026-07-28 (a notice, once). */
  async setLogLevel(level: LoggingLevel, options: RequestOptions = {}): Promise<void> {
    checkLevel(level);
    await this.#connection.setLogLevel(level, options, () =>
      noteDeprecatedUse(
        'logging',
        this.#context.logger,
        this.#context.deprecationNotices,
        this.#connection.facts?.protocolVersion,
      ),
    );
  }

  /** Closes the connection; the client does it for every server on close(). */
  async [CLOSE](): Promise<void> {
    await this.#streams.closeAll();
    await this.#connection.close();
  }

  [ROOTS_CHANGED](): Promise<void> {
    return this.#connection.rootsChanged();
  }

  // Runs on the transport's reader: only cheap, synchronous work, then the hand-offs. The order is
  // fixed: subscription bookkeeping, cache invalidation (so a listener reacting to list_changed
  // re-fetches), delivery to the subscription's listener, and the host's onNotification last.
  #onNotification(method: string, params: JsonRpcParams | undefined): void {
    const subscription = this.#streams.registry.claim(method, params);
    const kinds = INVALIDATES.get(method);
    if (kinds !== undefined) for (const kind of kinds) this.clearCache(kind);
    if (method === 'notifications/resources/updated' && typeof params?.uri === 'string')
      this.#lists.invalidateRead(params.uri);
    if (method === 'notifications/message') {
      const message = sanitizeLogMessage(params, this.#context.logMessageLimit);
      if (message === undefined) return;
      params = message as unknown as JsonRpcParams;
    }
    if (subscription !== undefined) this.#streams.registry.deliver(subscription, method, params);
    this.#context.deliver(this, method, params);
  }

  #warn(message: string): void {
    safeLog(this.#context.logger, 'warn', `[mcpc] server "${escapeForLog(this.name, 100)}": ${message}`);
  }
}
