// @mcpc/cli as a library: run `mcpc` in-process with your own streams (what the bin and sessions do).
export { run, type RunIO } from './main.js';
export { ExitCode } from './exit-codes.js';
export { UsageError, CliError, UntrustedConfigError, AmbiguousServerError, UnsafeSessionError } from './errors.js';
export { CliErrorCode } from './codes.js';
export { VERSION } from './version.js';
