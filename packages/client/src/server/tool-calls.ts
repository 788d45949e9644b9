// The tool-call policy behind `Server`: definition lookup, the unknown-tool rule, output checks, headers, resumes.
//
// Headers: Mcp-Param-* mirroring with its HeaderMismatch retry. Resumes: a multi round-trip request taken up again.
import { escapeForLog, safeLog, type JsonRpcParams } from '@mcpc/jsonrpc';
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
import type { Connection } from './connection.js';
import type { EraCallOptions, EraRequestOptions } from './era.js';
import {
  toolsByName,
  withoutCallOptions,
  type CallToolAsTaskOptions,
  type CallToolOptions,
  type ToolCallsContext,
} from './tool-call-options.js';
import type { ListKindName, ServerLists } from './lists.js';
import { TaskUnsupportedError } from '../tasks/errors.js';
import type { Task, TaskOrigin } from '../tasks/task.js';
import { TASKS_EXTENSION, declaresTasksExtension, isCreateTaskResult } from '../tasks/wire.js';

/** How a call went out: asked to run as a task, and whether it was sent as one (2025-11-25's `task` param). */
interface Sent {
  readonly raw: unknown;
  readonly check: OutputCheck | undefined;
  readonly sentAsTask: boolean;
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

/** `#checkNow`: the check cannot be settled without waiting (connecting, listing, loading the validator). */
const NOT_NOW: unique symbol = Symbol('not now');

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
    const started = performance.now();
    if (fast === NOT_NOW) return this.#callTool(name, params, mode, requestOptions, options, started);
    // The common case — connected, the definition and its validator at hand, no headers to mirror —
    // costs one promise of its own: a call is this client's hot path.
    const check = fast;
    return this.#connection.request('tools/call', params, requestOptions).then(
      (raw) => this.#finishCall({ raw, check, sentAsTask: false }, name, options, started),
      (error: unknown) => this.#callFailed(error, check),
    );
  }

  /**
   * Calls a tool as a task (`callToolAsTask`): on 2025-11-25 with the `task` param, on a server whose
   * `tasks.requests.tools.call` is negotiated and a tool that allows it; on MCP 2026-07-28 declaring the
   * tasks extension on the request, where the server decides — a direct answer comes back as a
   * `completed` handle (`direct`). Resolves with the handle as soon as the task exists.
   */
  async callAsTask(
    name: string,
    args: Readonly<Record<string, unknown>> | undefined,
    options: CallToolAsTaskOptions,
  ): Promise<Task> {
    const mode =
      checkValidationMode(options.validateStructuredContent, 'validateStructuredContent') ??
      this.#context.validateStructuredContent;
    const ttl = options.ttl;
    if (ttl !== undefined && !(Number.isSafeInteger(ttl) && ttl > 0))
      throw new TypeError('callToolAsTask() ttl must be a positive integer number of milliseconds');
    const params = buildCallParams(name, args, options.meta);
    await this.#connection.connect();
    const modern = this.#connection.isModern;
    if (modern && !declaresTasksExtension(this.#connection.facts?.capabilities))
      throw new CapabilityError(this.#name, `extensions["${TASKS_EXTENSION}"]`, 'tools/call');
    if (!modern && !this.#connection.supports('tasks.requests.tools.call'))
      throw new CapabilityError(this.#name, 'tasks.requests.tools.call', 'tools/call');
    if (this.#connection.isModern && ttl !== undefined)
      this.#context.tasks.debug('callToolAsTask ttl is not sent to an MCP 2026-07-28 server: it grants ttlMs itself');
    const sent = await this.#sendCall(name, params, mode, withoutCallOptions(options), undefined, undefined, {
      ttl: ttl ?? null,
    });
    const origin: TaskOrigin = { tool: name, definition: undefined, check: sent.check };
    if (isCreateTaskResult(sent.raw, this.#connection.isModern, sent.sentAsTask))
      return this.#context.tasks.created(sent.raw as Record<string, unknown>, this.#connection.isModern, origin);
    return this.#context.tasks.direct(this.#readCallResult(sent.raw, name, sent.check), origin);
  }

  /** A task's result, read as a `CallToolResult` and checked against the definition its creating call went out under. */
  readTaskResult(raw: unknown, origin: TaskOrigin | undefined): CallToolResult {
    if (origin === undefined)
      safeLog(
        this.#context.logger,
        'debug',
        `[mcpc] server "${escapeForLog(this.#name, 100)}": a task result fetched by bare id is not checked against any outputSchema (an id names no tool)`,
      );
    return this.#readCallResult(raw, origin?.tool ?? '', origin?.check as OutputCheck | undefined);
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
      const started = performance.now();
      const sent = await this.#sendCall(name, c.params as JsonRpcParams, mode, options, c, pending, undefined);
      return this.#finishCall(sent, name, options, started);
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
    if (!this.#connection.ready || this.#mirrorsParams() || this.#legacyTasks()) return NOT_NOW;
    // 'off' reads no definition: nothing is looked up, and the server says whether the tool exists.
    if (mode === 'off') return undefined;
    const cached = this.#lists.peek('tools') as readonly Tool[] | undefined;
    const tool = cached === undefined ? undefined : toolsByName(cached).get(name);
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
    options: CallToolOptions,
    started: number,
  ): Promise<CallToolResult> {
    await this.#connection.connect();
    const sent = await this.#sendCall(name, params, mode, requestOptions, undefined, undefined, undefined);
    return this.#finishCall(sent, name, options, started);
  }

  /**
   * A call's answer as the call's result. One the server turned into a task (the client declared the
   * tasks extension, or the tool requires a task on 2025-11-25) is followed to its end as if the call
   * had answered directly; `timeout`, when the caller gave one, bounds the whole of it.
   */
  #finishCall(
    sent: Sent,
    name: string,
    options: CallToolOptions,
    started: number,
  ): CallToolResult | Promise<CallToolResult> {
    const modern = this.#connection.isModern;
    if (!isCreateTaskResult(sent.raw, modern, sent.sentAsTask)) return this.#readCallResult(sent.raw, name, sent.check);
    const task = this.#context.tasks.created(sent.raw as Record<string, unknown>, modern, {
      tool: name,
      definition: undefined,
      check: sent.check,
    });
    const left = options.timeout === undefined ? undefined : options.timeout - (performance.now() - started);
    return this.#context.follow(task, {
      ...(options.signal !== undefined && { signal: options.signal }),
      ...(left !== undefined && { timeout: Math.max(1, Math.round(left)) }),
      ...(options.onTaskStatus !== undefined && { onStatus: options.onTaskStatus }),
    });
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
    asTask: { readonly ttl: number | null } | undefined,
  ): Promise<Sent> {
    const mirrors = this.#mirrorsParams();
    const legacyTasks = this.#legacyTasks();
    let check = resumeCheck;
    let sentAsTask = false;
    const attempt = async (fresh: boolean, from: InputRequiredContinuation | undefined): Promise<unknown> => {
      if (fresh) this.#context.clearTools();
      const definitionNeeded = mirrors || (mode !== 'off' && (resume === undefined || fresh));
      // A 2025-11-25 server with tasks: the definition says whether the tool requires one. Looked up
      // without refusing an unlisted name when nothing else needs it ('off' checks and refuses nothing).
      const tool = definitionNeeded
        ? await this.#definitionFor(name, fresh)
        : legacyTasks && resume === undefined
          ? (await this.#toolDefinition(name, fresh)).tool
          : undefined;
      if (resume === undefined || fresh)
        check = mode === 'off' ? undefined : await this.#prepareCheck(name, tool, mode);
      const annotations = mirrors ? this.#paramAnnotations.get(tool ?? {}) : undefined;
      const headers =
        annotations === undefined ? undefined : paramHeaders(annotations, params.arguments as Record<string, unknown>);
      let options: EraCallOptions = from === undefined ? requestOptions : { ...requestOptions, resume: from };
      let sent = params;
      if (asTask !== undefined && this.#connection.isModern) options = { ...options, declareTasks: true };
      // 2025-11-25: a task is asked for with the `task` param — when the caller asks, or the tool requires it.
      if (legacyTasks && (asTask !== undefined || tool?.taskSupport === 'required')) {
        if (tool !== undefined && tool.taskSupport === 'forbidden')
          throw new TaskUnsupportedError(
            this.#name,
            'tools/call',
            `tool "${escapeForLog(name, 100)}" may not run as a task (its execution.taskSupport is absent or "forbidden")`,
          );
        sent = { ...params, task: asTask === undefined || asTask.ttl === null ? {} : { ttl: asTask.ttl } };
        sentAsTask = true;
      }
      return this.#connection.request('tools/call', sent, headers === undefined ? options : { ...options, headers });
    };
    try {
      try {
        const raw = await attempt(false, resume);
        return { raw, check, sentAsTask };
      } catch (error) {
        const retry = mismatchRetry(error, resume);
        if (!mirrors || retry === undefined) throw error;
        this.#context.warn(
          `tools/call "${escapeForLog(name, 100)}" was refused with HeaderMismatch; refreshing tools/list and retrying once`,
        );
        // The server's definitions changed under us: hosts hear of it as they would of the server's own notice.
        this.#context.toolsChanged();
        const raw = await attempt(true, retry.from);
        return { raw, check, sentAsTask };
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

  /** Whether the server runs tool calls as tasks when asked (2025-11-25's `tasks.requests.tools.call`). */
  #legacyTasks(): boolean {
    return !this.#connection.isModern && this.#connection.supports('tasks.requests.tools.call');
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
    const hit = cached === undefined ? undefined : toolsByName(cached).get(name);
    if (hit !== undefined || (cached !== undefined && refetched)) return { tool: hit, listed: true };
    // A list that failed is not asked for again on every call: only once the tools cache was dropped.
    if (cached === undefined && this.#toolsUnlisted && !refetched) return { tool: undefined, listed: false };
    try {
      return { tool: toolsByName(await this.#context.listTools()).get(name), listed: true };
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
