// Owns the rate limit on warnings a peer can cause: junk frames, unsolicited responses and the like.

/** Warnings of one kind logged in full per interval before the rest are only counted. */
export const WARNINGS_PER_INTERVAL = 5;
/** The interval, in milliseconds, after which a summary of what was suppressed is logged. */
export const WARNING_INTERVAL_MS = 10_000;

interface Window {
  startedAt: number;
  logged: number;
  suppressed: number;
  /** What the suppressed warnings were about, for the summary (the first one's line). */
  sample: string;
}

/**
 * A peer decides how often these warnings happen, so logging each one would let it flood the host's
 * log (a million junk frames, a million lines). Per kind (a closed set the caller chooses, so memory is
 * bounded), the first {@link WARNINGS_PER_INTERVAL} of an interval are logged, the rest counted; one
 * summary line says how many were suppressed, when the interval ends (on a timer that never holds the
 * process open) or when the limiter is flushed (the connection closed).
 */
export class WarningLimiter {
  readonly #emit: (message: string) => void;
  readonly #perInterval: number;
  readonly #intervalMs: number;
  readonly #windows = new Map<string, Window>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(emit: (message: string) => void, options: { perInterval?: number; intervalMs?: number } = {}) {
    this.#emit = emit;
    this.#perInterval = options.perInterval ?? WARNINGS_PER_INTERVAL;
    this.#intervalMs = options.intervalMs ?? WARNING_INTERVAL_MS;
  }

  /** Logs `build()` unless `kind` is over its allowance; `build` runs only for a line that is logged. */
  warn(kind: string, build: () => string): void {
    const now = performance.now();
    let window = this.#windows.get(kind);
    if (window !== undefined && now - window.startedAt >= this.#intervalMs) {
      this.#summarize(kind, window);
      window = undefined;
    }
    if (window === undefined) {
      window = { startedAt: now, logged: 0, suppressed: 0, sample: '' };
      this.#windows.set(kind, window);
    }
    if (window.logged < this.#perInterval) {
      window.logged++;
      const line = build();
      if (window.logged === this.#perInterval) {
        window.sample = line;
        this.#emit(
          `${line} (further warnings like this are counted, and summarized every ${Math.round(this.#intervalMs / 1000)} s)`,
        );
      } else {
        this.#emit(line);
      }
      return;
    }
    window.suppressed++;
    this.#arm();
  }

  /** Logs the summaries still owed (the connection is closing) and stops the timer. */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const [kind, window] of this.#windows) this.#summarize(kind, window);
    this.#windows.clear();
  }

  #summarize(kind: string, window: Window): void {
    this.#windows.delete(kind);
    if (window.suppressed === 0) return;
    this.#emit(
      `suppressed ${window.suppressed} more warning${window.suppressed === 1 ? '' : 's'} like: ${window.sample}`,
    );
  }

  #arm(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const now = performance.now();
      let owed = false;
      for (const [kind, window] of [...this.#windows]) {
        if (now - window.startedAt >= this.#intervalMs) this.#summarize(kind, window);
        else if (window.suppressed > 0) owed = true;
      }
      if (owed) this.#arm();
    }, this.#intervalMs);
    // A summary is not worth keeping a process alive for.
    (this.#timer as { unref?: () => void }).unref?.();
  }
}
