// The servers the playground holds: one @mcpc/client Client per entry, connected on its own; roots, logs, raw requests.
import { Client, ErrorReply, stdio, type ServerConfig } from '@mcpc/client';
import { httpConfig } from '@mcpc/client/config';
import { LOGGING_LEVELS } from '@mcpc/client/constants';
import type { ElicitationResult, LoggingLevel } from '@mcpc/client/types';
import type { Frame, LogRecord, RootView, ServerView } from '../contract/api.js';
import { Calls } from './calls.js';
import { captured, capturingDispatcher } from './capture.js';
import type { Dialogs } from './dialogs.js';
import { Entry } from './entry.js';
import type { Emit } from './events.js';
import { ApiError, errorJson, isRecord } from './http.js';
import { derivedName, type ServerSpec } from './specs.js';
import { Timeline } from './timeline.js';

const STDERR_TAIL = 16 * 1024;
/** At most this many roots, as a page could send any number. */
const MAX_ROOTS = 100;

export interface RegistryOptions {
  emit: Emit;
  dialogs: Dialogs;
  verbose?: boolean;
  clientInfo: { name: string; version: string };
}

export class Registry {
  readonly #entries = new Map<string, Entry>();
  /** The roots every server is offered (the host's, so one list for all). */
  #roots: RootView[] = [];
  readonly calls: Calls;
  private readonly emit: Emit;
  private readonly dialogs: Dialogs;
  private readonly verbose: boolean;
  private readonly clientInfo: { name: string; version: string };

  constructor({ emit, dialogs, verbose = false, clientInfo }: RegistryOptions) {
    this.emit = emit;
    this.dialogs = dialogs;
    this.verbose = verbose;
    this.clientInfo = clientInfo;
    this.calls = new Calls(emit);
  }

  // ——— entries ———

  /** Adds a server and connects it in the background (unless it is dormant). */
  add(spec: ServerSpec): Entry {
    const id = this.#uniqueId(spec.name ?? derivedName(spec));
    const timeline = new Timeline(id, (span) => this.emit({ type: 'span', serverId: id, span }));
    const entry = new Entry(id, spec, timeline);
    this.#entries.set(id, entry);
    this.#open(entry);
    return entry;
  }

  get(id: string): Entry {
    const entry = this.#entries.get(id);
    if (entry === undefined) throw new ApiError(404, 'unknown_server', `no server "${id}"`);
    return entry;
  }

  list(): Entry[] {
    return [...this.#entries.values()];
  }

  views(): ServerView[] {
    return this.list().map((e) => e.view());
  }

  async reconnect(entry: Entry): Promise<void> {
    if (entry.phase === 'dormant') entry.phase = 'connecting';
    await this.#shut(entry);
    this.#open(entry);
  }

  async remove(entry: Entry): Promise<void> {
    this.#entries.delete(entry.id);
    await this.#shut(entry);
    await entry.timeline.close();
    this.emit({ type: 'server-removed', id: entry.id });
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled(this.list().map((e) => this.#shut(e)));
  }

  /** Emits a `server` event when what the page would show of the entry changed. */
  refresh(entry: Entry, force = false): void {
    if (!this.#entries.has(entry.id)) return;
    const view = entry.view();
    const text = JSON.stringify(view);
    if (!force && text === entry.lastView) return;
    entry.lastView = text;
    this.emit({ type: 'server', server: view });
  }

  /** A refresh after the current turn (a state that changes with a frame settles first). */
  #queueRefresh(entry: Entry): void {
    if (entry.refreshQueued) return;
    entry.refreshQueued = true;
    setTimeout(() => {
      entry.refreshQueued = false;
      this.refresh(entry);
    }, 10).unref();
  }

  /** A fresh client for the entry, connected in the background. */
  #open(entry: Entry): void {
    const generation = ++entry.generation;
    const current = () => generation === entry.generation;
    const config = captured(this.#config(entry), {
      onOpen: () => this.#queueRefresh(entry),
      onClose: () => this.#queueRefresh(entry),
      onFrame: (dir, message) => {
        let bytes = 0;
        try {
          bytes = Buffer.byteLength(JSON.stringify(message) ?? '');
        } catch {
          // an unserializable message is the client's bug; keep the frame anyway
        }
        const frame: Frame = { seq: ++entry.frameSeq, dir, at: Date.now(), message, bytes };
        entry.frames.push(frame);
        this.emit({ type: 'frame', serverId: entry.id, frame });
        this.#queueRefresh(entry);
      },
    });
    const client = new Client({
      servers: [config],
      clientInfo: this.clientInfo,
      roots: this.#roots,
      logger: this.#logger(entry.id),
      deprecationNotices: false,
      requestTimeout: 300_000,
      extensions: ['io.modelcontextprotocol/tasks'],
      elicitationModes: ['form', 'url'],
      // Its spans go to the entry's timeline (server/timeline.ts), under the playground's span for each call.
      tracing: { tracer: entry.timeline.tracer },
      onElicitation: async (request, { signal }) => {
        entry.timeline.mark('input request', { 'playground.input.kind': 'elicitation' });
        const answer = await this.dialogs.ask('elicitation', entry.id, request, signal);
        entry.timeline.mark('input answered', { 'playground.input.action': answer?.action ?? 'cancel' });
        // The client checks the content against the request's schema before it answers the server.
        return answer === undefined ? { action: 'cancel' } : (answer as ElicitationResult);
      },
      onSampling: async (request, { signal }) => {
        entry.timeline.mark('input request', { 'playground.input.kind': 'sampling' });
        const answer = await this.dialogs.ask('sampling', entry.id, request, signal);
        entry.timeline.mark('input answered', { 'playground.input.action': answer?.action ?? 'reject' });
        if (answer?.action !== 'accept') throw new ErrorReply(-1, 'User rejected sampling request');
        return {
          model: 'playground-user',
          role: 'assistant',
          stopReason: 'endTurn',
          content: { type: 'text', text: answer.text },
        };
      },
    });
    client.onNotification((_server, method, params) => {
      if (current()) this.emit({ type: 'notification', serverId: entry.id, method, params: params ?? {} });
    });
    client.onLog((_server, message) => {
      if (!current()) return;
      const log: LogRecord = {
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
    // In a span of its own: the client's initialize (or server/discover) and what connect asks are its children.
    entry.timeline
      .run('connect', {}, () => client.connect())
      .then(
        () => {
          if (!current()) return;
          entry.phase = 'connected';
          this.refresh(entry);
        },
        (error: unknown) => {
          if (!current()) return;
          entry.phase = 'failed';
          entry.error = errorJson(error);
          this.refresh(entry);
        },
      );
  }

  /** The client config for the entry (its HTTP exchanges captured). */
  #config(entry: Entry): ServerConfig {
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
    return httpConfig(spec.transport ?? 'auto', {
      name: entry.id,
      url: spec.url,
      dispatcher,
      ...(spec.headers !== undefined && { headers: spec.headers }),
      ...(spec.auth !== undefined && { auth: spec.auth }),
    });
  }

  /** Closes the entry's client, its calls and dialogs. */
  async #shut(entry: Entry): Promise<void> {
    entry.generation++;
    this.calls.abortAll(entry);
    this.dialogs.abandon(entry.id);
    const client = entry.client;
    const closeDispatcher = entry.closeDispatcher;
    entry.client = undefined;
    entry.closeDispatcher = undefined;
    await client?.close().catch(() => {});
    await closeDispatcher?.();
  }

  #logger(id: string) {
    const say = (level: string) => (message: unknown) => {
      if (this.verbose) process.stderr.write(`[${id}] ${level}: ${String(message)}\n`);
    };
    return { debug: () => {}, info: say('info'), warn: say('warn'), error: say('error') };
  }

  #uniqueId(name: string): string {
    const base =
      name
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 64) || 'server';
    let id = base;
    for (let n = 2; this.#entries.has(id) && n < 10_000; n++) id = `${base}-${n}`;
    return id;
  }

  // ——— roots, logs, raw requests ———

  roots(): RootView[] {
    return this.#roots.map((r) => ({ ...r }));
  }

  /** Replaces the roots: every open client is told (`notifications/roots/list_changed` where declared). */
  setRoots(roots: unknown): RootView[] {
    if (!Array.isArray(roots)) throw new ApiError(400, 'bad_request', '"roots" must be an array');
    if (roots.length > MAX_ROOTS) throw new ApiError(400, 'bad_request', `at most ${MAX_ROOTS} roots`);
    const checked = (roots as unknown[]).map((r, i): RootView => {
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

  logs(entry: Entry): LogRecord[] {
    return entry.logs.toArray();
  }

  /** The level the server should send from (`logging/setLevel`, or the 2026-07-28 `_meta`). */
  async setLogLevel(entry: Entry, level: unknown): Promise<void> {
    const known = LOGGING_LEVELS.find((l): l is LoggingLevel => l === level);
    if (known === undefined) throw new ApiError(400, 'bad_request', `"level" is one of ${LOGGING_LEVELS.join(', ')}`);
    await this.clientOf(entry).setLogLevel(known, { server: entry.id });
  }

  /**
   * Sends one request as the page wrote it (a replay, or an edit, from the protocol view) and answers with
   * its raw result. The client adds its own `_meta` (revision, capabilities) as on any request.
   */
  async request(entry: Entry, method: unknown, params: unknown): Promise<{ result: unknown }> {
    if (typeof method !== 'string' || method === '')
      throw new ApiError(400, 'bad_request', '"method" (a string) is required');
    if (params !== undefined && !isRecord(params)) throw new ApiError(400, 'bad_request', '"params" must be an object');
    if (method === 'initialize' || method.startsWith('notifications/'))
      throw new ApiError(400, 'bad_request', `"${method}" is the client's own to send`);
    const server = this.clientOf(entry).servers[0];
    if (server === undefined) throw new ApiError(409, 'not_open', `server "${entry.id}" is not open`);
    return { result: await server.request(method, params, { timeout: 60_000 }) };
  }

  /** The entry's client: a 409 when it is closed, or dormant (waiting for a reconnect to sign in). */
  clientOf(entry: Entry): Client {
    if (entry.client === undefined) throw new ApiError(409, 'not_open', `server "${entry.id}" is not open`);
    if (entry.phase === 'dormant')
      throw new ApiError(409, 'not_connected', `server "${entry.id}" is not connected yet: reconnect it to sign in`);
    return entry.client;
  }
}
