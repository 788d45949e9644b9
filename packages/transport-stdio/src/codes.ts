// The `code` strings of the errors @mcpc/transport-stdio raises, one constant each: match on these, not on literals.
//
// A process exit is the kernel's `TransportErrorCode.ProcessExit`: the client decides on it.

export const StdioErrorCode = Object.freeze({
  /** `SpawnError`: the server process could not be started. */
  SpawnFailed: 'MCPC_SPAWN_FAILED',
  /** `StdinWriteError`: writing to the server's stdin failed. */
  WriteFailed: 'MCPC_WRITE_FAILED',
  /** `TransportError`: `start()` was called a second time. */
  AlreadyStarted: 'MCPC_ALREADY_STARTED',
  /** `TransportError`: `send()` before `start()`, or after the close. */
  NotStarted: 'MCPC_NOT_STARTED',
  /** `TransportError`: the message cannot be serialized as JSON. */
  EncodeFailed: 'MCPC_ENCODE_FAILED',
  /** `TransportError`: reading the server's stdout failed. */
  ReadFailed: 'MCPC_READ_FAILED',
  /** `TransportError`: the server closed its stdout while still running. */
  StdoutClosed: 'MCPC_STDOUT_CLOSED',
} as const);
export type StdioErrorCode = (typeof StdioErrorCode)[keyof typeof StdioErrorCode];
