// The `code` strings of the errors this package raises, one constant each: match on these, not on literals.

export const CliErrorCode = Object.freeze({
  /** `UsageError`: the command line is wrong (exit 2). */
  Usage: 'MCPC_CLI_USAGE',
  /** `CliError`: a failure the command explained itself, with its exit code. */
  Failed: 'MCPC_CLI_FAILED',
} as const);
export type CliErrorCode = (typeof CliErrorCode)[keyof typeof CliErrorCode];
