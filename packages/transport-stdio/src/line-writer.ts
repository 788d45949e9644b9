import type { Writable } from 'node:stream';
import { AbortError } from '@mcpc/jsonrpc';

interface Queued {
  readonly data: string;
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
 */
export class LineWriter {
  readonly #stream: Writable;
  readonly #writeError: (cause: unknown) => Error;
  readonly #queue: Queued[] = [];
  #blocked = false;
  #ended = false;

  /** `writeError` turns a stream failure into the error the caller sees. */
  constructor(stream: Writable, writeError: (cause: unknown) => Error) {
    this.#stream = stream;
    this.#writeError = writeError;
    stream.on('drain', () => {
      this.#blocked = false;
      this.#pump();
    });
  }

  write(data: string, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new AbortError(undefined, signal.reason));
    return new Promise<void>((resolve, reject) => {
      let onAbort: (() => void) | undefined;
      if (signal !== undefined) {
        // Only a frame still queued can be withdrawn; one handed to the stream is on its way.
        onAbort = () => {
          const index = this.#queue.indexOf(item);
          if (index === -1) return;
          this.#queue.splice(index, 1);
          reject(new AbortError(undefined, signal.reason));
        };
        signal.addEventListener('abort', onAbort, { once: true });
      }
      const item: Queued = { data, resolve, reject, signal, onAbort };
      this.#queue.push(item);
      this.#pump();
    });
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
    if (this.#ended) return;
    this.#ended = true;
    if (!this.#stream.destroyed && !this.#stream.writableEnded) this.#stream.end();
  }

  #pump(): void {
    // Bounded by the queue, which only shrinks here.
    while (!this.#blocked && !this.#ended && this.#queue.length > 0) {
      const item = this.#queue.shift()!;
      this.#release(item);
      if (this.#stream.destroyed || this.#stream.writableEnded) {
        item.reject(this.#writeError(new Error('the stream is closed')));
        continue;
      }
      const accepted = this.#stream.write(item.data, (error) => {
        if (error === null || error === undefined) item.resolve();
        else item.reject(this.#writeError(error));
      });
      if (!accepted) this.#blocked = true;
    }
  }

  #release(item: Queued): void {
    if (item.onAbort !== undefined) item.signal?.removeEventListener('abort', item.onAbort);
  }
}
