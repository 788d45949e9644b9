// The tool-call policy behind `Server`: definition lookup, the unknown-tool rule, output checks, Mcp-Param-*
// header mirroring with its HeaderMismatch retry, and taking up a multi round-trip request where it stopped.
import { escapeForLog, safeLog, type JsonRpcParams, type Logger } from '@mcpc/jsonrpc';
import {
  CapabilityError,
  HeaderMismatchError,
  InputRequiredError,
  ToolNotFoundError,
  type InputRequiredContinuation,
} from '../errors.js';
import { paramHeaders, readParamHeaders, type ParamHeader } from '../features/param-headers.js';
import { readGetPromptResult } from '../features/prompts.js';
import { readContents, type ResourceContents } from '../features/resources.js';
import { buildCallParams, discardedStructuredContent, readCallToolResult } from '../features/tools.js';
import {
  ToolSchemas,
  checkValidationMode,
  type OutputCheck,
  type StructuredContentValidation,
} from '../features/structured-output.js';
import { closeNames } from '../routing.js';
import type { CallToolResult, GetPromptResult, Tool } from '../types/entities.js';
import type { Meta } from '../types/protocol.js';
import type { Connection } from './connection.js';
import type { EraCallOptions, EraRequestOptions } from './era.js';
import type { ListKindName, ServerLists } from './lists.js';

export interface CallToolOptions extends EraRequestOptions {
  /** Request metadata, merged over a `_meta` found in the arguments. */
  readonly meta?: Meta;
  /** How this call's result is checked against the tool's `outputSchema`; the client's option by default. */
  readonly validateStructuredContent?: StructuredContentValidation;
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
  readonly warn: (message: string) => void;
}

/**
 * Where a call refused with HeaderMismatch is retried from: the start (`from` undefined: the first round
 * was refused) or the continuation of a later round that was. Undefined when the error is no mismatch.
 */
function mismatchRetry(
  error: unknown,
  resume: InputRequiredContinuation | undefined,
): { readonly from: InputRequiredContinuation | undefined } | undefined {
  if (error instanceof HeaderMismatchError) return { from: resume };
  if (
    error instanceof InputRequiredError &&
    error.reason === 'send-failed' &&
    error.cause instanceof HeaderMismatchError
  )
    return { from: error.continuation };
  return undefined;
}

/** `callTool` options the request itself does not take. */
function withoutCallOptions(options: CallToolOptions): EraRequestOptions {
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

/** One server's tool calls: what each goes out under, what its result is checked against, and the retries. */
export class ToolCalls {
  readonly #name: string;
  readonly #context: ToolCallsContext;
  readonly #connection: Connection;
  readonly #lists: ServerLists;
  readonly #schemas: ToolSchemas;
  /** The x-mcp-header annotations of each listed tool, read once when the list arrived. */
  readonly #paramAnnotations = new WeakMap<object, readonly ParamHeader[]>();
  /** The output check of a call an InputRequiredError stopped, for the resume (keyed by its continuation). */
  readonly #pendingChecks = new WeakMap<object, OutputCheck>();
  /** tools/list failed when a call looked up its tool's definition (reset when the tools cache is dropped). */
  #toolsUnlisted = false;

  constructor(name: string, context: ToolCallsContext) {
    this.#name = name;
    this.#context = context;
    this.#connection = context.connection;
    this.#lists = context.lists;
    this.#schemas = new ToolSchemas(name, context.logger);
  }

  /** The tools cache was dropped: a list that failed may be asked for again. */
  toolsDropped(): void {
    this.#toolsUnlisted = false;
  }

  call(
    name: string,
    args: Readonly<Record<string, unknown>> | undefined,
    options: CallToolOptions,
  ): Promise<CallToolResult> {
    let mode: StructuredContentValidation;
    let params: JsonRpcParams;
    let fast: OutputCheck | undefined | typeof NOT_NOW;
    try {
      mode =
        checkValidationMode(options.validateStructuredContent, 'validateStructuredContent') ??
        this.#context.validateStructuredContent;
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
   * Takes up a multi round-trip request (MCP 2026-07-28) where an `InputRequiredError` left it: the
   * inputs not yet answered are asked for again (answers already produced are kept), and the request is
   * re-sent with the server's last `requestState`. Resolves with what the original call would have.
   */
  async resume(
    error: InputRequiredError,
    options: EraRequestOptions,
  ): Promise<CallToolResult | GetPromptResult | ResourceContents[]> {
    if (!(error instanceof InputRequiredError))
      throw new TypeError('resumeInputRequired() takes the InputRequiredError a call raised');
    if (!error.resumable)
      throw new TypeError(
        `this InputRequiredError (${error.reason}) cannot be resumed: the server asked for something the client cannot give`,
      );
    const c = error.continuation;
    if (c.server !== this.#name)
      throw new TypeError(`this InputRequiredError belongs to server "${c.server}", not "${this.#name}"`);
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
    if (c.method === 'prompts/get') return readGetPromptResult(raw, this.#name, name);
    const dropped: string[] = [];
    return readContents(raw, this.#name, name, dropped);
  }

  /** Drops tools whose x-mcp-header annotations are invalid (MCP 2026-07-28 requires it over HTTP). */
  screen(kind: ListKindName, items: unknown[], dropped: string[]): unknown[] {
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

  async #callTool(
    name: string,
    params: JsonRpcParams,
    mode: StructuredContentValidation,
    requestOptions: EraRequestOptions,
  ): Promise<CallToolResult> {
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
    requestOptions: EraRequestOptions,
    resume: InputRequiredContinuation | undefined,
    resumeCheck: OutputCheck | undefined,
  ): Promise<{ raw: unknown; check: OutputCheck | undefined }> {
    const mirrors = this.#mirrorsParams();
    let check = resumeCheck;
    const attempt = async (fresh: boolean, from: InputRequiredContinuation | undefined): Promise<unknown> => {
      if (fresh) this.#context.clearTools();
      const definitionNeeded = mirrors || (mode !== 'off' && (resume === undefined || fresh));
      const tool = definitionNeeded ? await this.#definitionFor(name, fresh) : undefined;
      if (resume === undefined || fresh)
        check = mode === 'off' ? undefined : await this.#prepareCheck(name, tool, mode);
      const annotations = mirrors ? this.#paramAnnotations.get(tool ?? {}) : undefined;
      const headers =
        annotations === undefined ? undefined : paramHeaders(annotations, params.arguments as Record<string, unknown>);
      const options: EraCallOptions = from === undefined ? requestOptions : { ...requestOptions, resume: from };
      return this.#connection.request('tools/call', params, headers === undefined ? options : { ...options, headers });
    };
    try {
      try {
        return { raw: await attempt(false, resume), check };
      } catch (error) {
        const retry = mismatchRetry(error, resume);
        if (!mirrors || retry === undefined) throw error;
        this.#context.warn(
          `tools/call "${escapeForLog(name, 100)}" was refused with HeaderMismatch; refreshing tools/list and retrying once`,
        );
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
      this.#context.clearTools();
      found = await this.#toolDefinition(name, true);
    }
    if (found.listed && found.tool === undefined) {
      const listed = (this.#lists.peek('tools') as readonly Tool[] | undefined) ?? [];
      throw new ToolNotFoundError(
        name,
        [this.#name],
        closeNames(
          name,
          listed.map((t) => t.name),
        ),
      );
    }
    return found.tool;
  }

  /** A call that asks for input keeps its check for the continuation's result. */
  #callFailed(error: unknown, check: OutputCheck | undefined): never {
    if (error instanceof InputRequiredError && check !== undefined) this.#pendingChecks.set(error.continuation, check);
    throw error;
  }

  /** The output check for a call under `tool`, or none when the definition is unknown (nothing to check against). */
  #prepareCheck(
    name: string,
    tool: Tool | undefined,
    mode: 'warn' | 'strict',
  ): OutputCheck | undefined | Promise<OutputCheck | undefined> {
    if (tool === undefined) {
      safeLog(
        this.#context.logger,
        'debug',
        `[mcpc] server "${escapeForLog(this.#name, 100)}": tool "${escapeForLog(name, 100)}" is not in its tools/list, so its schemas are not checked`,
      );
      return undefined;
    }
    return this.#schemas.prepare(tool, mode);
  }

  #readCallResult(raw: unknown, name: string, check: OutputCheck | undefined): CallToolResult {
    // MCP 2026-07-28 widened structuredContent to any JSON value; earlier revisions type it as an object.
    const anyJson = this.#connection.isModern;
    const discarded = check === undefined ? undefined : discardedStructuredContent(raw, anyJson);
    const result = readCallToolResult(raw, this.#name, name, anyJson);
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
  async #toolDefinition(
    name: string,
    refetched: boolean,
  ): Promise<{ readonly tool: Tool | undefined; readonly listed: boolean }> {
    const cached = this.#lists.peek('tools') as readonly Tool[] | undefined;
    const hit = cached === undefined ? undefined : byName(cached).get(name);
    if (hit !== undefined || (cached !== undefined && refetched)) return { tool: hit, listed: true };
    // A list that failed is not asked for again on every call: only once the tools cache was dropped.
    if (cached === undefined && this.#toolsUnlisted && !refetched) return { tool: undefined, listed: false };
    try {
      return { tool: byName(await this.#context.listTools()).get(name), listed: true };
    } catch (error) {
      // No list: no headers, no schemas to check; the server will say what it misses.
      this.#toolsUnlisted = true;
      // Without the tools capability the call itself is refused next, which says it all.
      if (!(error instanceof CapabilityError)) {
        const without = this.#mirrorsParams() ? 'no Mcp-Param-* headers, no schema checks' : 'no schema checks';
        this.#context.warn(
          `tools/list failed (${escapeForLog(error instanceof Error ? error.message : String(error), 300)}); tool calls go out without their definitions (${without}) until the list can be fetched`,
        );
      }
      return { tool: undefined, listed: false };
    }
  }
}
