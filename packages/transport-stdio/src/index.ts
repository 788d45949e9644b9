// The public entry of @mcpc/transport-stdio.
export {
  StdioTransport,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_STDERR_TAIL_BYTES,
  type StdioTransportOptions,
  type ShutdownTimeouts,
} from './stdio-transport.js';
export { stdio, type StdioConfigOptions } from './config.js';
export { SpawnError, ProcessExitError, StdinWriteError } from './errors.js';
export { StdioErrorCode } from './codes.js';
export { defaultEnvironment, type EnvironmentOptions } from './environment.js';
export { resolveCommand, type ResolveCommandOptions, type ResolvedCommand } from './resolve-command.js';
