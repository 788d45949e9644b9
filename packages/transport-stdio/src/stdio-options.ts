// The stdio transport's options, their defaults, and the check every numeric option goes through.
import type { Logger } from '@mcpc/jsonrpc';

/** 128 MiB: room for a 64 MiB binary result once base64 has grown it by a third. */
export const DEFAULT_MAX_MESSAGE_BYTES = 128 * 1024 * 1024;
export const DEFAULT_STDERR_TAIL_BYTES = 8 * 1024;
export const DEFAULT_STDIN_CLOSE_MS = 2_000;
export const DEFAULT_SIGTERM_MS = 2_000;

export interface ShutdownTimeouts {
  /** How long to wait for the server to exit once its stdin is closed, before SIGTERM (2000 ms). */
  readonly stdinCloseMs?: number;
  /** How long to wait after SIGTERM before SIGKILL (2000 ms). */
  readonly sigtermMs?: number;
}

export interface StdioTransportOptions {
  /** The program to run. Never run through a shell; on Windows `.cmd` shims such as `npx` are handled. */
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to the safe default environment (see `defaultEnvironment`); nothing else is inherited. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Receives the server's stderr as text, as it arrives. Without it, stderr is still read and its tail kept. */
  readonly onStderr?: (chunk: string) => void;
  /** How much of the end of stderr to keep for error messages (8 KiB). */
  readonly stderrTailBytes?: number;
  /** The longest line accepted from the server (128 MiB); a longer one closes the transport. */
  readonly maxMessageBytes?: number;
  readonly shutdownTimeouts?: ShutdownTimeouts;
  /** Defaults to warnings and errors on `console`. */
  readonly logger?: Logger;
}

/** A numeric option: its default when absent, a RangeError when not a finite number of at least `min`. */
export function count(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new RangeError(`${name} must be a finite number of at least ${min}, not ${String(value)}`);
  }
  return Math.floor(value);
}
