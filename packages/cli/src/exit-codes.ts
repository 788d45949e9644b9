// The exit codes `mcpc` documents (also in `mcpc --help`): what the process exit status means.

/** What the process exit status means (also in `mcpc --help`). */
export const ExitCode = Object.freeze({
  /** Done. */
  Ok: 0,
  /** Anything not listed below. */
  Error: 1,
  /** The command line is wrong (unknown command, flag or target; a bad argument). */
  Usage: 2,
  /** The server could not be reached or did not complete the handshake. */
  Connect: 3,
  /** The server wants authorization: run `mcpc login <url>`. */
  AuthRequired: 4,
  /** The server answered with a JSON-RPC error (or refused a capability). */
  Server: 5,
  /** The tool ran and reported an error (`isError`). */
  ToolError: 6,
  /** An answer or an argument broke its schema. */
  Validation: 7,
  /** No answer in time (`--timeout`). */
  Timeout: 8,
  /** Interrupted (Ctrl-C). */
  Interrupted: 130,
} as const);
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
