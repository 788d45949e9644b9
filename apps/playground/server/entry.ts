// One server entry: its spec, its current client, and what the playground keeps of it (frames, exchanges, spans…).
import type { Client, Task } from '@mcpc/client';
import type { ErrorInfo, Frame, HttpExchange, LogRecord, ServerView, TaskRow } from '../contract/api.js';
import { Ring, RING_SIZE } from './capture.js';
import { targetOf, type ServerSpec } from './specs.js';
import type { Timeline } from './timeline.js';

/** Log messages kept per server (the page's log panel reads them back after a reload). */
const LOG_RECORDS = 1_000;

/** A task the playground created, with its handle (for tasks/cancel). */
export interface TaskRecord extends TaskRow {
  handle: Task;
}

export class Entry {
  readonly kind: ServerSpec['kind'];
  readonly target: string;
  client: Client | undefined = undefined;
  /** Bumped on every (re)open: a callback of an older client sees it changed and does nothing. */
  generation = 0;
  phase: 'connecting' | 'connected' | 'failed' | 'dormant';
  error: ErrorInfo | undefined = undefined;
  readonly frames = new Ring<Frame>(RING_SIZE);
  readonly exchanges = new Ring<HttpExchange>(RING_SIZE);
  frameSeq = 0;
  httpSeq = 0;
  closeDispatcher: (() => Promise<void>) | undefined = undefined;
  readonly tasks = new Map<string, TaskRecord>();
  readonly logs = new Ring<LogRecord>(LOG_RECORDS);
  logSeq = 0;
  stderr = '';
  lastView = '';
  refreshQueued = false;

  constructor(
    readonly id: string,
    readonly spec: ServerSpec,
    /** The spans of its calls (its clients' tracer), kept across reconnects. */
    readonly timeline: Timeline,
  ) {
    this.kind = spec.kind;
    this.target = targetOf(spec);
    this.phase = spec.kind === 'url' && spec.dormant === true ? 'dormant' : 'connecting';
  }

  get server() {
    return this.client?.servers[0];
  }

  /** What the page shows of the entry. */
  view(): ServerView {
    const server = this.server;
    const live = server?.state;
    const state: ServerView['state'] =
      this.phase === 'dormant'
        ? 'closed'
        : live === 'connected'
          ? 'connected'
          : this.phase === 'failed'
            ? 'failed'
            : this.phase === 'connecting' || live === 'connecting'
              ? 'connecting'
              : 'closed';
    const view: ServerView = { id: this.id, name: this.id, kind: this.kind, target: this.target, state };
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
    if (state === 'failed' && this.error !== undefined) view.error = this.error;
    return view;
  }
}
