// `mcpc` from the command line: the argv handed to the dispatcher, and its exit code handed back.
import { dispatch, type RunIO } from './dispatch.js';

export type { RunIO } from './dispatch.js';

/** Runs `mcpc` with `argv` (without node and the script); resolves with the exit code. */
export async function run(argv: readonly string[], io: RunIO = {}): Promise<number> {
  return (await dispatch({ mode: 'top', argv, io })).code;
}
