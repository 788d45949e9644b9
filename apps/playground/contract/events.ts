// The live stream's events (GET /api/events, one JSON object per `data:` line), as one discriminated union.
import type { CallToolResult } from '@mcpc/client';
import type { ElicitationRequest, SamplingRequest, TaskJSON } from '@mcpc/client/types';
import type {
  ErrorInfo,
  Frame,
  HttpExchange,
  LogRecord,
  OAuthStep,
  OutputVerdict,
  RootView,
  ServerView,
} from './shapes.js';
import type { SpanView } from './timeline.js';

/** A task as a `task` event shows it: its JSON, with the status the page should show (`expired`) when it differs. */
export type TaskView = Omit<TaskJSON, 'status'> & { status: TaskJSON['status'] | 'expired' };

/** Every event the server sends. A new stream first gets `servers` and the dialogs still open. */
export type ServerEvent =
  | { type: 'servers'; servers: ServerView[] }
  | { type: 'server'; server: ServerView }
  | { type: 'server-removed'; id: string }
  | { type: 'progress'; callId: string; progress: number; total?: number; message?: string }
  | { type: 'result'; callId: string; result: CallToolResult; output: OutputVerdict; error?: undefined }
  | { type: 'result'; callId: string; error: ErrorInfo; result?: undefined; output?: undefined }
  | { type: 'task'; callId: string; serverId: string; task: TaskView }
  | { type: 'notification'; serverId: string; method: string; params: Record<string, unknown> }
  | { type: 'frame'; serverId: string; frame: Frame }
  | { type: 'http'; serverId: string; exchange: HttpExchange }
  | { type: 'span'; serverId: string; span: SpanView }
  | { type: 'elicitation'; dialogId: string; serverId: string; request: ElicitationRequest }
  | { type: 'sampling'; dialogId: string; serverId: string; request: SamplingRequest }
  | { type: 'dialog-closed'; dialogId: string }
  | { type: 'oauth-step'; runId: string; step: OAuthStep }
  | { type: 'log'; serverId: string; log: LogRecord }
  | { type: 'roots'; roots: RootView[] };

export type ServerEventType = ServerEvent['type'];
export type ServerEventOf<T extends ServerEventType> = Extract<ServerEvent, { type: T }>;

/** The dialog events: what a page that connects late is sent for each dialog still open. */
export type DialogEvent = ServerEventOf<'elicitation' | 'sampling'>;
