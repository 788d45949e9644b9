// The requests whose answers the legacy SSE transport waits for on the stream, failed together when it drops.
import { ResponseStreamClosedError, untilAborted } from '@mcpc/http';
import type { JsonRpcId, JsonRpcRequest } from '@mcpc/jsonrpc';

interface Waiter {
  readonly method: string;
  resolve(): void;
  reject(error: Error): void;
}

/** Requests POSTed whose answers have not yet come back on the stream, by id. */
export class Answers {
  readonly #waiting = new Map<JsonRpcId, Waiter>();

  /** Resolves when the answer to `request` has been delivered; rejects when the stream drops first. */
  await(request: JsonRpcRequest, signal: AbortSignal): Promise<void> {
    const answered = new Promise<void>((resolve, reject) => {
      this.#waiting.set(request.id, { method: request.method, resolve, reject });
    });
    return untilAborted(answered, signal).finally(() => this.#waiting.delete(request.id));
  }

  /** Stops waiting for `id`: its POST failed, so no answer will come. */
  forget(id: JsonRpcId): void {
    this.#waiting.delete(id);
  }

  /** The answer to `id` arrived: its waiter (if any) is removed and resolved by the caller when it has delivered it. */
  take(id: JsonRpcId): Waiter | undefined {
    const waiter = this.#waiting.get(id);
    this.#waiting.delete(id);
    return waiter;
  }

  /** Fails every waiter; a dropped stream's error names each waiter's method. */
  failAll(error: Error): void {
    for (const [id, waiter] of this.#waiting) {
      this.#waiting.delete(id);
      waiter.reject(
        error instanceof ResponseStreamClosedError
          ? new ResponseStreamClosedError(waiter.method, error.message)
          : error,
      );
    }
  }
}
