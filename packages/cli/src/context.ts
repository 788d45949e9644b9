// What every command runs with: its output, its flags, the environment, whether a person is at the terminal.
import type { Client, Server } from '@mcpc/client';
import type { Flags } from './args.js';
import type { Output } from './output.js';

export interface CliContext {
  readonly out: Output;
  readonly flags: Flags;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** A person can answer prompts: stdin and stdout are terminals and --json is off. */
  readonly interactive: boolean;
  /** Fires on Ctrl-C (or when a session's caller goes away). */
  readonly signal: AbortSignal;
  /** The command line after `--` (a server to spawn), for commands that name their own target. */
  readonly trailing?: readonly string[];
  /** Runs the lines a person types in `mcpc shell` (given at the top level only). */
  readonly lines?: LineRunner;
  /** The run's tracing, when `OTEL_*` or `--trace` turned it on (the client then traces its requests). */
  readonly telemetry?: Telemetry;
}

/** A traced run, as the commands see it: a step of their own gets a span, the client's requests its children. */
export interface Telemetry {
  /** Runs `work` inside a span named `name` (a child of the span active now). */
  step<T>(name: string, work: () => Promise<T>): Promise<T>;
}

/**
 * The dispatcher as the shell sees it: the commands a line may start with, and how one line runs on the open
 * connection. Handed to commands through the context, so that no command imports the dispatcher (or the table).
 */
export interface LineRunner {
  /** The words a line may start with, `help` and `exit` included (for completion). */
  readonly commands: readonly string[];
  /** Runs one line (its failure already printed); resolves with its exit code, and what failed if it threw. */
  run(line: string, connection: Connection, signal: AbortSignal): Promise<Outcome>;
}

/** How a command line ended: its exit code, and the error it threw (already printed) if it threw one. */
export interface Outcome {
  readonly code: number;
  readonly failure?: unknown;
}

/** The server a command talks to, connected. */
export interface Connection {
  readonly client: Client;
  readonly server: Server;
  /** The target as the user gave it (`https://…`, a config name, `@session`), for messages. */
  readonly target: string;
}
