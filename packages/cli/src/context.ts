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
}

/** The server a command talks to, connected. */
export interface Connection {
  readonly client: Client;
  readonly server: Server;
  /** The target as the user gave it (`https://…`, a config name, `@session`), for messages. */
  readonly target: string;
}
