// The playground's HTTP API, declared once: each route's path, request body and answer (server and page check).
import type { CallToolResult, GetPromptResult, Prompt, Resource, ResourceTemplate } from '@mcpc/client';
import type { CompleteRequest, Completion, LoggingLevel, TaskJSON } from '@mcpc/client/types';
import type {
  ContentsView,
  DialogReply,
  Empty,
  Frame,
  HttpExchange,
  LogRecord,
  RootView,
  ServerView,
  TaskRow,
  ToolView,
  UiResource,
  Validation,
} from './shapes.js';
import type { SkillDirectoryView, SkillEntryView, SkillListing, SkillLoadRequest, SkillRead } from './skills.js';
import type { SpanView } from './timeline.js';

export type * from './shapes.js';
export type * from './events.js';
export type * from './skills.js';
export type * from './timeline.js';

/** A route: what its body must be (`undefined`: none), what it answers, and its query parameters. */
export interface Route<Request, Response, Query extends string = never> {
  request: Request;
  response: Response;
  query: Query;
}

/** `POST /api/servers`: a stdio command, a URL, or an `mcpServers` document (object or JSON text). */
export type AddServer =
  | { kind: 'stdio'; name?: string; command: string; args?: string[]; env?: Record<string, string> }
  | {
      kind: 'url';
      name?: string;
      url: string;
      /** `httpConfig`'s names (`@mcpc/client/config`, kept out of the page): `http` is plain JSON over HTTP. */
      transport?: 'auto' | 'streamable-http' | 'http' | 'sse';
      headers?: Record<string, string>;
    }
  | { kind: 'config'; document: unknown };

/** `POST …/call`: starts a tool call; `progress`, `task` and `result` events follow. */
export interface CallRequest {
  tool: string;
  arguments?: Record<string, unknown>;
  asTask?: boolean;
}

/** `POST /api/oauth/runs`: a debugger run against an MCP endpoint (no step runs until `continue`). */
export interface OAuthRunRequest {
  url: string;
  scope?: string;
  clientId?: string;
  clientSecret?: string;
  dpop?: 'auto' | 'on' | 'off';
}

/**
 * Every JSON route, keyed `METHOD /path` with `:name` segments. The SSE stream (`GET /api/events?token=`) is
 * declared by `ServerEvent`, and `GET /oauth/callback` is the browser's redirect (HTML, no token).
 */
export interface Api {
  'GET /api/sandbox': Route<undefined, { origin: string }>;
  'GET /api/servers': Route<undefined, ServerView[]>;
  'POST /api/servers': Route<AddServer, ServerView[]>;
  'POST /api/servers/:id/reconnect': Route<undefined, Empty>;
  'DELETE /api/servers/:id': Route<undefined, Empty>;

  'GET /api/servers/:id/tools': Route<undefined, ToolView[]>;
  'POST /api/servers/:id/call': Route<CallRequest, { callId: string }>;
  'POST /api/calls/:callId/cancel': Route<undefined, Empty>;
  'GET /api/servers/:id/tasks': Route<undefined, TaskRow[]>;
  'POST /api/servers/:id/tasks/:taskId/cancel': Route<undefined, TaskJSON>;
  'POST /api/validate': Route<{ schema: unknown; value: unknown }, Validation>;
  'GET /api/servers/:id/ui': Route<undefined, UiResource, 'uri'>;

  'GET /api/servers/:id/prompts': Route<undefined, readonly Prompt[]>;
  'POST /api/servers/:id/prompt': Route<{ name: string; arguments?: Record<string, string> }, GetPromptResult>;
  'POST /api/servers/:id/complete': Route<CompleteRequest, Completion>;
  'GET /api/servers/:id/resources': Route<undefined, readonly Resource[]>;
  'GET /api/servers/:id/templates': Route<undefined, readonly ResourceTemplate[]>;
  'POST /api/servers/:id/read': Route<{ uri: string }, { contents: ContentsView[] }>;
  'POST /api/servers/:id/subscribe': Route<{ uri: string }, Empty>;
  'POST /api/servers/:id/unsubscribe': Route<{ uri: string }, Empty>;

  'GET /api/servers/:id/logs': Route<undefined, LogRecord[]>;
  'POST /api/servers/:id/log-level': Route<{ level: LoggingLevel }, Empty>;
  'GET /api/roots': Route<undefined, RootView[]>;
  'PUT /api/roots': Route<{ roots: RootView[] }, RootView[]>;
  'GET /api/servers/:id/frames': Route<undefined, Frame[]>;
  'GET /api/servers/:id/http': Route<undefined, HttpExchange[]>;
  /** The server's spans, the last 2,000 ended and those still open: the Timeline view's calls. */
  'GET /api/servers/:id/timeline': Route<undefined, SpanView[]>;
  'POST /api/servers/:id/request': Route<{ method: string; params?: Record<string, unknown> }, { result: unknown }>;

  'GET /api/servers/:id/skills': Route<undefined, SkillListing>;
  'GET /api/servers/:id/skill': Route<undefined, SkillEntryView, 'uri'>;
  'POST /api/servers/:id/skills/load': Route<SkillLoadRequest, SkillRead>;
  'POST /api/servers/:id/skills/file': Route<{ skill: string; path: string }, SkillRead>;
  'POST /api/servers/:id/skills/directory': Route<{ skill: string; path?: string }, SkillDirectoryView>;

  'POST /api/dialogs/:dialogId': Route<{ answer: DialogReply }, Empty>;
  'POST /api/oauth/runs': Route<OAuthRunRequest, { runId: string }>;
  'POST /api/oauth/runs/:runId/continue': Route<undefined, Empty>;
}

export type RouteKey = keyof Api;
export type RequestOf<K extends RouteKey> = Api[K]['request'];
export type ResponseOf<K extends RouteKey> = Api[K]['response'];

/** The `:name` segments of a route's path, as an object of strings. */
export type PathParams<K extends string> = K extends `${string}:${infer Name}/${infer Rest}`
  ? { [P in Name]: string } & PathParams<`/${Rest}`>
  : K extends `${string}:${infer Name}`
    ? { [P in Name]: string }
    : Record<never, never>;

/** The MCP shapes the page renders, as @mcpc/client declares them. */
export type { CallToolResult, GetPromptResult, Prompt, Resource, ResourceTemplate, TaskJSON };
export type { ContentBlock } from '@mcpc/client';
export type {
  CompletionReference,
  Completion,
  ElicitationRequest,
  LoggingLevel,
  PromptArgument,
  SamplingRequest,
} from '@mcpc/client/types';
