// Bounds the answers a transport sends to the server's own requests: a few at a time, a bounded queue.
import { ConnectionClosedError, TransportError } from '@mcpc/jsonrpc';
import { brand } from './brand.js';
import { HttpErrorCode } from './codes.js';

/** Replies the server's requests may have on their way at once, per transport (that is, per server). */
export const DEFAULT_MAX_CONCURRENT_REPLIES = 4;
/** Replies waiting for their turn; past this, a new one is dropped (and counted). */
export const DEFAULT_MAX_QUEUED_REPLIES = 1024;
/** How often, at most, the count of dropped replies is logged while they keep being dropped. */
const DROP_REPORT_MS = 1_000;

/** A reply to a server's request was dropped: too many were already waiting to be sent. */
export class ReplyQueueFullError extends TransportError {
  static {
    brand(this, 'ReplyQueueFullError');
  }
  readonly limit: number;

  constructor(limit: number) {
    super(
      `dropped the reply: ${limit} replies to the server's requests were already waiting to be sent (the server sends requests faster than it accepts answers)`,
      {
        code: HttpErrorCode.ReplyQueueFull,
      },
    );
    this.limit = limit;
  }
}

interface Waiting {
  readonly task: () => Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The replies of one transport: at most `maxInFlight` are being sent (each is an HTTP request of its
 * own), the rest wait in order, at most `maxQueued` of them; a reply past that is refused with
 * `ReplyQueueFullError`. A server that floods the client with requests and is slow to take the
 * answers would otherwise get one connection per answer, all at once, until the host runs out of file
 * descriptors. Drops are counted and logged through `warn`: the first at once, then at most once a
 * second while they go on, so a flood of them is a few lines, and none goes unrecorded.
 */
export class ReplyQueue {
  readonly #maxInFlight: number;
  readonly #maxQueued: number;
  readonly #warn: (message: string) => void;
  #active = 0;
  // A FIFO with a moving head: shifting a long array on every reply would be quadratic.
  #waiting: (Waiting | undefined)[] = [];
  #head = 0;
  #dropped = 0;
  #unreported = 0;
  #reportTimer: NodeJS.Timeout | undefined;
  #closed: Error | undefined;

  constructor(options: {
    readonly maxInFlight: number;
    readonly maxQueued: number;
    readonly warn: (message: string) => void;
  }) {
    this.#maxInFlight = Math.max(1, Math.floor(options.maxInFlight));
    this.#maxQueued = Math.max(0, Math.floor(options.maxQueued));
    this.#warn = options.warn;
  }

  /** Replies waiting for their turn now. */
  get queued(): number {
    return this.#waiting.length - this.#head;
  }

  /** Replies dropped so far. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Runs `task` (the sending of one reply) now, or once a slot is free; refuses it when the queue is full. */
  run(task: () => Promise<void>): Promise<void> {
    if (this.#closed !== undefined) return Promise.reject(this.#closed);
    if (this.#active < this.#maxInFlight) return this.#start(task);
    if (this.queued >= this.#maxQueued) {
      this.#drop();
      return Promise.reject(new ReplyQueueFullError(this.#maxQueued));
    }
    return new Promise<void>((resolve, reject) => void this.#waiting.push({ task, resolve, reject }));
  }

  /** The transport is closing: what waits is refused with `reason`, and the drop count is logged. */
  close(reason: Error = new ConnectionClosedError(undefined)): void {
    if (this.#closed !== undefined) return;
    this.#closed = reason;
    const waiting = this.#waiting;
    const head = this.#head;
    this.#waiting = [];
    this.#head = 0;
    for (let i = head; i < waiting.length; i++) waiting[i]?.reject(reason);
    clearTimeout(this.#reportTimer);
    this.#reportTimer = undefined;
    this.#report();
  }

  #start(task: () => Promise<void>): Promise<void> {
    this.#active++;
    let running: Promise<void>;
    try {
      running = task();
    } catch (error) {
      running = Promise.reject(error);
    }
    return running.finally(() => {
      this.#active--;
      this.#next();
    });
  }

  #next(): void {
    if (this.#active >= this.#maxInFlight || this.#head >= this.#waiting.length) return;
    const item = this.#waiting[this.#head]!;
    this.#waiting[this.#head++] = undefined;
    // Compacted once the consumed head is most of the array.
    if (this.#head > 1024 && this.#head * 2 > this.#waiting.length) {
      this.#waiting = this.#waiting.slice(this.#head);
      this.#head = 0;
    }
    this.#start(item.task).then(item.resolve, item.reject);
  }

  #drop(): void {
    this.#dropped++;
    this.#unreported++;
    if (this.#reportTimer !== undefined) return;
    this.#report();
    this.#reportTimer = setTimeout(() => this.#tick(), DROP_REPORT_MS);
    this.#reportTimer.unref?.();
  }

  /** Once a second while drops go on: what was dropped since the last report. */
  #tick(): void {
    this.#reportTimer = undefined;
    if (this.#unreported === 0) return;
    this.#report();
    this.#reportTimer = setTimeout(() => this.#tick(), DROP_REPORT_MS);
    this.#reportTimer.unref?.();
  }

  #report(): void {
    if (this.#unreported === 0) return;
    const n = this.#unreported;
    this.#unreported = 0;
    const more = n === this.#dropped ? '' : ' more';
    this.#warn(
      `dropped ${n}${more} repl${n === 1 ? 'y' : 'ies'} to the server's requests (${this.#dropped} in all): ${this.#maxQueued} were already waiting to be sent, ` +
        `${this.#maxInFlight} at a time; the server sends requests faster than it accepts the answers`,
    );
  }
}
