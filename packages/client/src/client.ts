import { escapeForLog, safeLog, warningsToConsole, type JsonRpcParams, type Logger } from '@mcpc/jsonrpc';
import type {
  ClientOptions,
  LogListener,
  NotificationListener,
  RouteOptions,
  ToolCall,
  ToolCallOutcome,
} from './options.js';
import { DEFAULT_MAX_PAGES } from './cache/pagination.js';
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
import { noteDeprecatedUse } from './deprecations.js';
import { ClientClosedError, InputRequiredError, ToolNotFoundError, UnknownServerError } from './errors.js';
import { DEFAULT_LOG_MESSAGE_LIMIT, checkLevel } from './features/logging.js';
import type { ResourceContents } from './features/resources.js';
import { streamCall, type ToolStreamEvent } from './features/streaming.js';
import { runBatch, type BatchOptions } from './features/batch.js';
import { checkValidationMode } from './features/structured-output.js';
import { createHostBridge } from './host/bridge.js';
import { DEFAULT_MAX_INPUT_REQUESTS, DEFAULT_MAX_REQUEST_STATE_BYTES } from './server/mrtr.js';
import { checkRoots } from './host/roots.js';
import { assignNames } from './naming.js';
import { routePrompt, routeResource, routeTool } from './routing.js';
import type { HostBridge } from './server/era.js';
import {
  CLOSE,
  ROOTS_CHANGED,
  Server,
  type CallToolOptions,
  type ListKindName,
  type PageOptions,
  type RequestOptions,
} from './server/server.js';
import { toConfig } from './server-configs.js';
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
  LogMessage,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
} from './types/entities.js';
import type { Implementation, LoggingLevel, Root } from './types/protocol.js';
import { VERSION } from './version.js';

export type { ClientOptions, LogListener, NotificationListener, RouteOptions, ToolCall, ToolCallOutcome };

/**
 * An MCP client over one or many servers. Servers connect on first use (or all at once with
 * `connect()`); lists aggregate across servers, calls route to the server that offers the name, and
 * `{ server }` routes explicitly.
 */
export class Client {
  readonly #servers = new Map<string, Server>();
  readonly #options: ClientOptions;
  readonly #logger: Logger;
  readonly #clientInfo: Implementation;
  readonly #listeners = new Set<NotificationListener>();
  readonly #logListeners = new Set<LogListener>();
  #roots: readonly Root[] | undefined;
  #closed = false;
  #closing: Promise<void> | undefined;

  constructor(options: ClientOptions = {}) {
    this.#options = options;
    this.#logger = options.logger ?? warningsToConsole;
    this.#clientInfo = checkClientInfo(options.clientInfo);
    const notices = options.deprecationNotices !== false;
    if (
      options.requestMeta !== undefined &&
      typeof options.requestMeta !== 'function' &&
      (typeof options.requestMeta !== 'object' || options.requestMeta === null || Array.isArray(options.requestMeta))
    ) {
      throw new TypeError('requestMeta must be an object or a function returning one');
    }
    if (options.roots !== undefined) this.#roots = checkRoots(options.roots);
    for (const mode of options.elicitationModes ?? []) {
      if (mode !== 'form' && mode !== 'url') throw new TypeError('elicitationModes may hold only "form" and "url"');
    }
    const configs = (options.servers ?? []).map(toConfig);
    const names = assignNames(configs);
    // Roots and sampling are noted by each connection whose negotiated revision deprecates them.
    const context = {
      logger: this.#logger,
      requestTimeout: options.requestTimeout,
      handshakeTimeout: options.handshakeTimeout,
      maxPages: options.maxPages ?? DEFAULT_MAX_PAGES,
      logMessageLimit: options.logMessageLimit ?? DEFAULT_LOG_MESSAGE_LIMIT,
      deprecationNotices: notices,
      validateStructuredContent:
        checkValidationMode(options.validateStructuredContent, 'validateStructuredContent') ?? 'warn',
      requestMeta: options.requestMeta,
      onInputRequiredWait: options.onInputRequiredWait,
      inputLimits: {
        maxInputRequests: checkLimit(options.maxInputRequests, 'maxInputRequests') ?? DEFAULT_MAX_INPUT_REQUESTS,
        maxRequestStateBytes:
          checkLimit(options.maxRequestStateBytes, 'maxRequestStateBytes') ?? DEFAULT_MAX_REQUEST_STATE_BYTES,
      },
      extensions: options.extensions,
      host: (server: string) => this.#host(server),
      deliver: (server: Server, method: string, params: JsonRpcParams | undefined) =>
        this.#deliver(server, method, params),
    };
    configs.forEach((config, i) => this.#servers.set(names[i]!, new Server(names[i]!, config, context)));
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
    return [...this.#servers.values()];
  }

  /** The server named `name`; throws `UnknownServerError` when there is none. */
  server(name: string): Server {
    const server = this.#servers.get(name);
    if (server === undefined) throw new UnknownServerError(name, [...this.#servers.keys()]);
    return server;
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
        options.server !== undefined ? this.server(options.server) : await routeTool(await this.#connected(), name);
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
      const server = explicit !== undefined ? this.server(explicit) : this.#onlyServer();
      if (server !== undefined) return server.callTool(name, args, options);
      return this.#toolServer(name, undefined).then((s) => s.callTool(name, args, options));
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
    return runBatch(calls, (name, server) => this.#toolServer(name, server), options);
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
        : await this.#single(() => this.#connected().then((s) => routePrompt(s, name)));
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
        : await this.#single(() => this.#connected().then((s) => routeResource(s, uri)));
    return server.readResource(uri, options);
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
        : await this.#single(() => this.#connected().then(route));
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
    const servers = (await this.#connected()).filter((s) => s.protocolEra === 'modern' || s.supports('logging'));
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
    if (checked.length > 0) {
      for (const server of this.#servers.values()) {
        if (server.state === 'connected')
          noteDeprecatedUse('roots', this.#logger, this.#options.deprecationNotices !== false, server.protocolVersion);
      }
    }
    this.#roots = checked;
    for (const server of this.#servers.values()) {
      if (server.state === 'connected' && server.clientCapabilities?.roots === undefined) {
        this.#log(
          'warn',
          `server "${server.name}" connected before roots were configured, so it was not told of them; pass roots (even []) to the Client to declare them`,
        );
      }
      server[ROOTS_CHANGED]().catch((e: unknown) =>
        this.#log('warn', `could not tell server "${server.name}" that roots changed: ${messageOf(e)}`),
      );
    }
  }

  /** Listens to every server notification (after the client has acted on it). Returns the unsubscribe. */
  onNotification(listener: NotificationListener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** Listens to the servers' log messages, made safe to print. Returns the unsubscribe. */
  onLog(listener: LogListener): () => void {
    this.#logListeners.add(listener);
    return () => void this.#logListeners.delete(listener);
  }

  /** Pings one server, or every server. */
  async ping(options: RequestOptions & RouteOptions = {}): Promise<void> {
    this.#assertOpen('ping');
    const servers = options.server !== undefined ? [this.server(options.server)] : this.servers;
    await Promise.all(servers.map((s) => s.ping(options)));
  }

  /** Drops the cached lists of every server (or of one kind). They are re-fetched on next use. */
  clearCache(kind?: ListKindName): void {
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

  /** Every server, connected; a server that cannot connect fails the call. */
  async #connected(): Promise<readonly Server[]> {
    const servers = this.servers;
    await Promise.all(servers.map((s) => s.connect()));
    return servers;
  }

  /** With one server there is nothing to route: skip the lookup (and its list request). */
  #single(route: () => Promise<Server>): Promise<Server> {
    const only = this.#onlyServer();
    return only === undefined ? route() : Promise.resolve(only);
  }

  #onlyServer(): Server | undefined {
    return this.#servers.size === 1 ? this.#servers.values().next().value : undefined;
  }

  #toolServer(name: string, explicit: string | undefined): Promise<Server> {
    if (explicit !== undefined) return Promise.resolve(this.server(explicit));
    return this.#single(() => this.#connected().then((s) => routeTool(s, name)));
  }

  async #list<T>(
    kind: ListKindName,
    capability: string,
    options: (RouteOptions & Partial<PageOptions>) | undefined,
    list: (server: Server, page: PageOptions | undefined) => Promise<readonly T[] | ListPage<T>>,
  ): Promise<readonly T[] | ListPage<T>> {
    this.#assertOpen(kind);
    const page = options !== undefined && 'cursor' in options ? { cursor: options.cursor ?? null } : undefined;
    if (options?.server !== undefined) return list(this.server(options.server), page);
    if (page !== undefined) {
      if (this.#servers.size !== 1) throw new TypeError(`a page of ${kind} is per server: pass { server, cursor }`);
      return list(this.servers[0]!, page);
    }
    const servers = (await this.#connected()).filter((s) => s.supports(capability));
    const lists = (await Promise.all(servers.map((s) => list(s, undefined)))) as (readonly T[])[];
    return lists.length === 1 ? lists[0]! : lists.flat();
  }

  #host(server: string): HostBridge {
    return createHostBridge(this.#options, {
      server,
      clientInfo: this.#clientInfo,
      logger: this.#logger,
      roots: () => this.#roots,
    });
  }

  // Off the transport's reader: listeners may make requests of their own and await them.
  #deliver(server: Server, method: string, params: JsonRpcParams | undefined): void {
    if (this.#listeners.size === 0 && (method !== 'notifications/message' || this.#logListeners.size === 0)) return;
    queueMicrotask(() => {
      for (const listener of this.#listeners)
        this.#guard('a notification listener', () => listener(server.name, method, params));
      if (method === 'notifications/message') {
        for (const listener of this.#logListeners)
          this.#guard('a log listener', () => listener(server.name, params as unknown as LogMessage));
      }
    });
  }

  #guard(what: string, run: () => unknown): void {
    try {
      const result = run();
      if (result instanceof Promise)
        result.catch((e: unknown) => this.#log('error', `${what} failed: ${messageOf(e)}`));
    } catch (error) {
      this.#log('error', `${what} threw: ${messageOf(error)}`);
    }
  }

  #log(level: 'warn' | 'error', message: string): void {
    safeLog(this.#logger, level, `[mcpc] ${message}`);
  }
}

/** A positive integer bound, or undefined for the default. */
function checkLimit(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`${name} must be a positive integer`);
  return value;
}

function checkClientInfo(info: Implementation | undefined): Implementation {
  if (info === undefined) return { name: '@mcpc/client', version: VERSION };
  if (
    typeof info !== 'object' ||
    typeof info.name !== 'string' ||
    info.name.length === 0 ||
    typeof info.version !== 'string'
  ) {
    throw new TypeError('clientInfo needs a string name and version');
  }
  return info;
}

const messageOf = (e: unknown): string => escapeForLog(e instanceof Error ? e.message : String(e), 500);
