// The errors a command raises to pick an exit code (exit-codes.ts): usage, CLI, trust and session errors.
//
// It imports the kernel's errors entry only (not the client): the --help path loads this file.
import { McpError } from '@mcpc/jsonrpc/errors';
import { brand } from './brand.js';
import { CliErrorCode } from './codes.js';
import { ExitCode } from './exit-codes.js';

/** A mistake on the command line: printed with the command's usage, exit 2. */
export class UsageError extends McpError {
  static {
    brand(this, 'UsageError');
  }
  readonly command: string | undefined;
  constructor(message: string, command?: string, options: { cause?: unknown } = {}) {
    super(message, { code: CliErrorCode.Usage, cause: options.cause });
    this.command = command;
  }
}

/** A failure the command has already explained: `message` is printed as is, with `exitCode`. */
export class CliError extends McpError {
  static {
    brand(this, 'CliError');
  }
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  constructor(
    message: string,
    exitCode: ExitCode,
    hint?: string,
    options: { cause?: unknown; /** A subclass's own code. */ code?: CliErrorCode } = {},
  ) {
    super(message, { code: options.code ?? CliErrorCode.Failed, cause: options.cause });
    this.exitCode = exitCode;
    this.hint = hint;
  }
}

/**
 * A server named from a project config file (`.mcp.json`, …) the user has not trusted, or has trusted in
 * another version: nothing it defines is started or contacted until `mcpc trust <file>` (exit 2).
 */
export class UntrustedConfigError extends CliError {
  static {
    brand(this, 'UntrustedConfigError');
  }
  /** The config file, absolute. */
  readonly file: string;
  declare readonly hint: string;
  constructor(message: string, file: string, hint: string) {
    super(message, ExitCode.Usage, hint, { code: CliErrorCode.UntrustedConfig });
    this.file = file;
  }
}

/** Two configured servers that differ carry the name given: mcpc names both rather than pick one (exit 2). */
export class AmbiguousServerError extends CliError {
  static {
    brand(this, 'AmbiguousServerError');
  }
  /** The name given. */
  readonly server: string;
  /** Where each definition is (`Claude Code (./.mcp.json)`). */
  readonly sources: readonly string[];
  declare readonly hint: string;
  constructor(message: string, server: string, sources: readonly string[], hint: string) {
    super(message, ExitCode.Usage, hint, { code: CliErrorCode.AmbiguousServer });
    this.server = server;
    this.sources = sources;
  }
}

/**
 * The sessions directory, a session record or its socket is not safely the user's own (another owner, open
 * to other users, a symbolic link, a socket elsewhere): nothing it names is read, deleted or connected to (exit 1).
 */
export class UnsafeSessionError extends CliError {
  static {
    brand(this, 'UnsafeSessionError');
  }
  /** The path found wrong. */
  readonly path: string;
  declare readonly hint: string;
  constructor(message: string, path: string, hint: string) {
    super(message, ExitCode.Error, hint, { code: CliErrorCode.UnsafeSession });
    this.path = path;
  }
}
