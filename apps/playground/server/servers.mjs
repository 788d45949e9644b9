// The servers the playground holds: one @mcpc/client Client per entry, its state, frames, exchanges, calls and tasks.
// @ts-check
import { randomUUID } from 'node:crypto';
import {
  Client,
  ErrorReply,
  StructuredContentError,
  autoHttp,
  http,
  serversFromConfig,
  sse,
  stdio,
  streamableHttp,
} from '@mcpc/client';
import { Ring, RING_SIZE, captured, capturingDispatcher } from './capture.mjs';
import { LOGGING_LEVELS } from '@mcpc/client/constants';
import { ApiError, errorJson } from './http.mjs';

/** @typedef {import('./events.mjs').PlaygroundEvent} PlaygroundEvent */
/** @typedef {import('./capture.mjs').Frame} Frame */
/** @typedef {import('./capture.mjs').Exchange} Exchange */
/** @typedef {import('@mcpc/client').Task} Task */
/** @typedef {import('@mcpc/client').AuthProvider} AuthProvider */

/**
 * @typedef {{ kind: 'stdio', name?: string, command: string, args?: string[], env?: Record<string, string>, cwd?: string }} StdioSpec
 * @typedef {{ kind: 'url', name?: string, url: string, transport?: 'auto' | 'streamable-http' | 'http' | 'sse',
 *   headers?: Record<string, string>, auth?: AuthProvider, dormant?: boolean }} UrlSpec
 * @typedef {StdioSpec | UrlSpec} ServerSpec
 * @typedef {{ id: string, name: string, kind: 'stdio' | 'url', target: string,
 *   state: 'connecting' | 'connected' | 'failed' | 'closed', era?: 'modern' | 'legacy', protocolVersion?: string,
 *   transport?: string, serverInfo?: unknown, capabilities?: unknown, instructions?: string,
 *   error?: { code: string, message: string } }} ServerView
 * @typedef {{ taskId: string, status: string, statusMessage?: string, tool: string, callId: string, handle: Task }} TaskRecord
 * @typedef {{ callId: string, entry: Entry, controller: AbortController, task?: Task }} CallRecord
 * @typedef {{ seq: number, at: number, level: string, logger?: string, data: unknown }} LogRecord
 * @typedef {{ uri: string, name?: string }} RootSpec
 */

const STDERR_TAIL = 16 * 1024;
const TASK_RECORDS = 500;
/** Log messages kept per server (the page's log panel reads them back after a reload). */
const LOG_RECORDS = 1_000;
/** At most this many roots, as a page could send any number. */
const MAX_ROOTS = 100;

class Entry {
  /** @param {string} id @param {ServerSpec} spec */
  constructor(id, spec) {
    this.id = id;
    this.spec = spec;
    this.kind = spec.kind;
    this.target = spec.kind === 'stdio' ? [spec.command, ...(spec.args ?? [])].map(quote).join(' ') : spec.url;
    /** @type {Client | undefined} */
    this.client = undefined;
    this.generation = 0;
    /** @type {'connecting' | 'connected' | 'failed' | 'dormant'} */
    this.phase = spec.kind === 'url' && spec.dormant === true ? 'dormant' : 'connecting';
    /** @type {{ code: string, message: string } | undefined} */
    this.error = undefined;
    /** @type {Ring<Frame>} */
    this.frames = new Ring(RING_SIZE);
    /** @type {Ring<Exchange>} */
    this.exchanges = new Ring(RING_SIZE);
    this.frameSeq = 0;
    this.httpSeq = 0;
    /** @type {(() => Promise<void>) | undefined} */
    this.closeDispatcher = undefined;
    /** @type {Map<string, TaskRecord>} */
    this.tasks = new Map();
    /** @type {Ring<LogRecord>} */
    this.logs = new Ring(LOG_RECORDS);
    this.logSeq = 0;
    this.stderr = '';
    this.lastView = '';
    this.refreshQueued = false;
  }

  get server() {
    return this.client?.servers[0];
  }
}

export class Registry {
  /** @type {Map<string, Entry>} */
  #entries = new Map();
  /** @type {Map<string, CallRecord>} */
  #calls = new Map();
  /** The roots every server is offered (the host's, so one list for all). @type {RootSpec[]} */
  #roots = [];

  /**
   * @param {{ emit: (event: PlaygroundEvent) => void, dialogs: import('./dialogs.mjs').Dialogs,
   *   verbose?: boolean, clientInfo: { name: string, version: string } }} options
   */
  constructor({ emit, dialogs, verbose = false, clientInfo }) {
    this.emit = emit;
    this.dialogs = dialogs;
    this.verbose = verbose;
    this.clientInfo = clientInfo;
  }

  // ——— entries ———

  /** Adds a server and connects it in the background (unless it is dormant). @param {ServerSpec} spec */
  add(spec) {
    const id = this.#uniqueId(spec.name ?? derivedName(spec));
    const entry = new Entry(id, spec);
    this.#entries.set(id, entry);
    this.#open(entry);
    return entry;
  }

  /** The entries a `{ kind: 'config', document }` body names (an `mcpServers` document). @param {unknown} document */
  addConfig(document) {
    const doc = typeof document === 'string' ? parseJson(document) : document;
    try {
      serversFromConfig(/** @type {any} */ (doc)); // the client's own check of every entry
    } catch (error) {
      throw new ApiError(400, 'bad_config', error instanceof Error ? error.message : String(error));
    }
    const servers = /** @type {{ mcpServers?: Record<string, any> }} */ (doc).mcpServers ?? {};
    /** @type {ServerSpec[]} */
    const specs = Object.entries(servers).map(([name, e]) =>
      typeof e.command === 'string'
        ? {
            kind: 'stdio',
            name,
            command: e.command,
            ...(Array.isArray(e.args) && { args: e.args.map(String) }),
            ...(isRecord(e.env) && { env: stringRecord(e.env) }),
            ...(typeof e.cwd === 'string' && { cwd: e.cwd }),
          }
        : {
            kind: 'url',
            name,
            url: String(e.url),
            transport: e.type === 'sse' ? 'sse' : e.type === 'http' ? 'http' : 'streamable-http',
            ...(isRecord(e.headers) && { headers: stringRecord(e.headers) }),
          },
    );
    return specs.map((s) => this.add(s));
  }

  /** @param {string} id */
  get(id) {
    const entry = this.#entries.get(id);
    if (entry === undefined) throw new ApiError(404, 'unknown_server', `no server "${id}"`);
    return entry;
  }

  list() {
    return [...this.#entries.values()];
  }

  /** @param {Entry} entry */
  async reconnect(entry) {
    if (entry.phase === 'dormant') entry.phase = 'connecting';
    await this.#shut(entry);
    this.#open(entry);
  }

  /** @param {Entry} entry */
  async remove(entry) {
    this.#entries.delete(entry.id);
    await this.#shut(entry);
    this.emit({ type: 'server-removed', id: entry.id });
  }

  async closeAll() {
    await Promise.allSettled(this.list().map((e) => this.#shut(e)));
  }

  /** @param {Entry} entry @returns {ServerView} */
  view(entry) {
    const server = entry.server;
    const live = server?.state;
    /** @type {ServerView['state']} */
    const state =
      entry.phase === 'dormant'
        ? 'closed'
        : live === 'connected'
          ? 'connected'
          : entry.phase === 'failed'
            ? 'failed'
            : entry.phase === 'connecting' || live === 'connecting'
              ? 'connecting'
              : 'closed';
    /** @type {ServerView} */
    const view = { id: entry.id, name: entry.id, kind: entry.kind, target: entry.target, state };
    if (server !== undefined && live === 'connected') {
      try {
        if (server.protocolEra !== undefined) view.era = server.protocolEra;
        view.protocolVersion = server.protocolVersion;
        if (server.transportKind !== undefined) view.transport = server.transportKind;
        view.serverInfo = server.serverInfo;
        view.capabilities = server.capabilities;
        if (server.instructions !== undefined) view.instructions = server.instructions;
      } catch {
        // not connected after all (a race with a close): the state says so on the next refresh
      }
    }
    if (state === 'failed' && entry.error !== undefined) view.error = entry.error;
    return view;
  }

  /** Emits a `server` event when what the page would show of the entry changed. @param {Entry} entry */
  refresh(entry, force = false) {
    if (!this.#entries.has(entry.id)) return;
    const view = this.view(entry);
    const text = JSON.stringify(view);
    if (!force && text === entry.lastView) return;
    entry.lastView = text;
    this.emit({ type: 'server', server: view });
  }

  /** A refresh after the current turn (a state that changes with a frame settles first). @param {Entry} entry */
  #queueRefresh(entry) {
    if (entry.refreshQueued) return;
    entry.refreshQueued = true;
    setTimeout(() => {
      entry.refreshQueued = false;
      this.refresh(entry);
    }, 10).unref();
  }

  /** A fresh client for the entry, connected in the background. @param {Entry} entry */
  #open(entry) {
    const generation = ++entry.generation;
    const current = () => generation === entry.generation;
    const hooks = {
      onOpen: () => this.#queueRefresh(entry),
      onClose: () => this.#queueRefresh(entry),
      onFrame: (/** @type {'in' | 'out'} */ dir, /** @type {unknown} */ message) => {
        let bytes = 0;
        try {
          bytes = Buffer.byteLength(JSON.stringify(message) ?? '');
        } catch {
          // an unserializable message is the client's bug; keep the frame anyway
        }
        /** @type {Frame} */
        const frame = { seq: ++entry.frameSeq, dir, at: Date.now(), message, bytes };
        entry.frames.push(frame);
        this.emit({ type: 'frame', serverId: entry.id, frame });
        this.#queueRefresh(entry);
      },
    };
    const config = captured(this.#config(entry), hooks);
    const client = new Client({
      servers: [config],
      clientInfo: this.clientInfo,
      roots: this.#roots,
      logger: this.#logger(entry.id),
      deprecationNotices: false,
      requestTimeout: 300_000,
      extensions: ['io.modelcontextprotocol/tasks'],
      elicitationModes: ['form', 'url'],
      onElicitation: async (request, { signal }) => {
        const answer = await this.dialogs.ask('elicitation', entry.id, request, signal);
        return answer === undefined ? { action: 'cancel' } : /** @type {any} */ (answer);
      },
      onSampling: async (request, { signal }) => {
        const answer = /** @type {{ action?: string, text?: string } | undefined} */ (
          await this.dialogs.ask('sampling', entry.id, request, signal)
        );
        if (answer?.action !== 'accept') throw new ErrorReply(-1, 'User rejected sampling request');
        return {
          model: 'playground-user',
          role: 'assistant',
          stopReason: 'endTurn',
          content: { type: 'text', text: String(answer.text ?? '') },
        };
      },
    });
    client.onNotification((_server, method, params) => {
      if (current()) this.emit({ type: 'notification', serverId: entry.id, method, params: params ?? {} });
    });
    client.onLog((_server, message) => {
      if (!current()) return;
      /** @type {LogRecord} */
      const log = {
        seq: ++entry.logSeq,
        at: Date.now(),
        level: message.level,
        ...(message.logger !== undefined && { logger: message.logger }),
        data: message.data,
      };
      entry.logs.push(log);
      this.emit({ type: 'log', serverId: entry.id, log });
    });
    entry.client = client;
    entry.error = undefined;
    if (entry.phase === 'dormant') {
      this.refresh(entry, true);
      return;
    }
    entry.phase = 'connecting';
    this.refresh(entry, true);
    client.connect().then(
      () => {
        if (!current()) return;
        entry.phase = 'connected';
        this.refresh(entry);
      },
      (/** @type {unknown} */ error) => {
        if (!current()) return;
        entry.phase = 'failed';
        entry.error = errorJson(error);
        this.refresh(entry);
      },
    );
  }

  /** The client config for the entry (its HTTP exchanges captured). @param {Entry} entry */
  #config(entry) {
    const spec = entry.spec;
    if (spec.kind === 'stdio') {
      return stdio({
        name: entry.id,
        command: spec.command,
        ...(spec.args !== undefined && { args: spec.args }),
        ...(spec.env !== undefined && { env: spec.env }),
        ...(spec.cwd !== undefined && { cwd: spec.cwd }),
        onStderr: (chunk) => {
          entry.stderr = (entry.stderr + chunk).slice(-STDERR_TAIL);
          if (this.verbose) process.stderr.write(`[${entry.id}] ${chunk}`);
        },
      });
    }
    const { dispatcher, close } = capturingDispatcher(
      (exchange) => {
        const known = entry.exchanges.find((e) => e.seq === exchange.seq);
        if (known !== undefined) Object.assign(known, exchange);
        else entry.exchanges.push(exchange);
        this.emit({ type: 'http', serverId: entry.id, exchange });
      },
      () => ++entry.httpSeq,
    );
    entry.closeDispatcher = close;
    const options = {
      name: entry.id,
      url: spec.url,
      dispatcher: /** @type {any} */ (dispatcher),
      ...(spec.headers !== undefined && { headers: spec.headers }),
      ...(spec.auth !== undefined && { auth: spec.auth }),
    };
    switch (spec.transport ?? 'auto') {
      case 'streamable-http':
        return streamableHttp(options);
      case 'http':
        return http(options);
      case 'sse':
        return sse(options);
      default:
        return autoHttp(options);
    }
  }

  /** Closes the entry's client, its calls and dialogs. @param {Entry} entry */
  async #shut(entry) {
    entry.generation++;
    for (const call of [...this.#calls.values()]) if (call.entry === entry) call.controller.abort(new Error('closed'));
    this.dialogs.abandon(entry.id);
    const client = entry.client;
    const closeDispatcher = entry.closeDispatcher;
    entry.client = undefined;
    entry.closeDispatcher = undefined;
    await client?.close().catch(() => {});
    await closeDispatcher?.();
  }

  /** @param {string} id */
  #logger(id) {
    const say = (/** @type {string} */ level) => (/** @type {unknown} */ message) => {
      if (this.verbose) process.stderr.write(`[${id}] ${level}: ${String(message)}\n`);
    };
    return { debug: () => {}, info: say('info'), warn: say('warn'), error: say('error') };
  }

  /** @param {string} name */
  #uniqueId(name) {
    const base =
      name
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 64) || 'server';
    let id = base;
    for (let n = 2; this.#entries.has(id) && n < 10_000; n++) id = `${base}-${n}`;
    return id;
  }

  // ——— roots and logs ———

  roots() {
    return this.#roots.map((r) => ({ ...r }));
  }

  /**
   * Replaces the roots: every open client is told (`notifications/roots/list_changed` where declared).
   * @param {unknown} roots
   */
  setRoots(roots) {
    if (!Array.isArray(roots)) throw new ApiError(400, 'bad_request', '"roots" must be an array');
    if (roots.length > MAX_ROOTS) throw new ApiError(400, 'bad_request', `at most ${MAX_ROOTS} roots`);
    /** @type {RootSpec[]} */
    const checked = roots.map((r, i) => {
      if (!isRecord(r) || typeof r.uri !== 'string')
        throw new ApiError(400, 'bad_request', `roots[${i}] needs a "uri" (a string)`);
      if (!r.uri.startsWith('file://'))
        throw new ApiError(400, 'bad_request', `roots[${i}].uri must be a file:// URI (MCP roots are)`);
      if (r.name !== undefined && typeof r.name !== 'string')
        throw new ApiError(400, 'bad_request', `roots[${i}].name must be a string`);
      return { uri: r.uri, ...(typeof r.name === 'string' && r.name !== '' && { name: r.name }) };
    });
    for (const entry of this.#entries.values()) {
      if (entry.client === undefined) continue;
      try {
        entry.client.roots = checked;
      } catch (error) {
        throw new ApiError(400, 'bad_roots', error instanceof Error ? error.message : String(error));
      }
    }
    this.#roots = checked;
    this.emit({ type: 'roots', roots: this.roots() });
    return this.roots();
  }

  /** @param {Entry} entry */
  logs(entry) {
    return entry.logs.toArray();
  }

  /** The level the server should send from (`logging/setLevel`, or the 2026-07-28 `_meta`). @param {Entry} entry @param {unknown} level */
  async setLogLevel(entry, level) {
    if (typeof level !== 'string' || !(/** @type {readonly string[]} */ (LOGGING_LEVELS).includes(level)))
      throw new ApiError(400, 'bad_request', `"level" is one of ${LOGGING_LEVELS.join(', ')}`);
    await this.#client(entry).setLogLevel(/** @type {any} */ (level), { server: entry.id });
  }

  /**
   * Sends one request as the page wrote it (a replay, or an edit, from the protocol view) and answers with
   * its raw result. The client adds its own `_meta` (revision, capabilities) as on any request.
   * @param {Entry} entry @param {unknown} method @param {unknown} params
   */
  async request(entry, method, params) {
    if (typeof method !== 'string' || method === '')
      throw new ApiError(400, 'bad_request', '"method" (a string) is required');
    if (params !== undefined && !isRecord(params)) throw new ApiError(400, 'bad_request', '"params" must be an object');
    if (method === 'initialize' || method.startsWith('notifications/'))
      throw new ApiError(400, 'bad_request', `"${method}" is the client's own to send`);
    const client = this.#client(entry);
    const server = client.servers[0];
    if (server === undefined) throw new ApiError(409, 'not_open', `server "${entry.id}" is not open`);
    return { result: await server.request(method, /** @type {any} */ (params), { timeout: 60_000 }) };
  }

  // ——— calls and tasks ———

  /**
   * Starts a tool call; progress, task and result arrive as events.
   * @param {Entry} entry @param {{ tool: string, arguments?: Record<string, unknown>, asTask?: boolean }} body
   */
  call(entry, body) {
    const client = this.#client(entry);
    const callId = randomUUID();
    const controller = new AbortController();
    /** @type {CallRecord} */
    const call = { callId, entry, controller };
    this.#calls.set(callId, call);
    const signal = controller.signal;
    const onProgress = (/** @type {{ progress: number, total?: number, message?: string }} */ p) =>
      this.emit({
        type: 'progress',
        callId,
        progress: p.progress,
        ...(p.total !== undefined && { total: p.total }),
        ...(p.message !== undefined && { message: p.message }),
      });
    const onTask = (/** @type {Task} */ task) => {
      call.task = task;
      this.#recordTask(entry, task, callId, body.tool);
    };
    const args = body.arguments ?? {};
    void (async () => {
      try {
        let result;
        if (body.asTask === true) {
          let task = await client.callToolAsTask(body.tool, args, {
            signal,
            onProgress,
            validateStructuredContent: 'strict',
          });
          onTask(task);
          if (!task.terminal) task = await client.waitForTask(task, { signal, onStatus: onTask });
          onTask(task);
          if (task.status === 'completed') result = task.result;
          else if (task.status === 'failed')
            throw Object.assign(new Error(task.error?.message ?? 'the task failed'), { code: 'MCPC_TASK_FAILED' });
          else throw Object.assign(new Error('the task was cancelled'), { code: 'MCPC_TASK_CANCELLED' });
        } else {
          result = await client.callTool(body.tool, args, {
            signal,
            onProgress,
            resetTimeoutOnProgress: true,
            onTaskStatus: onTask,
            // Strict, so the client's verdict on the output schema comes back with the result: the page
            // shows it rather than checking the result again.
            validateStructuredContent: 'strict',
          });
        }
        this.emit({ type: 'result', callId, result, output: { valid: true, issues: [] } });
      } catch (error) {
        if (error instanceof StructuredContentError) {
          // The client found the output breaking its schema (or could not decide): the result, with why.
          const issues = error.errors.map((e) => ({
            instancePath: e.instancePath,
            keyword: e.keyword,
            schemaPath: e.schemaPath,
            message: e.message,
          }));
          const valid = error.reason === 'undecided' ? null : false;
          this.emit({ type: 'result', callId, result: error.result, output: { valid, reason: error.reason, issues } });
          return;
        }
        const failure = errorJson(error);
        // A task whose ttl ran out (while a dialog was open, or while polling) is over for the page: it says
        // "expired", not the input_required it was last seen in, and cannot be cancelled any more.
        if (failure.code === 'MCPC_TASK_EXPIRED' && call.task !== undefined && !call.task.terminal)
          this.#recordTask(entry, call.task, callId, body.tool, {
            status: 'expired',
            statusMessage: 'its ttl passed before it ended',
          });
        this.emit({ type: 'result', callId, error: failure });
      } finally {
        this.#calls.delete(callId);
      }
    })();
    return callId;
  }

  /** @param {string} callId */
  async cancelCall(callId) {
    const call = this.#calls.get(callId);
    if (call === undefined) throw new ApiError(404, 'unknown_call', `no call "${callId}" in flight`);
    const { task, entry } = call;
    if (task !== undefined && !task.terminal && entry.client !== undefined) {
      // A task outlives an aborted wait: cancel it on the server first (tasks/cancel).
      const cancelled = await entry.client.cancelTask(task).catch(() => undefined);
      if (cancelled !== undefined) this.#recordTask(entry, cancelled, callId, task.tool ?? '');
    }
    call.controller.abort(new Error('cancelled from the playground'));
  }

  /** @param {Entry} entry */
  tasks(entry) {
    return [...entry.tasks.values()].map(({ handle: _h, ...rest }) => rest);
  }

  /** @param {Entry} entry @param {string} taskId */
  async cancelTask(entry, taskId) {
    const record = entry.tasks.get(taskId);
    if (record === undefined) throw new ApiError(404, 'unknown_task', `no task "${taskId}" created here`);
    const task = await this.#client(entry).cancelTask(record.handle);
    this.#recordTask(entry, task, record.callId, record.tool);
    return task.toJSON();
  }

  /**
   * @param {Entry} entry @param {Task} task @param {string} callId @param {string} tool
   * @param {{ status: string, statusMessage: string }} [shown] what the page shows instead of the task's own status
   */
  #recordTask(entry, task, callId, tool, shown) {
    const status = shown?.status ?? task.status;
    const statusMessage = shown?.statusMessage ?? task.statusMessage;
    entry.tasks.delete(task.taskId);
    entry.tasks.set(task.taskId, {
      taskId: task.taskId,
      status,
      ...(statusMessage !== undefined && { statusMessage }),
      tool: task.tool ?? tool,
      callId,
      handle: task,
    });
    while (entry.tasks.size > TASK_RECORDS) {
      const oldest = entry.tasks.keys().next().value;
      if (oldest === undefined) break;
      entry.tasks.delete(oldest);
    }
    this.emit({ type: 'task', callId, serverId: entry.id, task: { ...task.toJSON(), ...shown } });
  }

  /** @param {Entry} entry */
  #client(entry) {
    if (entry.client === undefined) throw new ApiError(409, 'not_open', `server "${entry.id}" is not open`);
    if (entry.phase === 'dormant')
      throw new ApiError(409, 'not_connected', `server "${entry.id}" is not connected yet: reconnect it to sign in`);
    return entry.client;
  }

  /** The entry's client, for the routes. @param {Entry} entry */
  clientOf(entry) {
    return this.#client(entry);
  }
}

/** A name for a spec that gives none: the script a command runs, or a URL's host. @param {ServerSpec} spec */
function derivedName(spec) {
  if (spec.kind === 'url') {
    try {
      return new URL(spec.url).host.replace(':', '-');
    } catch {
      return 'server';
    }
  }
  const words = [spec.command, ...(spec.args ?? [])].filter((w) => !w.startsWith('-'));
  const pick = words.find((w, i) => i > 0 && (/[@/]/.test(w) || /\.(m?js|cjs|py|ts)$/.test(w))) ?? words[0] ?? 'server';
  return pick
    .replace(/\/(dist|build|src)\/(index|main|server|cli)\.(m?js|cjs|ts)$/, '')
    .replace(/^.*\//, '')
    .replace(/\.(m?js|cjs|py|ts)$/, '');
}

function quote(/** @type {string} */ word) {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function isRecord(/** @type {unknown} */ v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** @param {Record<string, unknown>} record @returns {Record<string, string>} */
function stringRecord(record) {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, String(v)]));
}

function parseJson(/** @type {string} */ text) {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, 'bad_config', `the config document is not JSON: ${/** @type {Error} */ (error).message}`);
  }
}
