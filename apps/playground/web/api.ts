// The page's client of the playground HTTP API: token, typed calls, the event stream and a per-call store.

import type {
  Api,
  CallToolResult,
  CompletionReference,
  ErrorInfo,
  OutputVerdict,
  PathParams,
  RequestOf,
  ResponseOf,
  RouteKey,
  ServerEvent,
  TaskView,
} from '../contract/api.js';
import { isObject, type Obj } from './json.js';

/* ---------- types: the API's, declared once in contract/ ---------- */

export type * from '../contract/api.js';

export { isObject, type Json, type Obj } from './json.js';

/** What the page's event listeners get: the server's events, and the stream's own opening and closing. */
export type PlaygroundEvent = ServerEvent | { type: 'stream'; state: 'open' | 'closed' };
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

/** The path of a route with its `:name` segments filled in (encoded). */
export function routePath<K extends RouteKey>(key: K, params: PathParams<K>): string {
  const pattern = key.slice(key.indexOf(' ') + 1);
  const values = params as Record<string, string>;
  return pattern.replace(/:(\w+)/g, (_, name: string) => enc(values[name] ?? ''));
}

/** One call of a declared route: its path parameters, body and query typed by `contract/api.ts`. */
function send<K extends RouteKey>(
  key: K,
  params: PathParams<K>,
  ...[body, query]: RequestOf<K> extends undefined
    ? [body?: undefined, query?: Record<Api[K]['query'], string>]
    : [body: RequestOf<K>, query?: Record<Api[K]['query'], string>]
): Promise<ResponseOf<K>> {
  const method = key.slice(0, key.indexOf(' '));
  const search = query === undefined ? '' : `?${new URLSearchParams(query).toString()}`;
  // A POST without a body of its own still sends `{}`: the server reads JSON bodies only.
  const payload = body ?? (method === 'POST' || method === 'PUT' ? {} : undefined);
  return request<ResponseOf<K>>(method, `${routePath(key, params)}${search}`, payload);
}

const none = {};

export const api = {
  servers: () => send('GET /api/servers', none),
  addServer: (body: RequestOf<'POST /api/servers'>) => send('POST /api/servers', none, body),
  reconnect: (id: string) => send('POST /api/servers/:id/reconnect', { id }),
  removeServer: (id: string) => send('DELETE /api/servers/:id', { id }),
  tools: (id: string) => send('GET /api/servers/:id/tools', { id }),
  prompts: (id: string) => send('GET /api/servers/:id/prompts', { id }),
  resources: (id: string) => send('GET /api/servers/:id/resources', { id }),
  templates: (id: string) => send('GET /api/servers/:id/templates', { id }),
  call: (id: string, tool: string, args: Record<string, unknown>, asTask = false) =>
    send('POST /api/servers/:id/call', { id }, { tool, arguments: args, asTask }),
  cancelCall: (callId: string) => send('POST /api/calls/:callId/cancel', { callId }),
  prompt: (id: string, name: string, args: Record<string, string>) =>
    send('POST /api/servers/:id/prompt', { id }, { name, arguments: args }),
  complete: (
    id: string,
    ref: CompletionReference,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
  ) => send('POST /api/servers/:id/complete', { id }, { ref, argument, ...(context ? { context } : {}) }),
  read: (id: string, uri: string) => send('POST /api/servers/:id/read', { id }, { uri }),
  subscribe: (id: string, uri: string) => send('POST /api/servers/:id/subscribe', { id }, { uri }),
  unsubscribe: (id: string, uri: string) => send('POST /api/servers/:id/unsubscribe', { id }, { uri }),
  tasks: (id: string) => send('GET /api/servers/:id/tasks', { id }),
  cancelTask: (id: string, taskId: string) => send('POST /api/servers/:id/tasks/:taskId/cancel', { id, taskId }),
  logs: (id: string) => send('GET /api/servers/:id/logs', { id }),
  setLogLevel: (id: string, level: RequestOf<'POST /api/servers/:id/log-level'>['level']) =>
    send('POST /api/servers/:id/log-level', { id }, { level }),
  /** One request as written (a replay or an edit from the protocol view); answers with its raw result. */
  send: (id: string, method: string, params?: Obj) =>
    send('POST /api/servers/:id/request', { id }, { method, ...(params ? { params } : {}) }),
  roots: () => send('GET /api/roots', none),
  setRoots: (roots: RequestOf<'PUT /api/roots'>['roots']) => send('PUT /api/roots', none, { roots }),
  validate: (schema: unknown, value: unknown) => send('POST /api/validate', none, { schema, value }),
  frames: (id: string) => send('GET /api/servers/:id/frames', { id }),
  http: (id: string) => send('GET /api/servers/:id/http', { id }),
  timeline: (id: string) => send('GET /api/servers/:id/timeline', { id }),
  ui: (id: string, uri: string) => send('GET /api/servers/:id/ui', { id }, undefined, { uri }),
  /** The MCP Apps sandbox proxy's origin (a second port of the playground's). */
  sandbox: () => send('GET /api/sandbox', none),
  skills: (id: string) => send('GET /api/servers/:id/skills', { id }),
  skill: (id: string, uri: string) => send('GET /api/servers/:id/skill', { id }, undefined, { uri }),
  loadSkill: (id: string, body: RequestOf<'POST /api/servers/:id/skills/load'>) =>
    send('POST /api/servers/:id/skills/load', { id }, body),
  skillFile: (id: string, skill: string, path: string) =>
    send('POST /api/servers/:id/skills/file', { id }, { skill, path }),
  skillDirectory: (id: string, skill: string, path: string) =>
    send('POST /api/servers/:id/skills/directory', { id }, { skill, path }),
  answerDialog: (dialogId: string, answer: RequestOf<'POST /api/dialogs/:dialogId'>['answer']) =>
    send('POST /api/dialogs/:dialogId', { dialogId }, { answer }),
  oauthRun: (body: RequestOf<'POST /api/oauth/runs'>) => send('POST /api/oauth/runs', none, body),
  oauthContinue: (runId: string) => send('POST /api/oauth/runs/:runId/continue', { runId }),
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
  error?: ErrorInfo;
  output?: OutputVerdict;
  task?: TaskView;
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
