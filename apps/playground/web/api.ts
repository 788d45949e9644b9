// The page's client of the playground HTTP API: token, typed calls, the event stream and a per-call store.

/* ---------- types (the contract in the playground notes) ---------- */

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Obj = Record<string, unknown>;

/** Narrow an unknown (wire) value to something readable key by key: any non-null object, arrays included. */
export function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null;
}

export interface ServerView {
  id: string;
  name: string;
  kind: 'stdio' | 'url';
  target: string;
  state: 'connecting' | 'connected' | 'failed' | 'closed';
  era?: 'modern' | 'legacy';
  protocolVersion?: string;
  transport?: string;
  serverInfo?: { name?: string; version?: string; title?: string } & Obj;
  capabilities?: Obj;
  instructions?: string;
  error?: string | { message?: string } | Obj;
}

export type AddServer =
  | { kind: 'stdio'; command: string; args?: string[]; env?: Record<string, string> }
  | {
      kind: 'url';
      url: string;
      transport?: 'auto' | 'streamable-http' | 'http' | 'sse';
      headers?: Record<string, string>;
    }
  | { kind: 'config'; document: unknown };

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Obj;
  outputSchema?: Obj;
  annotations?: Obj;
  /** The annotations as the server sent them (the client fills defaults into `annotations`). */
  declaredAnnotations?: Obj;
  _meta?: Obj;
  [k: string]: unknown;
}
export interface PromptArg {
  name: string;
  description?: string;
  required?: boolean;
}
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArg[];
}
export interface Resource {
  uri: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}
export interface ResourceTemplate {
  uriTemplate: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
}
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}
export interface Content {
  type: string;
  [k: string]: unknown;
}
export interface CallToolResult {
  content?: Content[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Obj;
  [k: string]: unknown;
}
export interface Task {
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled' | string;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  [k: string]: unknown;
}
export interface TaskRow {
  taskId: string;
  status: string;
  statusMessage?: string;
  tool: string;
  callId: string;
}
export interface Issue {
  instancePath: string;
  message: string;
  keyword: string;
  schemaPath: string;
}
export interface Validation {
  valid: boolean;
  issues: Issue[];
}
/**
 * The client's verdict on a result against its tool's outputSchema, sent with the result: `valid` null when
 * a check could not finish (`reason: 'undecided'`); `'missing'` when no structuredContent came.
 */
export interface OutputVerdict {
  valid: boolean | null;
  reason?: 'mismatch' | 'missing' | 'undecided';
  issues: Issue[];
}
export interface Frame {
  seq: number;
  dir: 'out' | 'in';
  at: number;
  message: Obj;
  bytes: number;
}
export interface HttpExchange {
  seq: number;
  method: string;
  url: string;
  status?: number;
  startedAt: number;
  durationMs?: number;
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string>;
  sse: boolean;
  error?: string | Obj;
  /** The JSON-RPC method the exchange carried (`response` for a reply to the server), when known. */
  rpc?: string;
}
/** A log message a server sent (`notifications/message`), made safe by the client. */
export interface LogRecord {
  seq: number;
  at: number;
  level: string;
  logger?: string;
  data: unknown;
}
export interface Root {
  uri: string;
  name?: string;
}
export interface RpcError {
  code: number | string;
  message: string;
  data?: unknown;
}
export interface UiResource {
  html: string;
  mimeType: string;
  csp?: Obj;
  meta?: Obj;
}

export type PlaygroundEvent =
  | { type: 'servers'; servers: ServerView[] }
  | { type: 'server'; server: ServerView }
  | { type: 'server-removed'; id: string }
  | { type: 'progress'; callId: string; progress: number; total?: number; message?: string }
  | { type: 'result'; callId: string; result?: CallToolResult; error?: RpcError; output?: OutputVerdict }
  | { type: 'task'; callId: string; serverId: string; task: Task }
  | { type: 'notification'; serverId: string; method: string; params?: Obj }
  | { type: 'frame'; serverId: string; frame: Frame }
  | { type: 'http'; serverId: string; exchange: HttpExchange }
  | { type: 'elicitation'; dialogId: string; serverId: string; request: Obj }
  | { type: 'sampling'; dialogId: string; serverId: string; request: Obj }
  | { type: 'dialog-closed'; dialogId: string }
  | { type: 'oauth-step'; runId: string; step: Obj }
  | { type: 'log'; serverId: string; log: LogRecord }
  | { type: 'roots'; roots: Root[] }
  | { type: 'stream'; state: 'open' | 'closed' };

export type EventType = PlaygroundEvent['type'];
export type EventOf<T extends EventType> = Extract<PlaygroundEvent, { type: T }>;

/* ---------- token and fetch ---------- */

function readToken(): string {
  const m = /(?:^#|&)token=([^&]*)/.exec(location.hash);
  if (m?.[1]) {
    const t = decodeURIComponent(m[1]);
    try {
      sessionStorage.setItem('playground-token', t);
    } catch {
      /* storage may be off */
    }
    return t;
  }
  try {
    return sessionStorage.getItem('playground-token') ?? '';
  } catch {
    return '';
  }
}

export const token = readToken();

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'X-Playground-Token': token };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!res.ok) {
    const err = isObject(data) ? data.error : undefined;
    const code = isObject(err) ? err.code : undefined;
    const message = isObject(err) ? err.message : undefined;
    throw new ApiError(res.status, String(code ?? res.status), String(message ?? (text || res.statusText)));
  }
  return data as T;
}

const enc = encodeURIComponent;
const srv = (id: string) => `/api/servers/${enc(id)}`;

export const api = {
  servers: () => request<ServerView[]>('GET', '/api/servers'),
  addServer: (body: AddServer) => request<ServerView[]>('POST', '/api/servers', body),
  reconnect: (id: string) => request<unknown>('POST', `${srv(id)}/reconnect`),
  removeServer: (id: string) => request<unknown>('DELETE', srv(id)),
  tools: (id: string) => request<Tool[]>('GET', `${srv(id)}/tools`),
  prompts: (id: string) => request<Prompt[]>('GET', `${srv(id)}/prompts`),
  resources: (id: string) => request<Resource[]>('GET', `${srv(id)}/resources`),
  templates: (id: string) => request<ResourceTemplate[]>('GET', `${srv(id)}/templates`),
  call: (id: string, tool: string, args: unknown, asTask = false) =>
    request<{ callId: string }>('POST', `${srv(id)}/call`, { tool, arguments: args, asTask }),
  cancelCall: (callId: string) => request<unknown>('POST', `/api/calls/${enc(callId)}/cancel`, {}),
  prompt: (id: string, name: string, args: Record<string, string>) =>
    request<{ description?: string; messages: { role: string; content: Content }[] }>('POST', `${srv(id)}/prompt`, {
      name,
      arguments: args,
    }),
  complete: (id: string, ref: Obj, argument: { name: string; value: string }, context?: Obj) =>
    request<Obj>('POST', `${srv(id)}/complete`, { ref, argument, ...(context ? { context } : {}) }),
  read: (id: string, uri: string) => request<{ contents: ResourceContents[] }>('POST', `${srv(id)}/read`, { uri }),
  subscribe: (id: string, uri: string) => request<unknown>('POST', `${srv(id)}/subscribe`, { uri }),
  unsubscribe: (id: string, uri: string) => request<unknown>('POST', `${srv(id)}/unsubscribe`, { uri }),
  tasks: (id: string) => request<TaskRow[]>('GET', `${srv(id)}/tasks`),
  cancelTask: (id: string, taskId: string) => request<Task>('POST', `${srv(id)}/tasks/${enc(taskId)}/cancel`, {}),
  logs: (id: string) => request<LogRecord[]>('GET', `${srv(id)}/logs`),
  setLogLevel: (id: string, level: string) => request<unknown>('POST', `${srv(id)}/log-level`, { level }),
  /** One request as written (a replay or an edit from the protocol view); answers with its raw result. */
  send: (id: string, method: string, params?: Obj) =>
    request<{ result: unknown }>('POST', `${srv(id)}/request`, { method, ...(params ? { params } : {}) }),
  roots: () => request<Root[]>('GET', '/api/roots'),
  setRoots: (roots: Root[]) => request<Root[]>('PUT', '/api/roots', { roots }),
  validate: (schema: unknown, value: unknown) => request<Validation>('POST', '/api/validate', { schema, value }),
  frames: (id: string) => request<Frame[]>('GET', `${srv(id)}/frames`),
  http: (id: string) => request<HttpExchange[]>('GET', `${srv(id)}/http`),
  ui: (id: string, uri: string) => request<UiResource>('GET', `${srv(id)}/ui?uri=${enc(uri)}`),
  /** The MCP Apps sandbox proxy's origin (a second port of the playground's). */
  sandbox: () => request<{ origin: string }>('GET', '/api/sandbox'),
  answerDialog: (dialogId: string, answer: Obj) =>
    request<unknown>('POST', `/api/dialogs/${enc(dialogId)}`, { answer }),
  oauthRun: (body: { url: string; scope?: string; clientId?: string; clientSecret?: string }) =>
    request<{ runId: string }>('POST', '/api/oauth/runs', body),
  oauthContinue: (runId: string) => request<unknown>('POST', `/api/oauth/runs/${enc(runId)}/continue`, {}),
};

/* ---------- events ---------- */

type Handler = (e: PlaygroundEvent) => void;
const handlers = new Map<string, Set<Handler>>();

/** Listen to one event type (or '*'); returns the unsubscribe function. */
export function on<T extends EventType>(type: T | '*', fn: (e: EventOf<T>) => void): () => void {
  let set = handlers.get(type);
  if (!set) handlers.set(type, (set = new Set()));
  set.add(fn as Handler);
  return () => set.delete(fn as Handler);
}

function dispatch(e: PlaygroundEvent): void {
  for (const key of [e.type, '*']) {
    for (const fn of handlers.get(key) ?? []) {
      try {
        fn(e);
      } catch (err) {
        console.error('event handler failed', err);
      }
    }
  }
}

let source: EventSource | undefined;
let attempts = 0;
const MAX_ATTEMPTS = 500;
export let streamOpen = false;

/** Open the SSE stream; reconnects (bounded count, capped backoff) when the browser gives up on it. */
export function connectEvents(): void {
  if (source || typeof EventSource === 'undefined') return;
  const es = new EventSource(`/api/events?token=${enc(token)}`);
  source = es;
  es.onopen = () => {
    attempts = 0;
    streamOpen = true;
    dispatch({ type: 'stream', state: 'open' });
  };
  es.onmessage = (m) => {
    let data: unknown;
    try {
      data = JSON.parse(m.data);
    } catch {
      return;
    }
    if (isObject(data) && typeof data.type === 'string') {
      record(data as PlaygroundEvent);
      dispatch(data as PlaygroundEvent);
    }
  };
  es.onerror = () => {
    if (es.readyState === EventSource.CLOSED) {
      source = undefined;
      if (streamOpen) {
        streamOpen = false;
        dispatch({ type: 'stream', state: 'closed' });
      }
      if (attempts++ < MAX_ATTEMPTS) setTimeout(connectEvents, Math.min(5000, 250 * 2 ** Math.min(attempts, 5)));
    } else if (streamOpen) {
      streamOpen = false;
      dispatch({ type: 'stream', state: 'closed' });
    }
  };
}

/* ---------- per-call store (events may arrive before POST /call answers) ---------- */

export interface CallState {
  progress?: { progress: number; total?: number; message?: string };
  result?: CallToolResult;
  error?: RpcError;
  output?: OutputVerdict;
  task?: Task;
  done: boolean;
}
const calls = new Map<string, CallState>();
const MAX_CALLS = 300;

function record(e: PlaygroundEvent): void {
  if (e.type !== 'progress' && e.type !== 'result' && e.type !== 'task') return;
  let s = calls.get(e.callId);
  if (!s) {
    s = { done: false };
    calls.set(e.callId, s);
    if (calls.size > MAX_CALLS) calls.delete(calls.keys().next().value as string);
  }
  if (e.type === 'progress') s.progress = { progress: e.progress, total: e.total, message: e.message };
  else if (e.type === 'task') s.task = e.task;
  else {
    s.result = e.result;
    s.error = e.error;
    s.output = e.output;
    s.done = true;
  }
}

export function callState(callId: string): CallState | undefined {
  return calls.get(callId);
}

/* ---------- small helpers ---------- */

export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (isObject(err) && 'message' in err) return String(err.message);
  return String(err);
}

/** Copy text to the clipboard: the async API when allowed, else a hidden textarea and execCommand. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* fall through */
  }
  const ta = document.createElement('textarea');
  ta.value = text;
  ta.setAttribute('readonly', '');
  ta.style.position = 'fixed';
  ta.style.opacity = '0';
  document.body.appendChild(ta);
  ta.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  ta.remove();
  return ok;
}
