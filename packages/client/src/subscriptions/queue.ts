// A subscription's pending notifications, bounded by count and bytes.
import type { JsonRpcParams } from '@mcpc/jsonrpc';

/** The most notifications waiting for a subscription's listener. */
export const MAX_PENDING_NOTIFICATIONS = 1000;
/** The most bytes (method and params, as JSON) those may retain: a count alone bounds no memory. */
export const MAX_PENDING_NOTIFICATION_BYTES = 8 * 1024 * 1024;

interface Queued {
  readonly method: string;
  readonly params: JsonRpcParams | undefined;
  /** What the notification is about: the same key means a later notice says all this one did. */
  readonly key: string;
  readonly bytes: number;
  /** Too large for the budget: held in the one slot of its own, not charged against it. */
  readonly oversized: boolean;
}

/**
 * A subscription's dispatcher: notifications wait here, off the transport's reader, and the listener
 * sees them one at a time (it may make requests of its own and await them). Bounded in count and in
 * bytes. Every MCP notification is a "look again" signal, so overflow gives up the oldest *repeat* of
 * the arriving notice's thing (same method and uri/taskId) or, failing that, the oldest of whichever
 * thing has the most queued — never the only notice about a quiet thing while a busy one has repeats.
 * A notice larger than the whole byte budget is held in a single slot of its own.
 */
export class NotificationQueue {
  readonly #run: (method: string, params: JsonRpcParams | undefined) => unknown;
  readonly #onError: (error: unknown) => void;
  readonly #maxCount: number;
  readonly #maxBytes: number;
  #items: Queued[] = [];
  #bytes = 0;
  #dropped = 0;
  #draining = false;
  #stopped = false;

  constructor(
    run: (method: string, params: JsonRpcParams | undefined) => unknown,
    onError: (error: unknown) => void,
    limits: { readonly maxCount?: number; readonly maxBytes?: number } = {},
  ) {
    this.#run = run;
    this.#onError = onError;
    this.#maxCount = limits.maxCount ?? MAX_PENDING_NOTIFICATIONS;
    this.#maxBytes = limits.maxBytes ?? MAX_PENDING_NOTIFICATION_BYTES;
  }

  get pending(): number {
    return this.#items.length;
  }
  get pendingBytes(): number {
    return this.#bytes + this.#items.reduce((n, q) => (q.oversized ? n + q.bytes : n), 0);
  }
  get dropped(): number {
    return this.#dropped;
  }

  push(method: string, params: JsonRpcParams | undefined): void {
    if (this.#stopped) return;
    const bytes = method.length + sizeOf(params);
    const item: Queued = { method, params, key: keyOf(method, params), bytes, oversized: bytes > this.#maxBytes };
    if (item.oversized) {
      const previous = this.#items.findIndex((q) => q.oversized);
      if (previous >= 0) this.#drop(previous);
    } else {
      while (this.#items.length > 0 && this.#bytes + bytes > this.#maxBytes && this.#evict(item, true)) {
        // evicted one charged entry
      }
    }
    while (this.#items.length >= this.#maxCount && this.#evict(item, false)) {
      // evicted one entry
    }
    this.#items.push(item);
    if (!item.oversized) this.#bytes += bytes;
    if (!this.#draining) void this.#drain();
  }

  /** Stops delivery; what is queued is dropped. */
  stop(): void {
    this.#stopped = true;
    this.#items = [];
    this.#bytes = 0;
  }

  /** Gives up one entry whose removal relieves the pressure (`charged`: the byte budget). */
  #evict(arriving: Queued, charged: boolean): boolean {
    const eligible = (q: Queued): boolean => !charged || !q.oversized;
    let index = this.#items.findIndex((q) => eligible(q) && q.key === arriving.key);
    if (index < 0) {
      const counts = new Map<string, number>();
      for (const q of this.#items) if (eligible(q)) counts.set(q.key, (counts.get(q.key) ?? 0) + 1);
      let busiest: string | undefined;
      let most = 0;
      for (const [key, n] of counts) if (n > most) [busiest, most] = [key, n];
      index = busiest === undefined ? -1 : this.#items.findIndex((q) => eligible(q) && q.key === busiest);
    }
    if (index < 0) return false;
    this.#drop(index);
    return true;
  }

  #drop(index: number): void {
    const [gone] = this.#items.splice(index, 1);
    if (gone !== undefined && !gone.oversized) this.#bytes -= gone.bytes;
    this.#dropped++;
  }

  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      // Off the reader that pushed: a listener never runs inside the transport's callback.
      await Promise.resolve();
      while (!this.#stopped && this.#items.length > 0) {
        const next = this.#items.shift()!;
        if (!next.oversized) this.#bytes -= next.bytes;
        try {
          await this.#run(next.method, next.params);
        } catch (error) {
          this.#onError(error);
        }
      }
    } finally {
      this.#draining = false;
    }
  }
}

function keyOf(method: string, params: JsonRpcParams | undefined): string {
  const about = params?.uri ?? params?.taskId;
  return typeof about === 'string' ? `${method}\u0000${about}` : method;
}

function sizeOf(params: JsonRpcParams | undefined): number {
  if (params === undefined) return 0;
  try {
    return JSON.stringify(params)?.length ?? 0;
  } catch {
    return 0;
  }
}
