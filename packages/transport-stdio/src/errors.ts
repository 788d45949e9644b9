// The stdio transport's errors: spawn failures, process exits (with the stderr tail), stdin write failures.
import { TransportError, TransportErrorCode, escapeForLog } from '@mcpc/jsonrpc';
import { brand } from './brand.js';
import { StdioErrorCode } from './codes.js';

// What a user can do about the usual spawn failures; the raw errno alone sends people searching.
const HINTS: Readonly<Record<string, string>> = {
  ENOENT: 'the command was not found; check that it is installed and on PATH',
  EACCES: 'permission denied; check that the file is executable',
  EPERM: 'the operation is not permitted',
  ENOTDIR: 'a component of the command path is not a directory',
  EINVAL: 'the command or its arguments are not valid',
  EMFILE: 'this process has too many open files',
  ENFILE: 'the system has too many open files',
  EAGAIN: 'the system refused to create another process',
  E2BIG: 'the arguments and environment are too large',
};

/** How much of the stderr tail goes into an error message; the full tail stays on `stderrTail`. */
const MESSAGE_TAIL_CHARS = 500;

/** The server process could not be started. `start()` rejects with it; no sink method is called. */
export class SpawnError extends TransportError {
  static {
    brand(this, 'SpawnError');
  }
  /** The command as the caller gave it. */
  readonly command: string;
  /** The system error code (`'ENOENT'`, `'EACCES'`, …), when the system gave one. */
  readonly errno: string | undefined;
  /** The failing system call (`'spawn node'`), when known. */
  readonly syscall: string | undefined;

  constructor(command: string, cause: unknown, options?: { detail?: string }) {
    const errno = readString(cause, 'code');
    const hint = options?.detail ?? (errno === undefined ? undefined : HINTS[errno]);
    const what = errno ?? (cause instanceof Error ? escapeForLog(cause.message) : 'unknown error');
    super(
      `could not start the server process "${escapeForLog(command, 100)}": ${what}${hint === undefined ? '' : ` (${hint})`}`,
      {
        code: StdioErrorCode.SpawnFailed,
        cause,
      },
    );
    this.command = command;
    this.errno = errno;
    this.syscall = readString(cause, 'syscall');
  }
}

/**
 * The server process exited without being asked to. The transport closes with it as the cause, so
 * requests pending at that moment reject with a `ConnectionClosedError` whose `cause` is this error.
 */
export class ProcessExitError extends TransportError {
  static {
    brand(this, 'ProcessExitError');
  }
  readonly command: string;
  /** The exit code, or null when a signal ended the process. */
  readonly exitCode: number | null;
  /** The signal that ended the process, or null when it exited by itself. */
  readonly signal: NodeJS.Signals | null;
  /** The last bytes the process wrote to stderr (bounded by `stderrTailBytes`); untrusted text. */
  readonly stderrTail: string;

  constructor(command: string, exitCode: number | null, signal: NodeJS.Signals | null, stderrTail: string) {
    const how = signal === null ? `exited with code ${exitCode ?? 'unknown'}` : `was killed by ${signal}`;
    super(`the server process "${escapeForLog(command, 100)}" ${how}${describeTail(stderrTail)}`, {
      code: TransportErrorCode.ProcessExit,
    });
    this.command = command;
    this.exitCode = exitCode;
    this.signal = signal;
    this.stderrTail = stderrTail;
  }
}

/**
 * Writing to the server's stdin failed: the server closed it (a broken pipe: `EPIPE`) or the pipe
 * failed otherwise. The request being written rejects with it, and the transport closes with it as
 * the cause, since nothing sent from then on can reach the server.
 */
export class StdinWriteError extends TransportError {
  static {
    brand(this, 'StdinWriteError');
  }
  readonly command: string;
  /** The system error code (`'EPIPE'`, …), when the system gave one. */
  readonly errno: string | undefined;

  constructor(command: string, cause: unknown) {
    const errno = readString(cause, 'code');
    const name = `the server process "${escapeForLog(command, 100)}"`;
    const message =
      errno === 'EPIPE' || errno === 'ECONNRESET'
        ? `${name} closed its stdin (broken pipe, ${errno}): it no longer reads what is sent, so the connection is lost`
        : `could not write to the stdin of ${name}${cause instanceof Error ? `: ${escapeForLog(cause.message, 200)}` : ''}`;
    super(message, { code: StdioErrorCode.WriteFailed, cause });
    this.command = command;
    this.errno = errno;
  }
}

/** The end of what the server printed is where its last words are, so the message keeps the end. */
function describeTail(tail: string): string {
  const text = tail.trim();
  if (text.length === 0) return ' (it wrote nothing to stderr)';
  const cut = text.length > MESSAGE_TAIL_CHARS ? `…${text.slice(-MESSAGE_TAIL_CHARS)}` : text;
  return `: ${escapeForLog(cut, MESSAGE_TAIL_CHARS + 1)}`;
}

function readString(value: unknown, key: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === 'string' ? field : undefined;
}

// This package's errors in `AnyMcpcError` (see @mcpc/jsonrpc's `McpcErrors`).
declare module '@mcpc/jsonrpc' {
  interface McpcErrors {
    /** The transport used out of order, or its pipes failing under it. */
    '@mcpc/transport-stdio.TransportError': TransportError & {
      readonly code:
        | typeof StdioErrorCode.AlreadyStarted
        | typeof StdioErrorCode.NotStarted
        | typeof StdioErrorCode.EncodeFailed
        | typeof StdioErrorCode.ReadFailed
        | typeof StdioErrorCode.StdoutClosed;
    };
    '@mcpc/transport-stdio.ProcessExitError': ProcessExitError & {
      readonly code: typeof TransportErrorCode.ProcessExit;
    };
    '@mcpc/transport-stdio.SpawnError': SpawnError & { readonly code: typeof StdioErrorCode.SpawnFailed };
    '@mcpc/transport-stdio.StdinWriteError': StdinWriteError & { readonly code: typeof StdioErrorCode.WriteFailed };
  }
}
