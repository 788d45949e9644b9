// The data the playground's API and event stream carry (types only): servers, frames, exchanges, logs, tasks, verdicts.
import type { Tool } from '@mcpc/client';
import type {
  BlobResourceContentsData,
  ElicitationAction,
  Implementation,
  LoggingLevel,
  Meta,
  ServerCapabilities,
  TextResourceContentsData,
  ToolAnnotations,
} from '@mcpc/client/types';

/** An error as the API and the events show it: the `code` of the error class (`MCPC_*`), or the API's own. */
export interface ErrorInfo {
  code: string;
  message: string;
  /** A typed error's `reason` (a skill refused: `digest`, `too-large`, …), when the API passes it on. */
  reason?: string;
}

/** The body of every 4xx/5xx answer. */
export interface ErrorBody {
  error: ErrorInfo;
}

/** An answer with nothing to say. */
export type Empty = Record<string, never>;

/** A server entry as the page shows it. */
export interface ServerView {
  id: string;
  name: string;
  kind: 'stdio' | 'url';
  /** The command line (quoted words) or the URL. */
  target: string;
  state: 'connecting' | 'connected' | 'failed' | 'closed';
  era?: 'modern' | 'legacy';
  protocolVersion?: string;
  transport?: string;
  serverInfo?: Implementation;
  capabilities?: ServerCapabilities;
  instructions?: string;
  /** Why it failed (state `failed`). */
  error?: ErrorInfo;
}

/** A tool as `GET …/tools` lists it: the client's, with the hints its server declared (no defaults filled in). */
export type ToolView = Tool & { declaredAnnotations: Partial<Record<keyof ToolAnnotations, unknown>> };

/** A resource's contents as JSON: text as is, bytes base64 (`blob`). */
export type ContentsView = TextResourceContentsData | BlobResourceContentsData;

/** A JSON object, read key by key (a JSON-RPC message, a request's params). */
export type JsonObject = { [key: string]: unknown };

/** One JSON-RPC message the playground saw go out to a server or come in. */
export interface Frame {
  seq: number;
  dir: 'out' | 'in';
  /** Epoch milliseconds. */
  at: number;
  message: JsonObject;
  bytes: number;
}

/** One HTTP exchange with a server, credentials redacted; sent again (same `seq`) as it progresses. */
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
  error?: string;
  /** The JSON-RPC method the exchange carried (`response` for a reply to the server), when known. */
  rpc?: string;
}

/** A log message a server sent (`notifications/message`), made safe by the client. */
export interface LogRecord {
  seq: number;
  at: number;
  level: LoggingLevel;
  logger?: string;
  data: unknown;
}

/** A task this playground created, as `GET …/tasks` lists it. */
export interface TaskRow {
  taskId: string;
  /** The task's status, or `expired` when its ttl ran out before it ended. */
  status: string;
  statusMessage?: string;
  tool: string;
  callId: string;
}

/** One finding of @mcpc/schema-validator. */
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

/** A `ui://` resource for the MCP Apps host. */
export interface UiResource {
  html: string;
  mimeType: string;
  /** The resource's `_meta.ui.csp`. */
  csp?: unknown;
  meta?: Meta;
}

/** A root offered to every server. */
export interface RootView {
  uri: string;
  name?: string;
}

/** How a person answered an elicitation. */
export interface ElicitationReply {
  action: ElicitationAction;
  content?: Record<string, unknown>;
}

/** How a person answered a sampling request: a reply typed in the page, or a refusal. */
export type SamplingReply = { action: 'accept'; text: string } | { action: 'reject' };

export type DialogReply = ElicitationReply | SamplingReply;

/** One HTTP exchange of an OAuth step, as @mcpc/oauth/steps recorded it (secrets redacted, bodies bounded). */
export interface OAuthExchange {
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly headers: Readonly<Record<string, string>>;
    readonly body?: string;
  };
  /** Absent when no response came (see `error`). */
  readonly response?: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: string;
    readonly bodyTruncated: boolean;
  };
  readonly error?: string;
  readonly durationMs: number;
}

/**
 * One step of an OAuth debugger run. `exchanges` (when a step made more than one request) lists them all,
 * `exchange` is the last; `info` holds what was parsed or decoded; `final` marks the run's end (the last step,
 * or a failure); `waiting` marks the authorization step (the run waits for the redirect).
 */
export interface OAuthStep {
  index: number;
  name: string;
  title: string;
  ok: boolean;
  detail: string;
  rule?: string;
  exchange?: OAuthExchange;
  exchanges?: readonly OAuthExchange[];
  info?: Record<string, unknown>;
  final?: boolean;
  waiting?: boolean;
}
