// The `code` strings of the errors this package raises, one constant each: match on these, not on literals.

export const CliErrorCode = Object.freeze({
  /** `UsageError`: the command line is wrong (exit 2). */
  Usage: 'MCPC_CLI_USAGE',
  /** `CliError`: a failure the command explained itself, with its exit code. */
  Failed: 'MCPC_CLI_FAILED',
  /** `UntrustedConfigError`: the server is defined in a project config file the user has not trusted. */
  UntrustedConfig: 'MCPC_CLI_UNTRUSTED_CONFIG',
  /** `AmbiguousServerError`: two configured servers that differ share the name given. */
  AmbiguousServer: 'MCPC_CLI_AMBIGUOUS_SERVER',
  /** `UnsafeSessionError`: the sessions directory, a record or a socket is not the user's own (nothing it names is used). */
  UnsafeSession: 'MCPC_CLI_UNSAFE_SESSION',
} as const);
export type CliErrorCode = (typeof CliErrorCode)[keyof typeof CliErrorCode];
