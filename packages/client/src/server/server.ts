import { ErrorCode, ServerError, escapeForLog, safeLog, type JsonRpcParams } from '@mcpc/jsonrpc';
import { CapabilityError, HeaderMismatchError, InputRequiredError, ResourceNotFoundError, ToolNotFoundError, type InputRequiredContinuation } from '../errors.js';
import { paramHeaders, readParamHeaders, type ParamHeader } from '../features/param-headers.js';
import type { CacheInfo } from '../cache/list-cache.js';
import type { ListKind } from '../cache/pagination.js';
import { noteDeprecatedUse } from '../deprecations.js';
import { buildCompleteParams, readCompletion } from '../features/completion.js';
import { checkLevel, sanitizeLogMessage } from '../features/logging.js';
import { PROMPTS, checkPromptArguments, readGetPromptResult } from '../features/prompts.js';
import { RESOURCES, TEMPLATES, readContents, type ResourceContents } from '../features/resources.js';
import { TOOLS, buildCallParams, discardedStructuredContent, readCallToolResult } from '../features/tools.js';
import { ToolSchemas, checkValidationMode, type OutputCheck, type StructuredContentValidation } from '../features/structured-output.js';
import type { ServerConfig } from '../transports.js';
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
import type { ClientCapabilities, Implementation, LoggingLevel, Meta, ServerCapabilities } from '../types/protocol.js';
import { Connection, factsOf, type ConnectionContext, type ConnectionState } from './connection.js';
import type { EraCallOptions, EraRequestOptions } from './era.js';
import { closeNames } from '../routing.js';
import { ServerLists, type ListKindName } from './lists.js';
import { ServerStreams } from '../subscriptions/server-streams.js';
import type { ListenOptions, Subscription, SubscriptionFilter, SubscriptionListener } from '../subscriptions/subscription.js';

/** Options every request takes. */
export type RequestOptions = EraRequestOptions;

export interface CallToolOptions extends RequestOptions {
  /** Request metadata, merged over a `_meta` found in the arguments. */
  readonly meta?: Meta;
  /** How this call's result is checked against the tool's `outputSchema`; the client's option by default. */
  readonly validateStructuredContent?: StructuredContentValidation;
}

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
  /** Hands a notification to the client's listeners; called after the caches it invalidates are dropped. */
  readonly deliver: (server: Server, method: string, params: JsonRpcParams | undefined) => void;
}

// Symbol-keyed, and not exported from the package: the client's levers, not part of a server's API.
export const CLOSE: unique symbol = Symbol('close');
export const ROOTS_CHANGED: unique symbol = Symbol('rootsChanged');

/**
 * "Resource not found" (SEP-2164, MCP 2026-07-28: -32602 with `data.uri`), as servers send it:
 * - -32602 whose `data.uri` is the URI (the spec's form);
 * - -32602 with no `data.uri` whose message says "not found" (the official TypeScript SDK before
 *   SEP-2164, and server-everything: "Resource <uri> not found");
 * - -32002, which earlier revisions recommended and the C#, Rust, Java, Go and PHP SDKs send;
 * - -32601 whose message names the URI (fastmcp: "Unknown resource: <uri>"); a bare "Method not found"
 *   names no URI and stays what it is.
 * A -32602 naming another URI, or one about something else, is not.
 */
export function isResourceNotFound(error: unknown, uri: string): boolean {
  if (!(error instanceof ServerError) || error.code !== 'MCPC_SERVER_ERROR') return false;
  if (error.rpcCode === ErrorCode.ResourceNotFound) return true;
  const message = typeof error.serverMessage === 'string' ? error.serverMessage : '';
  if (error.rpcCode === ErrorCode.InvalidParams) {
    const named = (error.data as { uri?: unknown } | undefined)?.uri;
    if (named !== undefined) return named === uri;
    return /\bnot found\b/i.test(message);
  }
  return error.rpcCode === ErrorCode.MethodNotFound && uri.length > 0 && message.includes(uri);
}

/**
 * Where a call refused with HeaderMismatch is retried from: the start (`from` undefined: the first round
 * was refused) or the continuation of a later round that was. Undefined when the error is no mismatch.
 */
function mismatchRetry(error: unknown, resume: InputRequiredContinuation | undefined): { readonly from: InputRequiredContinuation | undefined } | undefined {
  if (error instanceof HeaderMismatchError) return { from: resume };
  if (error instanceof InputRequiredError && error.reason === 'send-failed' && error.cause instanceof HeaderMismatchError) return { from: error.continuation };
  return undefined;
}

/** `callTool` options the request itself does not take. */
function withoutCallOptions(options: CallToolOptions): RequestOptions {
  if (options.meta === undefined && options.validateStructuredContent === undefined) return options;
  const { meta: _meta, validateStructuredContent: _mode, ...rest } = options;
  return rest;
}

/** `#checkNow`: the check cannot be settled without waiting (connecting, listing, loading the validator). */
const NOT_NOW: unique symbol = Symbol('not now');

const indexes = new WeakMap<readonly Tool[], Map<string, Tool>>();
/** A cached tool list by name, built once per list (a call must not scan a long list each time). */
function byName(tools: readonly Tool[]): Map<string, Tool> {
  let index = indexes.get(tools);
  if (index === undefined) {
    index = new Map();
    for (const tool of tools) if (!index.has(tool.name)) index.set(tool.name, tool);
    indexes.set(tools, index);
  }
  return index;
}

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
  /** The x-mcp-header annotations of each listed tool, read once when the list arrived. */
  readonly #paramAnnotations = new WeakMap<object, readonly ParamHeader[]>();
  readonly #subscriptions = new Set<string>();
  readonly #streams: ServerStreams;
  readonly #schemas: ToolSchemas;
  /** The output check of a call an InputRequiredError stopped, for the resume (keyed by its continuation). */
  readonly #pendingChecks = new WeakMap<object, OutputCheck>();
  /** tools/list failed when a call looked up its tool's definition (reset when the tools cache is dropped). */
  #toolsUnlisted = false;

  constructor(name: string, config: ServerConfig, context: ServerContext) {
    this.#context = context;
    this.#schemas = new ToolSchemas(name, context.logger);
    this.#connection = new Connection(name, config, {
      ...context,
      onNotification: (_c, method, params) => this.#onNotification(method, params),
      onClose: () => this.clearCache(),
    });
    this.#streams = new ServerStreams({
      name,
      connection: this.#connection,
      logger: context.logger,
      ackTimeout: config.requestTimeout ?? context.requestTimeout ?? 60_000,
      watched: this.#subscriptions,
      warn: (m) => this.#warn(m),
    });
    this.#lists = new ServerLists({
      connection: this.#connection,
      maxPages: context.maxPages,
      warn: (m) => this.#warn(m),
      screen: (kind, items, dropped) => this.#screen(kind, items, dropped),
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

  /** The era's implementation: `'classic'` (the initialize handshake) or `'stateless'` (MCP 2026-07-28); undefined until connected. */
  get era(): 'classic' | 'stateless' | undefined {
    return this.#connection.era;
  }
  /** `'modern'` for an MCP 2026-07-28 server, `'legacy'` for one that ran the initialize handshake; undefined until connected. */
  get protocolEra(): 'modern' | 'legacy' | undefined {
    const era = this.#connection.era;
    return era === undefined ? undefined : era === 'stateless' ? 'modern' : 'legacy';
  }
  /** Whether the server speaks the stateless protocol (MCP 2026-07-28); false until connected. */
  get isModern(): boolean {
    return this.#connection.era === 'stateless';
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
    return this.#subscriptions;
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
  cacheInfo(kind: ListKindName): CacheInfo;
  cacheInfo(kind: 'read', uri: string): CacheInfo;
  cacheInfo(kind: ListKindName | 'read', uri?: string): CacheInfo {
    if (kind === 'read') return this.#lists.readInfo(String(uri));
    return this.#lists.info(kind);
  }

  /** Drops one cached list, or everything cached. */
  clearCache(kind?: ListKindName): void {
    if (kind === undefined || kind === 'tools') this.#toolsUnlisted = false;
    this.#lists.invalidate(kind);
  }

  async #list<T>(kind: ListKind<T>, name: ListKindName, options: PageOptions | undefined): Promise<readonly T[] | ListPage<T>> {
    await this.#connection.connect();
    this.#connection.assertCapability(kind.method);
    if (options === undefined) return (await this.#lists.all(name)) as readonly T[];
    const page = await this.#lists.page(name, options.cursor ?? undefined);
    const items = page.items as T[];
    return page.nextCursor === undefined ? { items, server: this.name } : { items, nextCursor: page.nextCursor, server: this.name };
  }

  // ── tools, prompts, resources, completion ─────────────────────────────────────────────────────────

  callTool(name: string, args?: Readonly<Record<string, unknown>>, options: CallToolOptions = {}): Promise<CallToolResult> {
    let mode: StructuredContentValidation;
    let params: JsonRpcParams;
    let fast: OutputCheck | undefined | typeof NOT_NOW;
    try {
      mode = checkValidationMode(options.validateStructuredContent, 'validateStructuredContent') ?? this.#context.validateStructuredContent;
      params = buildCallParams(name, args, options.meta);
      fast = this.#checkNow(name, mode);
    } catch (error) {
      return Promise.reject(error);
    }
    const requestOptions = withoutCallOptions(options);
    if (fast === NOT_NOW) return this.#callTool(name, params, mode, requestOptions);
    // The common case — connected, the definition and its validator at hand, no headers to mirror —
    // costs one promise of its own: a call is this client's hot path.
    const check = fast;
    return this.#connection.request('tools/call', params, requestOptions).then(
      (raw) => this.#readCallResult(raw, name, check),
      (error: unknown) => this.#callFailed(error, check),
    );
  }

  /**
   * What the result of a call sent now is checked against, when that is known without waiting: the
   * connection is up, nothing is mirrored into headers, and the tool's definition is cached (or no
   * list will come). `NOT_NOW` sends the call the long way.
   */
  #checkNow(name: string, mode: StructuredContentValidation): OutputCheck | undefined | typeof NOT_NOW {
    if (!this.#connection.ready || this.#mirrorsParams()) return NOT_NOW;
    // 'off' reads no definition: nothing is looked up, and the server says whether the tool exists.
    if (mode === 'off') return undefined;
    const cached = this.#lists.peek('tools') as readonly Tool[] | undefined;
    const tool = cached === undefined ? undefined : byName(cached).get(name);
    // A name the list lacks goes the long way, which settles whether it exists.
    if (tool === undefined) return NOT_NOW;
    const check = this.#schemas.prepare(tool, mode);
    return check instanceof Promise ? NOT_NOW : check;
  }

  async #callTool(name: string, params: JsonRpcParams, mode: StructuredContentValidation, requestOptions: RequestOptions): Promise<CallToolResult> {
    await this.#connection.connect();
    const { raw, check } = await this.#sendCall(name, params, mode, requestOptions, undefined, undefined);
    return this.#readCallResult(raw, name, check);
  }

  /**
   * Sends a `tools/call`, or takes one up where an `InputRequiredError` left it (`resume`). Each attempt
   * goes out under the tool definition known when it is sent, and its result is checked against that
   * one (a resume keeps the check its first attempt went out under). MCP 2026-07-28 over HTTP also
   * mirrors annotated arguments into Mcp-Param-* headers from it — on every round, resumed rounds
   * included. A HeaderMismatch, on the first round or a later one, means the definition changed:
   * refresh it once and retry under the new one (whose schemas are checked again before the retry is
   * sent); a later round is retried from where it failed, keeping the answers already given.
   */
  async #sendCall(
    name: string,
    params: JsonRpcParams,
    mode: StructuredContentValidation,
    requestOptions: RequestOptions,
    resume: InputRequiredContinuation | undefined,
    resumeCheck: OutputCheck | undefined,
  ): Promise<{ raw: unknown; check: OutputCheck | undefined }> {
    const mirrors = this.#mirrorsParams();
    let check = resumeCheck;
    const attempt = async (fresh: boolean, from: InputRequiredContinuation | undefined): Promise<unknown> => {
      if (fresh) this.clearCache('tools');
      const definitionNeeded = mirrors || (mode !== 'off' && (resume === undefined || fresh));
      const tool = definitionNeeded ? await this.#definitionFor(name, fresh) : undefined;
      if (resume === undefined || fresh) check = mode === 'off' ? undefined : await this.#prepareCheck(name, tool, mode);
      const annotations = mirrors ? this.#paramAnnotations.get(tool ?? {}) : undefined;
      const headers = annotations === undefined ? undefined : paramHeaders(annotations, params.arguments as Record<string, unknown>);
      const options: EraCallOptions = from === undefined ? requestOptions : { ...requestOptions, resume: from };
      return this.#connection.request('tools/call', params, headers === undefined ? options : { ...options, headers });
    };
    try {
      try {
        return { raw: await attempt(false, resume), check };
      } catch (error) {
        const retry = mismatchRetry(error, resume);
        if (!mirrors || retry === undefined) throw error;
        this.#warn(`tools/call "${escapeForLog(name, 100)}" was refused with HeaderMismatch; refreshing tools/list and retrying once`);
        return { raw: await attempt(true, retry.from), check };
      }
    } catch (error) {
      return this.#callFailed(error, check);
    }
  }

  /**
   * The definition a call goes out under. When the server's tool list is known and lacks the name, the
   * call is not sent: `ToolNotFoundError` (a list that came from the cache is fetched once more first,
   * in case the tool is new). With no list to go by, the call is sent and the server answers.
   */
  async #definitionFor(name: string, fresh: boolean): Promise<Tool | undefined> {
    const hadList = this.#lists.peek('tools') !== undefined;
    let found = await this.#toolDefinition(name, fresh);
    if (found.listed && found.tool === undefined && hadList && !fresh) {
      this.clearCache('tools');
      found = await this.#toolDefinition(name, true);
    }
    if (found.listed && found.tool === undefined) {
      const listed = (this.#lists.peek('tools') as readonly Tool[] | undefined) ?? [];
      throw new ToolNotFoundError(name, [this.name], closeNames(name, listed.map((t) => t.name)));
    }
    return found.tool;
  }

  /** A call that asks for input keeps its check for the continuation's result. */
  #callFailed(error: unknown, check: OutputCheck | undefined): never {
    if (error instanceof InputRequiredError && check !== undefined) this.#pendingChecks.set(error.continuation, check);
    throw error;
  }

  /** The output check for a call under `tool`, or none when the definition is unknown (nothing to check against). */
  #prepareCheck(name: string, tool: Tool | undefined, mode: 'warn' | 'strict'): OutputCheck | undefined | Promise<OutputCheck | undefined> {
    if (tool === undefined) {
      safeLog(this.#context.logger, 'debug', `[mcpc] server "${escapeForLog(this.name, 100)}": tool "${escapeForLog(name, 100)}" is not in its tools/list, so its schemas are not checked`);
      return undefined;
    }
    return this.#schemas.prepare(tool, mode);
  }

  #readCallResult(raw: unknown, name: string, check: OutputCheck | undefined): CallToolResult {
    // MCP 2026-07-28 widened structuredContent to any JSON value; earlier revisions type it as an object.
    const anyJson = this.#connection.isModern;
    const discarded = check === undefined ? undefined : discardedStructuredContent(raw, anyJson);
    const result = readCallToolResult(raw, this.name, name, anyJson);
    if (check !== undefined) this.#schemas.check(check, result, discarded);
    return result;
  }

  /** Whether this connection mirrors x-mcp-header arguments (stateless server, HTTP transport). */
  #mirrorsParams(): boolean {
    return this.#connection.isModern && this.#connection.isHttp;
  }

  /**
   * The definition of a tool: from the cached list when it is there (fresh or not), else listed now (so
   * a first call fetches tools/list once). `listed` is false when there is no list to go by (it failed,
   * or the server will not list).
   */
  async #toolDefinition(name: string, refetched: boolean): Promise<{ readonly tool: Tool | undefined; readonly listed: boolean }> {
    const cached = this.#lists.peek('tools') as readonly Tool[] | undefined;
    const hit = cached === undefined ? undefined : byName(cached).get(name);
    if (hit !== undefined || (cached !== undefined && refetched)) return { tool: hit, listed: true };
    // A list that failed is not asked for again on every call: only once the tools cache was dropped.
    if (cached === undefined && this.#toolsUnlisted && !refetched) return { tool: undefined, listed: false };
    try {
      return { tool: byName(await this.listTools()).get(name), listed: true };
    } catch (error) {
      // No list: no headers, no schemas to check; the server will say what it misses.
      this.#toolsUnlisted = true;
      // Without the tools capability the call itself is refused next, which says it all.
      if (!(error instanceof CapabilityError)) {
        const without = this.#mirrorsParams() ? 'no Mcp-Param-* headers, no schema checks' : 'no schema checks';
        this.#warn(`tools/list failed (${escapeForLog(error instanceof Error ? error.message : String(error), 300)}); tool calls go out without their definitions (${without}) until the list can be fetched`);
      }
      return { tool: undefined, listed: false };
    }
  }

  /** Drops tools whose x-mcp-header annotations are invalid (MCP 2026-07-28 requires it over HTTP). */
  #screen(kind: ListKindName, items: unknown[], dropped: string[]): unknown[] {
    if (kind !== 'tools' || !this.#mirrorsParams()) return items;
    return items.filter((item) => {
      const tool = item as Tool;
      const annotations = readParamHeaders(tool.inputSchema);
      if (typeof annotations === 'string') {
        dropped.push(`tool "${tool.name.slice(0, 64)}": invalid x-mcp-header annotation: ${annotations}`);
        return false;
      }
      this.#paramAnnotations.set(tool, annotations);
      return true;
    });
  }

  async getPrompt(name: string, args?: Readonly<Record<string, string>>, options: RequestOptions = {}): Promise<GetPromptResult> {
    const checked = checkPromptArguments(args);
    const raw = await this.#connection.request('prompts/get', checked === undefined ? { name } : { name, arguments: checked }, options);
    return readGetPromptResult(raw, this.name, name);
  }

  async readResource(uri: string, options: RequestOptions = {}): Promise<ResourceContents[]> {
    let raw: unknown;
    try {
      raw = await this.#lists.read(uri, async () => {
        let rounds = 0;
        const result = await this.#connection.request('resources/read', { uri }, { ...options, onRounds: (n) => (rounds = n) });
        return { raw: result, cacheable: rounds === 0 };
      });
    } catch (error) {
      if (isResourceNotFound(error, uri)) throw new ResourceNotFoundError(uri, [this.name], { server: this.name, error });
      throw error;
    }
    const dropped: string[] = [];
    const contents = readContents(raw, this.name, uri, dropped);
    if (dropped.length > 0) this.#warn(`dropped from resources/read: ${escapeForLog(dropped.slice(0, 5).join('; '), 1000)}`);
    return contents;
  }

  async complete(request: CompleteRequest, options: RequestOptions = {}): Promise<Completion> {
    const params = buildCompleteParams(request);
    return readCompletion(await this.#connection.request('completion/complete', params, options), this.name);
  }

  /**
   * Takes up a multi round-trip request (MCP 2026-07-28) where an `InputRequiredError` left it: the
   * inputs not yet answered are asked for again (answers already produced are kept), and the request is
   * re-sent with the server's last `requestState`. Resolves with what the original call would have.
   */
  async resumeInputRequired(error: InputRequiredError, options: RequestOptions = {}): Promise<CallToolResult | GetPromptResult | ResourceContents[]> {
    if (!(error instanceof InputRequiredError)) throw new TypeError('resumeInputRequired() takes the InputRequiredError a call raised');
    if (!error.resumable) throw new TypeError(`this InputRequiredError (${error.reason}) cannot be resumed: the server asked for something the client cannot give`);
    const c = error.continuation;
    if (c.server !== this.name) throw new TypeError(`this InputRequiredError belongs to server "${c.server}", not "${this.name}"`);
    const pending = this.#pendingChecks.get(c);
    const name = String(c.params.name ?? c.params.uri ?? '');
    if (c.method === 'tools/call') {
      // Resumed rounds carry the Mcp-Param-* headers of the first; their result is checked against the
      // definition the first attempt went out under (or the refreshed one, after a HeaderMismatch).
      await this.#connection.connect();
      const mode: StructuredContentValidation = pending === undefined ? 'off' : this.#context.validateStructuredContent;
      const { raw, check } = await this.#sendCall(name, c.params as JsonRpcParams, mode, options, c, pending);
      return this.#readCallResult(raw, name, check);
    }
    let raw: unknown;
    try {
      raw = await this.#connection.request(c.method, c.params as JsonRpcParams, { ...options, resume: c });
    } catch (e) {
      if (e instanceof InputRequiredError && pending !== undefined) this.#pendingChecks.set(e.continuation, pending);
      throw e;
    }
    if (c.method === 'prompts/get') return readGetPromptResult(raw, this.name, name);
    const dropped: string[] = [];
    return readContents(raw, this.name, name, dropped);
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
  async subscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    await this.#connection.connect();
    if (this.#connection.isModern) return this.#streams.watch(uri, options.timeout);
    await this.#connection.request('resources/subscribe', { uri }, options);
    this.#subscriptions.add(uri);
  }

  async unsubscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    if (await this.#streams.unwatch(uri)) return;
    await this.#connection.request('resources/unsubscribe', { uri }, options);
    this.#subscriptions.delete(uri);
  }

  /** Sets the minimum level of the server's log messages. Deprecated in MCP 2026-07-28 (a notice, once). */
  async setLogLevel(level: LoggingLevel, options: RequestOptions = {}): Promise<void> {
    checkLevel(level);
    await this.#connection.setLogLevel(level, options, () => noteDeprecatedUse('logging', this.#context.logger, this.#context.deprecationNotices, this.#connection.facts?.protocolVersion));
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
    if (method === 'notifications/resources/updated' && typeof params?.uri === 'string') this.#lists.invalidateRead(params.uri);
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
