// Jittered exponential backoff and the abortable waits it needs.
export interface BackoffOptions {
  /** First delay, in milliseconds. */
  readonly initialMs: number;
  /** Ceiling for any delay. */
  readonly maxMs: number;
}

/**
 * Exponential backoff with full jitter: attempt n waits a random time in [0.5, 1] × min(max, initial × 2ⁿ),
 * so many clients that failed together do not retry together, and no wait is near zero.
 */
export function backoffDelay(attempt: number, { initialMs, maxMs }: BackoffOptions): number {
  const ceiling = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling * (0.5 + Math.random() * 0.5));
}

/** Waits `ms`, or rejects with the signal's reason as soon as it fires. The timer never outlives either. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Settles as `promise` does, or rejects with the signal's reason as soon as it fires. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
