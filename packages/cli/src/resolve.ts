// What a command line's words ask for, at the top level, on a shell line or in a session: the command, target, words.
import type { CommandLine } from './args.js';
import type { CommandInfo } from './command.js';
import { UsageError } from './errors.js';
import { oneLine } from './output.js';
import { COMMANDS, byName } from './registry.js';

/**
 * Where the words come from: `mcpc …` itself (`top`), a line typed in `mcpc shell` (`shell`: the connection is
 * open, so no target), or a session's daemon running `mcpc @name …` for a caller (`session`: the target is `@name`).
 */
export type Mode = 'top' | 'shell' | 'session';

/** What the words ask for. */
export type Resolved =
  /** `mcpc` alone: the configured servers and open sessions. */
  | { readonly kind: 'servers' }
  /** `help [command]` (`mcpc help`, or `help` in the shell). */
  | { readonly kind: 'help'; readonly topic: string | undefined }
  /** `mcpc @name close`. */
  | { readonly kind: 'close'; readonly session: string }
  /** A shell line of flags alone: nothing to run. */
  | { readonly kind: 'nothing' }
  /** A command of the table, the target word before it (top level, server commands), and its own words. */
  | {
      readonly kind: 'command';
      readonly info: CommandInfo;
      readonly target: string | undefined;
      readonly words: readonly string[];
    };

/** The commands that come first (no target before them). */
const LEADING = new Set(COMMANDS.filter((c) => !c.server).map((c) => c.name));

/**
 * The commands a shell line may start with: every server command of the table that does not stream (each
 * runs on the open connection), then the shell's own.
 */
export const SHELL_COMMANDS: readonly string[] = [
  ...COMMANDS.filter((c) => c.server && c.streams !== true).map((c) => c.name),
  'help',
  'exit',
];

/** The command a command line names, in `mode`; a UsageError saying what is wrong otherwise. */
export function resolveWords(line: CommandLine, mode: Mode): Resolved {
  switch (mode) {
    case 'top':
      return resolveTop(line);
    case 'shell':
      return resolveShellLine(line);
    case 'session':
      return resolveInSession(line);
  }
}

function resolveTop(line: CommandLine): Resolved {
  const words = line.words;
  const fromFlags = line.trailing.length > 0 || line.flags.stdio !== undefined;
  if (!fromFlags && words.length === 0) return { kind: 'servers' };
  if (!fromFlags && words[0] === 'help') return { kind: 'help', topic: words[1] };
  // `mcpc doctor --stdio "cmd"` (or `--stdio "cmd" doctor`): a leading command whose target is the flag.
  if (words[0] !== undefined && LEADING.has(words[0]))
    return { kind: 'command', info: byName(words[0])!, target: undefined, words: words.slice(1) };
  const target = fromFlags ? undefined : words[0];
  const rest = fromFlags ? words : words.slice(1);
  const name = rest[0] ?? 'info';
  if (name === 'close' && target?.startsWith('@')) return { kind: 'close', session: target.slice(1) };
  const info = byName(name);
  if (info === undefined || !info.server) {
    const hint = LEADING.has(name) ? ` (\`${name}\` comes first: mcpc ${name} …)` : '';
    throw new UsageError(`unknown command "${name}"${hint}`);
  }
  return { kind: 'command', info, target, words: rest.slice(1) };
}

function resolveShellLine(line: CommandLine): Resolved {
  const [name, ...words] = line.words;
  if (name === undefined) return { kind: 'nothing' };
  if (name === 'help') return { kind: 'help', topic: words[0] };
  const info = byName(name);
  if (info === undefined || !info.server || !SHELL_COMMANDS.includes(name))
    throw new UsageError(`unknown command "${oneLine(name, 40)}" (help lists them)`);
  if (line.trailing.length > 0 || line.flags.stdio !== undefined)
    throw new UsageError('the shell is connected already: no --stdio or -- here');
  return { kind: 'command', info, target: undefined, words };
}

/** A caller's argv (`@name <command> …`): the session is the target, so the `@name` word is dropped. */
function resolveInSession(line: CommandLine): Resolved {
  const [first, ...rest] = line.words;
  if (first === undefined || !first.startsWith('@')) throw new UsageError('a session runs `mcpc @name <command> …`');
  const name = rest[0] ?? 'info';
  const info = byName(name);
  if (info === undefined || !info.server) throw new UsageError(`unknown command "${name}" for a session`);
  return { kind: 'command', info, target: first, words: rest.slice(1) };
}
