// Waiting, with a deadline, for conditions that the server's exit and the ends of its streams make true.

/** Conditions waited on with a deadline, each re-checked whenever `wake()` is called. */
export class Waiters {
  readonly #waiters = new Set<() => void>();

  /** Resolves true once `done()` holds (re-checked on every `wake()`), false after `ms`. */
  until(done: () => boolean, ms: number): Promise<boolean> {
    if (done()) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const finish = (value: boolean): void => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve(value);
      };
      const check = (): void => {
        if (done()) finish(true);
      };
      const timer = setTimeout(() => finish(done()), ms);
      this.#waiters.add(check);
    });
  }

  /** Something changed (an exit, a stream's end): re-checks every condition waited on. */
  wake(): void {
    for (const check of [...this.#waiters]) check();
  }
}
