// Reaching a session: running a command line in it, closing it.
import type { CliContext } from '../context.js';
import { CliError, ExitCode } from '../exit.js';

/** Runs the whole command line in session `name`; resolves with its exit code. */
export async function runInSession(ctx: CliContext, name: string, argv: readonly string[]): Promise<number> {
  void ctx;
  void argv;
  throw new CliError(`no session "@${name}" (sessions are not available yet)`, ExitCode.Usage);
}

/** Ends session `name`. */
export async function closeSession(ctx: CliContext, name: string): Promise<number> {
  void ctx;
  throw new CliError(`no session "@${name}"`, ExitCode.Usage);
}
