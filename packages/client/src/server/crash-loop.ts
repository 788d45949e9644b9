// The crash-loop bound: a restartable server that keeps failing to start is not started again for a while.
//
// Failing to start includes dying at once.
import { CrashLoopError } from '../errors.js';

/** A restartable server that failed this many times within the window is not started again until it passes. */
export const CRASH_LOOP_FAILURES = 5;
export const CRASH_LOOP_WINDOW_MS = 60_000;
/** An exit this soon after the handshake completed counts as a failure to start. */
export const CRASH_LOOP_MIN_UPTIME_MS = 5_000;

/** The recent failures of one restartable server (at most {@link CRASH_LOOP_FAILURES} kept). */
export class CrashLoopGuard {
  readonly #failures: number[] = [];
  #lastFailure: unknown;

  /** Records a failure of a restartable server (an exit, a failed start). */
  failed(cause: unknown): void {
    this.#lastFailure = cause;
    this.#failures.push(performance.now());
    if (this.#failures.length > CRASH_LOOP_FAILURES) this.#failures.shift();
  }

  /** The error that refuses to start the server again, when it failed too often of late. */
  refusal(server: string): CrashLoopError | undefined {
    const since = performance.now() - CRASH_LOOP_WINDOW_MS;
    while (this.#failures.length > 0 && this.#failures[0]! < since) this.#failures.shift();
    if (this.#failures.length < CRASH_LOOP_FAILURES) return undefined;
    return new CrashLoopError(server, this.#failures.length, CRASH_LOOP_WINDOW_MS, this.#lastFailure);
  }
}
