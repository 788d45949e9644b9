// A response body its client pushes chunks into (undici's dispatch): read by 'data' events or by iteration.
import { BodyEvents } from './body-events.js';
import { prematureClose } from './body.js';
import type { HttpBody } from './types.js';

/** What the body asks of its client: more chunks after a pause, and an end to the exchange. */
export interface BodySource {
  resume(): void;
  abort(reason: Error): void;
}

/**
 * Bytes held while nobody reads before the client is asked to pause, as a Node `Readable`'s default
 * high-water mark does: the usual answer (one chunk, then the end) comes whole before anyone listens, and
 * is held without pausing the connection for it.
 */
const HIGH_WATER_BYTES = 64 * 1024;

/**
 * A body fed by {@link push}, {@link end} and {@link fail}. Chunks that come while nobody reads are held
 * (within the high-water mark: past it `push` says to pause); a 'data' listener or an iterator takes them
 * in order, then the end. Ends with 'end' then 'close'; fails with 'error' then 'close', dropping what was
 * held; `destroy()` aborts the exchange when the body has not ended. No Node stream is made: one cost less
 * a response than a `Readable`.
 */
export class PushedBody extends BodyEvents implements HttpBody {
  readonly #source: BodySource;
  #held: Uint8Array[] = [];
  #heldBytes = 0;
  #pausedSource = false;
  /** The client delivered every chunk. */
  #complete = false;
  #flowing = false;
  #flushQueued = false;
  /** An iterator waiting for the next chunk, the end or the failure. */
  #wake: (() => void) | undefined;
  #failure: Error | undefined;
  readableEnded = false;
  destroyed = false;

  constructor(source: BodySource) {
    super();
    this.#source = source;
  }

  /** A chunk from the client; false asks it to pause until `resume()`. */
  push(chunk: Uint8Array): boolean {
    if (this.destroyed) return true; // the exchange is being aborted: nothing more is kept
    if (this.#flowing && this.#held.length === 0) {
      this.emit('data', chunk);
      return true;
    }
    this.#held.push(chunk);
    this.#heldBytes += chunk.length;
    this.#wakeReader();
    if (this.#heldBytes < HIGH_WATER_BYTES) return true;
    this.#pausedSource = true;
    return false;
  }

  /** The client delivered the last chunk. */
  end(): void {
    if (this.destroyed) return;
    this.#complete = true;
    if (this.#flowing && this.#held.length === 0) this.#finish();
    else this.#wakeReader();
  }

  /** The exchange failed (a reset, a timeout, an abort): the body fails with `error`. */
  fail(error: Error): void {
    if (this.destroyed || this.readableEnded) return;
    this.#settleDestroyed(error);
  }

  destroy(error?: Error): this {
    if (this.destroyed) return this;
    if (this.readableEnded) {
      this.destroyed = true;
      return this;
    }
    if (!this.#complete) this.#source.abort(error ?? prematureClose());
    this.#settleDestroyed(error);
    return this;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    try {
      for (;;) {
        if (this.readableEnded) return;
        if (this.#failure !== undefined) throw this.#failure;
        if (this.destroyed) throw prematureClose();
        const chunk = this.#take();
        if (chunk !== undefined) {
          yield chunk;
          this.#resumeIfDrained();
          continue;
        }
        if (this.#complete) {
          this.#finish();
          return;
        }
        await new Promise<void>((resolve) => (this.#wake = resolve));
      }
    } finally {
      // Left early (a break, a throw in the loop): stop reading, as a Readable's iterator does.
      if (!this.readableEnded) this.destroy();
    }
  }

  protected override listening(event: string): void {
    if (event !== 'data' || this.#flowing) return;
    this.#flowing = true;
    // Later, as a Readable does: whoever listens for 'data' first adds its 'end' and 'error' listeners.
    if (!this.#flushQueued && (this.#held.length > 0 || this.#complete)) {
      this.#flushQueued = true;
      queueMicrotask(() => this.#flush());
    }
  }

  /** Flowing: what was held goes to the 'data' listeners, then the end if it came. */
  #flush(): void {
    this.#flushQueued = false;
    for (let chunk = this.#take(); chunk !== undefined; chunk = this.#take()) {
      if (this.destroyed) return;
      this.emit('data', chunk);
      // After the chunk went out: what the client pushes at once comes behind it, in order.
      this.#resumeIfDrained();
    }
    if (this.#complete && !this.destroyed) this.#finish();
  }

  #take(): Uint8Array | undefined {
    const chunk = this.#held.shift();
    if (chunk === undefined) return undefined;
    this.#heldBytes -= chunk.length;
    return chunk;
  }

  /** Asks a paused client for more once what is held is under the mark (it may push at once). */
  #resumeIfDrained(): void {
    if (!this.#pausedSource || this.#heldBytes >= HIGH_WATER_BYTES || this.destroyed) return;
    this.#pausedSource = false;
    this.#source.resume();
  }

  #finish(): void {
    if (this.readableEnded || this.destroyed) return;
    this.readableEnded = true;
    this.emit('end');
    this.destroyed = true; // as an autoDestroy Readable is once it ended
    this.emit('close');
  }

  #settleDestroyed(error: Error | undefined): void {
    this.destroyed = true;
    this.#failure = error;
    this.#held = [];
    this.#heldBytes = 0;
    this.#wakeReader();
    if (error !== undefined) this.emit('error', error);
    this.emit('close');
  }

  #wakeReader(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
