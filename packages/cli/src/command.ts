// The contract of one `mcpc` command: how it runs, and what `mcpc --help` says of it.
import type { FlagName } from './args.js';
import type { CliContext, Connection } from './context.js';
import type { ExitCode } from './exit-codes.js';

/** One `mcpc` command. */
export interface Command {
  /** Runs with its words (after the command name); resolves with the exit code. */
  run(ctx: CliContext, words: readonly string[], connection: Connection | undefined): Promise<ExitCode>;
}

/** What `mcpc --help` says of a command, kept apart from its code so help loads nothing else. */
export interface CommandInfo {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  readonly example: string;
  /** Flags beyond the global ones. */
  readonly flags: readonly FlagName[];
  /** Whether it talks to one server (the target comes before the command). */
  readonly server: boolean;
  /** A server command that streams until stopped (`listen`, `subscribe`): not offered by `mcpc shell`. */
  readonly streams?: true;
  /** More lines for `mcpc help <command>`. */
  readonly details?: readonly string[];
  readonly load: () => Promise<Command>;
}
