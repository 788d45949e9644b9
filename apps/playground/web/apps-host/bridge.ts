// MCP Apps host bridge: the host side of the apps JSON-RPC dialect over postMessage with one sandboxed View iframe.

/** Protocol version of the MCP Apps extension this host speaks (SEP-1865, stable 2026-01-26). */
export const APPS_PROTOCOL_VERSION = '2026-01-26';

/** Largest message accepted from the View (serialized JSON, UTF-16 code units). */
export const MAX_MESSAGE_CHARS = 1_000_000;
const MAX_METHOD_CHARS = 200;
const MAX_PENDING_FROM_VIEW = 16;
const MAX_QUEUED_TO_VIEW = 64;
const HOST_REQUEST_TIMEOUT_MS = 3_000;

export type JsonObject = Record<string, unknown>;
export type RequestId = string | number;

/** JSON-RPC error codes used here. */
export const RpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Implementation-defined (the spec's examples use it for denials). */
  Denied: -32000,
} as const;

/** Thrown by handlers to answer with a specific JSON-RPC error. */
export class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export interface LogEntry {
  seq: number;
  at: number;
  /** `in`: View → host; `out`: host → View; `note`: something the host did or refused. */
  dir: 'in' | 'out' | 'note';
  /** Method, `response #id`, or a short label. */
  label: string;
  /** The message (or a note's detail), for display. */
  body?: unknown;
}

/** What the host does for the View's requests; the bridge does the protocol, these do the work. */
export interface BridgeHandlers {
  callTool(name: string, args: JsonObject): Promise<unknown>;
  readResource(uri: string): Promise<unknown>;
  openLink(url: string): Promise<void>;
  downloadFile(contents: unknown[]): Promise<JsonObject>;
  message(params: JsonObject): Promise<void>;
  updateModelContext(params: JsonObject): Promise<void>;
  /** `ui/notifications/size-changed` (already validated: finite, non-negative). */
  sizeChanged(size: { width?: number; height?: number }): void;
  /** `ui/notifications/request-teardown`. */
  requestTeardown(): void;
  /** The View finished the handshake (`ui/notifications/initialized`). */
  initialized(appInfo: unknown): void;
}

export interface BridgeOptions {
  /** The sandbox proxy's frame (server/sandbox.ts), which holds the View in a frame of its own. */
  frame: HTMLIFrameElement;
  /** The sandbox proxy's origin: the only origin messages are taken from, and the only one they are sent to. */
  origin: string;
  /** The proxy's own notifications (`ui/notifications/sandbox-*`): ready for the View's HTML, the View navigated away. */
  onSandbox: (method: 'ui/notifications/sandbox-proxy-ready' | 'ui/notifications/sandbox-view-navigated') => void;
  hostInfo: { name: string; version: string };
  hostCapabilities: JsonObject;
  hostContext: () => JsonObject;
  handlers: BridgeHandlers;
  log: (entry: Omit<LogEntry, 'seq' | 'at'>) => void;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isId(v: unknown): v is RequestId {
  return (typeof v === 'string' && v.length <= 200) || (typeof v === 'number' && Number.isFinite(v));
}

/**
 * One bridge per View instance. It only accepts messages whose `source` is the sandbox proxy's frame and whose origin
 * is the proxy's (the proxy relays the View's, from its inner opaque-origin frame), copies each through JSON (size-bounded, so nothing
 * but plain data gets through), checks the JSON-RPC shape, and answers every request exactly once. Nothing the View
 * sends is ever evaluated. Host → View messages wait until `ui/notifications/initialized`, as the spec requires.
 */
export class AppHostBridge {
  private readonly opts: BridgeOptions;
  private ready = false;
  private disposed = false;
  private tornDown = false;
  private readonly queue: JsonObject[] = [];
  private readonly pendingHost = new Map<RequestId, Pending>();
  private pendingFromView = 0;
  private appInfo: unknown;
  private nextId = 1;
  private readonly listener = (ev: MessageEvent): void => this.onMessage(ev);

  constructor(opts: BridgeOptions) {
    this.opts = opts;
  }

  start(): void {
    window.addEventListener('message', this.listener);
  }

  get initialized(): boolean {
    return this.ready;
  }

  /** Stop listening; pending host requests fail. Safe to call twice. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    window.removeEventListener('message', this.listener);
    for (const [, p] of this.pendingHost) {
      clearTimeout(p.timer);
      p.reject(new Error('bridge closed'));
    }
    this.pendingHost.clear();
    this.queue.length = 0;
  }

  /* ---------- host → View ---------- */

  /** `ui/notifications/tool-input`: the complete arguments (sent once, before the result). */
  sendToolInput(args: unknown): void {
    this.notify('ui/notifications/tool-input', { arguments: isObject(args) ? args : {} });
  }

  /** `ui/notifications/tool-result`: a CallToolResult. */
  sendToolResult(result: JsonObject): void {
    this.notify('ui/notifications/tool-result', result);
  }

  /** `ui/notifications/tool-cancelled`. */
  sendToolCancelled(reason: string): void {
    this.notify('ui/notifications/tool-cancelled', { reason });
  }

  /** `ui/notifications/host-context-changed` (partial context). */
  sendHostContextChanged(partial: JsonObject): void {
    this.notify('ui/notifications/host-context-changed', partial);
  }

  /** `ui/resource-teardown`, waiting (bounded) for the View's answer. Resolves either way. */
  async teardown(reason: string): Promise<void> {
    if (!this.ready || this.disposed || this.tornDown) return;
    this.tornDown = true;
    try {
      await this.request('ui/resource-teardown', { reason }, HOST_REQUEST_TIMEOUT_MS);
    } catch (err) {
      this.opts.log({ dir: 'note', label: 'teardown not acknowledged', body: String((err as Error).message) });
    }
  }

  private notify(method: string, params: JsonObject): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  private request(method: string, params: JsonObject, timeoutMs: number): Promise<unknown> {
    const id = `host-${this.nextId++}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pendingHost.delete(id);
        reject(new Error(`${method}: no answer in ${timeoutMs} ms`));
      }, timeoutMs);
      this.pendingHost.set(id, { resolve, reject, timer });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  private send(msg: JsonObject): void {
    if (this.disposed) return;
    if (!this.ready && msg.id === undefined && typeof msg.method === 'string') {
      if (this.queue.length >= MAX_QUEUED_TO_VIEW) this.queue.shift();
      this.queue.push(msg);
      return;
    }
    this.post(msg);
  }

  private post(msg: JsonObject): void {
    const win = this.opts.frame.contentWindow;
    if (!win) return;
    this.opts.log({ dir: 'out', label: labelOf(msg), body: msg });
    // To the proxy's origin only: the proxy relays to the View, whose own origin is opaque.
    win.postMessage(msg, this.opts.origin);
  }

  /** Hands the proxy the View's HTML (`ui/notifications/sandbox-resource-ready`), ahead of the View's handshake. */
  loadView(html: string, csp: JsonObject): void {
    if (this.disposed) return;
    this.post({
      jsonrpc: '2.0',
      method: 'ui/notifications/sandbox-resource-ready',
      params: { html, sandbox: 'allow-scripts', csp },
    });
  }

  private respond(id: RequestId, result: unknown): void {
    this.post({ jsonrpc: '2.0', id, result: isObject(result) ? result : {} });
  }

  private respondError(id: RequestId, code: number, message: string, data?: unknown): void {
    const error: JsonObject = { code, message };
    if (data !== undefined) error.data = data;
    this.post({ jsonrpc: '2.0', id, error });
  }

  /* ---------- View → host ---------- */

  private onMessage(ev: MessageEvent): void {
    if (this.disposed) return;
    const win = this.opts.frame.contentWindow;
    // Only this View: other frames, extensions and the page itself are ignored without a word.
    if (!win || ev.source !== win) return;
    if (ev.origin !== this.opts.origin) {
      this.opts.log({ dir: 'note', label: 'dropped: unexpected origin', body: ev.origin });
      return;
    }
    let text: string | undefined;
    try {
      text = JSON.stringify(ev.data);
    } catch {
      text = undefined;
    }
    if (text === undefined) {
      this.opts.log({ dir: 'note', label: 'dropped: not JSON data' });
      return;
    }
    if (text.length > MAX_MESSAGE_CHARS) {
      this.opts.log({ dir: 'note', label: `dropped: ${text.length} chars > ${MAX_MESSAGE_CHARS}` });
      const id = isObject(ev.data) ? (ev.data as JsonObject).id : undefined;
      if (isId(id)) this.respondError(id, RpcCode.InvalidRequest, 'message too large');
      return;
    }
    const msg: unknown = JSON.parse(text);
    if (!isObject(msg) || msg.jsonrpc !== '2.0') {
      this.opts.log({ dir: 'note', label: 'dropped: not JSON-RPC 2.0', body: msg });
      const id = isObject(msg) ? msg.id : undefined;
      if (isId(id) && isObject(msg) && typeof msg.method === 'string') {
        this.respondError(id, RpcCode.InvalidRequest, 'jsonrpc must be "2.0"');
      }
      return;
    }
    this.opts.log({ dir: 'in', label: labelOf(msg), body: msg });

    if (typeof msg.method === 'string') {
      if (msg.method.length === 0 || msg.method.length > MAX_METHOD_CHARS) {
        if (isId(msg.id)) this.respondError(msg.id, RpcCode.InvalidRequest, 'bad method');
        return;
      }
      if (msg.params !== undefined && !isObject(msg.params)) {
        if (isId(msg.id)) this.respondError(msg.id, RpcCode.InvalidParams, 'params must be an object');
        return;
      }
      const params = (msg.params ?? {}) as JsonObject;
      if (
        msg.id === undefined &&
        (msg.method === 'ui/notifications/sandbox-proxy-ready' ||
          msg.method === 'ui/notifications/sandbox-view-navigated')
      ) {
        this.opts.onSandbox(msg.method);
        return;
      }
      if (msg.id === undefined) {
        this.onNotification(msg.method, params);
      } else if (isId(msg.id)) {
        void this.onRequest(msg.id, msg.method, params);
      } else {
        this.opts.log({ dir: 'note', label: 'dropped: bad id' });
      }
      return;
    }

    if (isId(msg.id) && ('result' in msg || 'error' in msg)) {
      const p = this.pendingHost.get(msg.id);
      if (!p) {
        this.opts.log({ dir: 'note', label: `unmatched response ${String(msg.id)}` });
        return;
      }
      this.pendingHost.delete(msg.id);
      clearTimeout(p.timer);
      if (isObject(msg.error)) p.reject(new Error(String(msg.error.message ?? 'error')));
      else p.resolve(msg.result);
      return;
    }
    this.opts.log({ dir: 'note', label: 'dropped: neither request, notification nor response' });
  }

  private onNotification(method: string, params: JsonObject): void {
    const h = this.opts.handlers;
    switch (method) {
      case 'ui/notifications/initialized': {
        if (this.ready) return;
        this.ready = true;
        h.initialized(this.appInfo);
        const queued = this.queue.splice(0);
        for (const m of queued) this.post(m);
        return;
      }
      case 'ui/notifications/size-changed': {
        const size: { width?: number; height?: number } = {};
        for (const k of ['width', 'height'] as const) {
          const v = params[k];
          if (typeof v === 'number' && Number.isFinite(v) && v >= 0) size[k] = v;
        }
        h.sizeChanged(size);
        return;
      }
      case 'ui/notifications/request-teardown':
        h.requestTeardown();
        return;
      case 'notifications/message':
        // Logging: the entry in the message log is the record.
        return;
      default:
        this.opts.log({ dir: 'note', label: `ignored notification ${method}` });
    }
  }

  private async onRequest(id: RequestId, method: string, params: JsonObject): Promise<void> {
    if (this.pendingFromView >= MAX_PENDING_FROM_VIEW) {
      this.respondError(id, RpcCode.Denied, `too many requests in flight (max ${MAX_PENDING_FROM_VIEW})`);
      return;
    }
    this.pendingFromView++;
    try {
      const result = await this.handle(method, params);
      if (!this.disposed) this.respond(id, result);
    } catch (err) {
      if (this.disposed) return;
      if (err instanceof RpcFailure) this.respondError(id, err.code, err.message, err.data);
      else this.respondError(id, RpcCode.InternalError, err instanceof Error ? err.message : String(err));
    } finally {
      this.pendingFromView--;
    }
  }

  private async handle(method: string, params: JsonObject): Promise<unknown> {
    const h = this.opts.handlers;
    switch (method) {
      case 'ui/initialize': {
        const requested = params.protocolVersion;
        if (typeof requested !== 'string') throw new RpcFailure(RpcCode.InvalidParams, 'protocolVersion is required');
        // The handshake completes on ui/notifications/initialized; keep who the View says it is for then.
        this.appInfo = { appInfo: params.appInfo, appCapabilities: params.appCapabilities, protocolVersion: requested };
        return {
          protocolVersion: APPS_PROTOCOL_VERSION,
          hostInfo: this.opts.hostInfo,
          hostCapabilities: this.opts.hostCapabilities,
          hostContext: this.opts.hostContext(),
        };
      }
      case 'ping':
        return {};
      case 'tools/call': {
        const name = params.name;
        if (typeof name !== 'string' || name.length === 0 || name.length > 256) {
          throw new RpcFailure(RpcCode.InvalidParams, 'name must be a non-empty string');
        }
        const args = params.arguments;
        if (args !== undefined && !isObject(args))
          throw new RpcFailure(RpcCode.InvalidParams, 'arguments must be an object');
        return h.callTool(name, args ?? {});
      }
      case 'resources/read': {
        const uri = params.uri;
        if (typeof uri !== 'string' || uri.length === 0 || uri.length > 4096) {
          throw new RpcFailure(RpcCode.InvalidParams, 'uri must be a non-empty string');
        }
        return h.readResource(uri);
      }
      case 'ui/open-link': {
        const url = params.url;
        if (typeof url !== 'string' || url.length > 8192)
          throw new RpcFailure(RpcCode.InvalidParams, 'url must be a string');
        await h.openLink(url);
        return {};
      }
      case 'ui/download-file': {
        const contents = params.contents;
        if (!Array.isArray(contents) || contents.length === 0 || contents.length > 16) {
          throw new RpcFailure(RpcCode.InvalidParams, 'contents must be an array of 1..16 items');
        }
        return h.downloadFile(contents);
      }
      case 'ui/message':
        if (params.role !== 'user') throw new RpcFailure(RpcCode.InvalidParams, 'role must be "user"');
        await h.message(params);
        return {};
      case 'ui/update-model-context':
        await h.updateModelContext(params);
        return {};
      case 'ui/request-display-mode':
        // This host shows Views inline only; the answer is the mode in force (spec: return the current mode).
        return { mode: 'inline' };
      default:
        throw new RpcFailure(RpcCode.MethodNotFound, `Method not found: ${method}`);
    }
  }
}

function labelOf(msg: JsonObject): string {
  if (typeof msg.method === 'string') return msg.id === undefined ? msg.method : `${msg.method} #${String(msg.id)}`;
  if (isObject(msg.error)) return `error #${String(msg.id)}`;
  return `result #${String(msg.id)}`;
}
