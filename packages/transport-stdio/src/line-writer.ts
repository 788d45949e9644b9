// Frames written to a stream in order, honouring backpressure, each abortable while it waits.
import type { Writable } from 'node:stream';
import { AbortError } from '@mcpc/jsonrpc';

/** Where a frame's signal comes from: read only if the frame has to wait (see {@link LineWriter.write}). */
export interface SignalSource {
  readonly signal?: AbortSignal | undefined;
}

interface Queued {
  readonly data: string;
  readonly key: unknown;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: (() => void) | undefined;
}

/**
 * Writes frames to a stream in order, honouring backpressure: once `write()` returns false nothing
 * more is handed to the stream until it drains, so a fast producer fills this queue (whose promises
 * stay pending) rather than the stream's buffer. A write's promise settles when the stream is done
 * with it, so awaiting `send` really waits for the wire.
 *
 * The common case — nothing queued, the stream not full — hands the frame over at once: no queue entry
 * and no abort listener, since a frame handed over cannot be withdrawn anyway. Only a frame that
 * has to wait reads its signal, and can be withdrawn (by its signal or by {@link withdraw}).
 */
export class LineWriter {
  readonly #stream: Writable;
  readonly #writeError: (cause: unknown) => Error;
  readonly #queue: Queued[] = [];
  #blocked = false;
  #ended = false;
  /** The stream failed (a broken pipe): why, for every write from then on. */
  #failure: unknown;
  #failed = false;
  /** Frames handed over in this turn of the event loop, written together once its ticks are done. */
  #batch: Batch | undefined;
  readonly #flushBatch = (): void => this.#flush();

  /**
   * `writeError` turns a stream failure into the error the caller sees; `onFailure` hears of the first
   * failure of the stream itself (a write that failed, an 'error'), once.
   */
  constructor(stream: Writable, writeError: (cause: unknown) => Error, onFailure?: (cause: unknown) => void) {
    this.#stream = stream;
    this.#writeError = writeError;
    this.#onFailure = onFailure;
    stream.on('drain', () => {
      this.#blocked = false;
      this.#pump();
    });
    // A failed stream never drains: without this, frames queued behind a full pipe would wait for ever.
    stream.on('error', (error) => this.#fail(error));
    stream.once('close', () => {
      if (!this.#ended) this.#fail(new Error('the stream is closed'));
    });
  }

  readonly #onFailure: ((cause: unknown) => void) | undefined;

  /**
   * Writes `data`. `options.signal` is read only if the frame must wait behind others (reading a
   * JsonRpcEngine request's signal is what makes it); `key` names the frame for {@link withdraw}.
   */
  write(data: string, options?: SignalSource, key?: unknown): Promise<void> {
    if (this.#failed) return Promise.reject(this.#writeError(this.#failure));
    if (!this.#blocked && !this.#ended && this.#queue.length === 0) return this.#hand(data);
    const signal = options?.signal;
    if (signal?.aborted) return Promise.reject(new AbortError(undefined, signal.reason));
    return new Promise<void>((resolve, reject) => {
      let onAbort: (() => void) | undefined;
      if (signal !== undefined) {
        onAbort = () => {
          if (this.#remove(item)) reject(new AbortError(undefined, signal.reason));
        };
        signal.addEventListener('abort', onAbort, { once: true });
      }
      const item: Queued = { data, key, resolve, reject, signal, onAbort };
      this.#queue.push(item);
      this.#pump();
    });
  }

  /** Withdraws the frame written with `key` if it is still queued, rejecting it with `error`. */
  withdraw(key: unknown, error: Error): void {
    // Only a backed-up stream has a queue, and then a short one compared with what it holds.
    const item = this.#queue.find((q) => q.key === key);
    if (item !== undefined && this.#remove(item)) item.reject(error);
  }

  /** Rejects every frame not yet handed to the stream. Later writes must be refused by the caller. */
  abandon(error: Error): void {
    for (const item of this.#queue.splice(0)) {
      this.#release(item);
      item.reject(error);
    }
  }

  /** Ends the stream once what was handed to it is flushed; queued frames are abandoned first. */
  end(error: Error): void {
    this.abandon(error);
    // Frames already handed over go out before the end.
    this.#flush();
    if (this.#ended) return;
    this.#ended = true;
    if (!this.#stream.destroyed && !this.#stream.writableEnded) this.#stream.end();
  }

  /** The stream failed: nothing written from now on can reach it, and nothing queued will. */
  #fail(cause: unknown): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#failure = cause;
    this.abandon(this.#writeError(cause));
    this.#onFailure?.(cause);
  }

  #pump(): void {
    // Bounded by the queue, which only shrinks here.
    while (!this.#blocked && !this.#ended && this.#queue.length > 0) {
      const item = this.#queue.shift()!;
      this.#release(item);
      this.#hand(item.data).then(item.resolve, item.reject);
    }
  }

  /**
   * Hands one frame over; its promise settles when the stream is done with it. Frames handed over in
   * one turn of the event loop (answers arriving together, each followed by the next call) share one
   * write — one syscall, one callback, one promise — once the turn's ticks are done. A batch past the
   * stream's high-water mark is written at once, so that backpressure is seen as before.
   */
  #hand(data: string): Promise<void> {
    if (this.#stream.destroyed || this.#stream.writableEnded)
      return Promise.reject(this.#writeError(new Error('the stream is closed')));
    let batch = this.#batch;
    if (batch === undefined) {
      batch = this.#batch = new Batch();
      process.nextTick(this.#flushBatch);
    }
    batch.add(data);
    const promise = batch.promise;
    if (batch.length >= this.#stream.writableHighWaterMark) this.#flush();
    return promise;
  }

  #flush(): void {
    const batch = this.#batch;
    if (batch === undefined) return;
    this.#batch = undefined;
    if (this.#stream.destroyed || this.#stream.writableEnded)
      return batch.reject(this.#writeError(new Error('the stream is closed')));
    const accepted = this.#stream.write(batch.data(), (error) => {
      if (error === null || error === undefined) return batch.resolve();
      batch.reject(this.#writeError(error));
      this.#fail(error);
    });
    if (!accepted) this.#blocked = true;
  }

  #remove(item: Queued): boolean {
    const index = this.#queue.indexOf(item);
    if (index === -1) return false;
    this.#queue.splice(index, 1);
    this.#release(item);
    return true;
  }

  #release(item: Queued): void {
    if (item.onAbort !== undefined) item.signal?.removeEventListener('abort', item.onAbort);
  }
}

/** Frames written together, and the one promise they share. */
class Batch {
  readonly promise: Promise<void>;
  resolve!: () => void;
  reject!: (error: Error) => void;
  #parts: string[] = [];
  /** Characters so far (the high-water check needs no exact byte count). */
  length = 0;

  constructor() {
    // A shared executor: a closure of its own per batch (one per turn of the event loop) cost an allocation.
    this.promise = new Promise<void>(captureSettlers);
    this.resolve = captured.resolve;
    this.reject = captured.reject;
    captured.resolve = captured.reject = noop;
  }

  add(data: string): void {
    this.#parts.push(data);
    this.length += data.length;
  }

  data(): string {
    return this.#parts.length === 1 ? this.#parts[0]! : this.#parts.join('');
  }
}

const noop = (): void => {};
// What `captureSettlers` last received; read right after `new Promise`, whose executor runs at once.
const captured: { resolve: () => void; reject: (error: Error) => void } = { resolve: noop, reject: noop };
function captureSettlers(resolve: () => void, reject: (error: Error) => void): void {
  captured.resolve = resolve;
  captured.reject = reject;
}
