// `Subscription`: a `subscriptions/listen` stream's filter, listener, acknowledgement and lifecycle.
import {
  CancelledByPeerError,
  JsonRpcErrorCode,
  RequestTimeoutError,
  TransportErrorCode,
  escapeForLog,
  safeLog,
  type JsonRpcId,
  type JsonRpcParams,
  type Logger,
} from '@mcpc/jsonrpc';
import { SubscriptionError } from '../errors.js';
import { NotificationQueue } from './queue.js';

/** What a `subscriptions/listen` stream asks for (MCP 2026-07-28). */
export interface SubscriptionFilter {
  readonly toolsListChanged?: boolean;
  readonly promptsListChanged?: boolean;
  readonly resourcesListChanged?: boolean;
  readonly resourceSubscriptions?: readonly string[];
  /**
   * Task ids whose `notifications/tasks` to receive (the tasks extension): each carries the task's whole
   * state, and announces only — the client answers input requests in `waitForTask` or `callTool`.
   */
  readonly taskIds?: readonly string[];
}

/** Runs on the subscription's own dispatcher, one notification at a time; it may await requests of its own. */
export type SubscriptionListener = (method: string, params: JsonRpcParams | undefined) => void | Promise<void>;

export interface ListenOptions {
  /**
   * Bound on the wait for each acknowledgment, in ms — the first, and every one after a re-open; one
   * that does not come ends the subscription with `RequestTimeoutError`. `false` waits for ever.
   * Defaults to the request timeout.
   */
  readonly ackTimeout?: number | false;
}

/** How a subscription reaches its server (the client's side of the seam). */
export interface ListenChannel {
  readonly server: string;
  readonly logger: Logger;
  readonly ackTimeout: number;
  /** Whether a dropped stream is re-opened with backoff (HTTP). */
  readonly reopens: boolean;
  /** Whether a server that went away is restarted and the stream re-sent to it (stdio). */
  readonly restarts: boolean;
  /**
   * Restarts the server (one restart shared by every subscription). `resentAt` is when this
   * subscription was last re-sent to a restarted process: one that died sooner than the minimum
   * interval after receiving it is a crash loop, and the restart is refused (rejects).
   */
  restart(cause: Error, resentAt: number | undefined): Promise<void>;
  /** Sends one `subscriptions/listen`; resolves with the server's closing result. */
  listen(
    filter: SubscriptionFilter,
    options: { readonly signal: AbortSignal; readonly onId: (id: JsonRpcId) => void },
  ): Promise<unknown>;
  register(id: JsonRpcId, subscription: Subscription): void;
  unregister(id: JsonRpcId, subscription: Subscription): void;
}

/** Failures after which an HTTP listen stream is re-opened: the stream dropped or the server faltered. */
const DROPS: ReadonlySet<unknown> = new Set([
  TransportErrorCode.ResponseStreamClosed,
  TransportErrorCode.TransientServerError,
  TransportErrorCode.NetworkError,
]);
const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;

// Symbol-keyed: the routing's levers, not part of the public API.
export const ACKNOWLEDGE: unique symbol = Symbol('acknowledge');
export const DELIVER: unique symbol = Symbol('deliver');
export const ON_ACK: unique symbol = Symbol('onAck');
export const WHEN_ACTIVE: unique symbol = Symbol('whenActive');

const FIELDS = [
  'toolsListChanged',
  'promptsListChanged',
  'resourcesListChanged',
  'resourceSubscriptions',
  'taskIds',
] as const;
type Field = (typeof FIELDS)[number];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One `subscriptions/listen` stream (MCP 2026-07-28). The server's acknowledgment says what it grants
 * (`acknowledged`, a frozen copy; `unsupported`, what it did not); notifications tagged with the
 * stream's id go to the listener through a bounded queue. Over HTTP a dropped stream (or a 5xx) is
 * re-opened with backoff under a new id — the server keeps no state between attempts, so each is
 * acknowledged afresh — and a 4xx ends it. `close()` ends it: closing the HTTP stream, or
 * `notifications/cancelled` on stdio.
 */
export class Subscription {
  readonly server: string;
  /** What was asked for: a frozen copy, so editing the object passed in changes nothing. */
  readonly filter: Readonly<SubscriptionFilter>;
  /** Resolves at the first acknowledgment; rejects if the subscription ends before one. */
  readonly ready: Promise<void>;
  readonly #channel: ListenChannel;
  readonly #queue: NotificationQueue;
  readonly #ackTimeout: number;
  #acknowledged: Readonly<SubscriptionFilter> | undefined;
  #unsupported: readonly string[] = [];
  #active = false;
  #closed = false;
  #error: Error | undefined;
  #ids = new Set<JsonRpcId>();
  #attempt: AbortController | undefined;
  #ackTimer: NodeJS.Timeout | undefined;
  /** Who waits for the stream to be honoured again (`WHEN_ACTIVE`): settled by the next acknowledgment or the end. */
  #waiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  #resolveReady!: () => void;
  #rejectReady!: (e: Error) => void;
  #running: Promise<void>;
  [ON_ACK]: ((acknowledged: Readonly<SubscriptionFilter>) => void) | undefined;

  constructor(
    channel: ListenChannel,
    filter: SubscriptionFilter,
    listener: SubscriptionListener,
    options: ListenOptions = {},
  ) {
    this.server = channel.server;
    this.#channel = channel;
    this.filter = copyFilter(filter);
    this.#ackTimeout = options.ackTimeout === false ? 0 : (options.ackTimeout ?? channel.ackTimeout);
    this.#queue = new NotificationQueue(listener, (e) =>
      this.#log('error', `a subscription listener failed: ${messageOf(e)}`),
    );
    this.ready = new Promise<void>((resolve, reject) => {
      this.#resolveReady = resolve;
      this.#rejectReady = reject;
    });
    this.ready.catch(() => {}); // Read through `error` by hosts that never await it.
    this.#running = this.#run();
  }

  /** What the server granted at its last acknowledgment (undefined before the first). */
  get acknowledged(): Readonly<SubscriptionFilter> | undefined {
    return this.#acknowledged;
  }
  /** The requested fields the acknowledgment did not really grant (a false flag, no requested URI), and `resource:<uri>` per URI left out. */
  get unsupported(): readonly string[] {
    return this.#unsupported;
  }
  /** Acknowledged and streaming now; false before the acknowledgment and while a dropped stream waits to re-open. */
  get active(): boolean {
    return this.#active;
  }
  get closed(): boolean {
    return this.#closed;
  }
  /** Why it ended, when it did not end by `close()` or by the server's graceful closing. */
  get error(): Error | undefined {
    return this.#error;
  }
  get pendingNotifications(): number {
    return this.#queue.pending;
  }
  get pendingNotificationBytes(): number {
    return this.#queue.pendingBytes;
  }
  get droppedNotifications(): number {
    return this.#queue.dropped;
  }

  /** Resolves once the subscription has ended, however it ended (never rejects). */
  get done(): Promise<void> {
    return this.#running;
  }

  /** Ends the subscription. Resolves once its stream is closed. Idempotent. */
  async close(): Promise<void> {
    this.#finish(undefined);
    await this.#running;
  }

  [ACKNOWLEDGE](params: JsonRpcParams | undefined): void {
    if (this.#closed) return;
    const granted = copyFilter(isObject(params?.notifications) ? (params.notifications as SubscriptionFilter) : {});
    this.#acknowledged = granted;
    this.#unsupported = Object.freeze(unsupportedOf(this.filter, granted));
    this.#active = true;
    if (this.#ackTimer !== undefined) clearTimeout(this.#ackTimer);
    this.#ackTimer = undefined;
    this.#resolveReady();
    this[ON_ACK]?.(granted);
    // After the check above, which may have closed it: a waiter learns of a grant only if it stands.
    if (!this.#closed) for (const waiter of this.#waiters.splice(0)) waiter.resolve();
  }

  /**
   * Resolves once the server is honouring this subscription now: at once while it is active, else at
   * the acknowledgment of the listen request that replaces a dropped one. Rejects if it ends first (its
   * replacement refused, or not acknowledged within `ackTimeout`).
   */
  [WHEN_ACTIVE](): Promise<void> {
    if (this.#closed)
      return Promise.reject(this.#error ?? new SubscriptionError('closed', this.server, 'the subscription was closed'));
    if (this.#active) return Promise.resolve();
    return new Promise<void>((resolve, reject) => void this.#waiters.push({ resolve, reject }));
  }

  [DELIVER](method: string, params: JsonRpcParams | undefined): void {
    if (!this.#closed) this.#queue.push(method, params);
  }

  async #run(): Promise<void> {
    let resentAt: number | undefined;
    for (let failures = 0; !this.#closed;) {
      const attempt = new AbortController();
      this.#attempt = attempt;
      this.#active = false;
      this.#armAckTimer(attempt);
      const acknowledgedBefore = this.#acknowledged;
      try {
        await this.#channel.listen(this.filter, { signal: attempt.signal, onId: (id) => this.#adopt(id) });
        // The server ended it gracefully (a complete result).
        return this.#finish(undefined);
      } catch (error) {
        if (this.#closed) return;
        if (attempt.signal.reason instanceof RequestTimeoutError) return this.#finish(attempt.signal.reason);
        if (error instanceof CancelledByPeerError) return this.#finish(undefined);
        const code = (error as { code?: unknown } | null)?.code;
        if (this.#channel.restarts && code === JsonRpcErrorCode.ConnectionClosed) {
          // The server process went away: the server holds no subscription state across a restart, so
          // the stream is re-sent to the new process (a crash loop ends it instead).
          try {
            await this.#channel.restart(error as Error, resentAt);
          } catch (refused) {
            return this.#finish(refused instanceof Error ? refused : new Error(String(refused)));
          }
          resentAt = Date.now();
          continue;
        }
        if (!this.#channel.reopens || !DROPS.has(code))
          return this.#finish(error instanceof Error ? error : new Error(String(error)));
        failures = this.#acknowledged !== acknowledgedBefore ? 1 : failures + 1;
        this.#log('debug', `the subscriptions/listen stream dropped (${messageOf(error)}); re-opening`);
      } finally {
        if (this.#ackTimer !== undefined) clearTimeout(this.#ackTimer);
        this.#ackTimer = undefined;
        for (const id of this.#ids) this.#channel.unregister(id, this);
        this.#ids.clear();
      }
      this.#active = false;
      const delay =
        Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, failures - 1)) * (0.75 + Math.random() * 0.5);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  #wake: (() => void) | undefined;

  /** Bounds the wait for the acknowledgment of the attempt's current listen request. */
  #armAckTimer(attempt: AbortController): void {
    if (this.#ackTimer !== undefined) clearTimeout(this.#ackTimer);
    this.#ackTimer = undefined;
    if (this.#ackTimeout > 0) {
      this.#ackTimer = setTimeout(
        () => attempt.abort(new RequestTimeoutError('subscriptions/listen', this.#ackTimeout)),
        this.#ackTimeout,
      );
    }
  }

  /** A new listen request of this subscription (the first, a re-open, the era's re-issue after a break). */
  #adopt(id: JsonRpcId): void {
    if (this.#ids.size > 0 && this.#attempt !== undefined) {
      // The era re-issued the request within this attempt (its response stream broke): a new request
      // the server holds no state for, not streaming until it is acknowledged, and bounded like any.
      this.#active = false;
      this.#armAckTimer(this.#attempt);
    }
    for (const old of this.#ids) this.#channel.unregister(old, this);
    this.#ids.clear();
    this.#ids.add(id);
    this.#channel.register(id, this);
  }

  #finish(error: Error | undefined): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#active = false;
    this.#error = error;
    this.#attempt?.abort(new SubscriptionError('closed', this.server, 'the subscription was closed'));
    this.#wake?.();
    this.#queue.stop();
    const ended =
      error ?? new SubscriptionError('ended', this.server, 'the subscription ended before the server acknowledged it');
    this.#rejectReady(ended);
    for (const waiter of this.#waiters.splice(0))
      waiter.reject(
        error ??
          new SubscriptionError('closed', this.server, 'the subscription ended before the server honoured it again'),
      );
    if (error !== undefined) this.#log('warn', `a subscription ended: ${messageOf(error)}`);
  }

  #log(level: 'debug' | 'warn' | 'error', message: string): void {
    safeLog(this.#channel.logger, level, `[mcpc] server "${escapeForLog(this.server, 100)}": ${message}`);
  }
}

/** A deep, frozen copy of a filter, keeping only its known fields. */
export function copyFilter(filter: SubscriptionFilter): Readonly<SubscriptionFilter> {
  if (!isObject(filter))
    throw new TypeError(
      'listen() needs a filter object: { toolsListChanged, promptsListChanged, resourcesListChanged, resourceSubscriptions, taskIds }',
    );
  const out: { -readonly [K in Field]?: SubscriptionFilter[K] } = {};
  for (const field of FIELDS) {
    const value = (filter as Record<string, unknown>)[field];
    if (value === undefined) continue;
    if (field === 'resourceSubscriptions' || field === 'taskIds') {
      if (Array.isArray(value)) out[field] = Object.freeze(value.filter((u): u is string => typeof u === 'string'));
    } else if (typeof value === 'boolean') {
      out[field] = value;
    }
  }
  return Object.freeze(out);
}

function unsupportedOf(asked: Readonly<SubscriptionFilter>, granted: Readonly<SubscriptionFilter>): string[] {
  const out: string[] = [];
  for (const field of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const) {
    if (asked[field] === true && granted[field] !== true) out.push(field);
  }
  const uris = asked.resourceSubscriptions;
  if (uris !== undefined && uris.length > 0) {
    const given = new Set(granted.resourceSubscriptions ?? []);
    const missing = uris.filter((u) => !given.has(u));
    if (missing.length === uris.length) out.push('resourceSubscriptions');
    for (const uri of missing) out.push(`resource:${uri}`);
  }
  const ids = asked.taskIds;
  if (ids !== undefined && ids.length > 0) {
    const given = new Set(granted.taskIds ?? []);
    const missing = ids.filter((id) => !given.has(id));
    if (missing.length === ids.length) out.push('taskIds');
    for (const id of missing) out.push(`task:${id}`);
  }
  return out;
}

const messageOf = (e: unknown): string => escapeForLog(e instanceof Error ? e.message : String(e), 300);
