// Which server a command line names: a URL, a command to spawn, a configured name or a session.
import type { CommandLine } from './args.js';
import { UsageError } from './errors.js';

/** A server as the command line named it. */
export type Target =
  | { readonly kind: 'url'; readonly url: string; readonly text: string }
  | { readonly kind: 'command'; readonly argv: readonly string[]; readonly text: string }
  | { readonly kind: 'name'; readonly name: string; readonly text: string }
  | { readonly kind: 'session'; readonly session: string; readonly text: string };

/** The target word (or `--stdio`, or what follows `--`) as a target. */
export function targetOf(
  word: string | undefined,
  line: CommandLine,
  splitCommandLine: (s: string) => string[],
): Target {
  if (line.trailing.length > 0) {
    if (line.flags.stdio !== undefined)
      throw new UsageError('give the server either with --stdio or after --, not both');
    return { kind: 'command', argv: line.trailing, text: line.trailing.join(' ') };
  }
  if (line.flags.stdio !== undefined) {
    const argv = splitCommandLine(line.flags.stdio);
    if (argv.length === 0) throw new UsageError('--stdio needs a command line');
    return { kind: 'command', argv, text: line.flags.stdio };
  }
  if (word === undefined)
    throw new UsageError('this command needs a target: a URL, --stdio "cmd", a server name or @session');
  if (word.startsWith('@')) {
    if (!/^@[\w.-]{1,64}$/.test(word)) throw new UsageError(`"${word}" is no session name (letters, digits, . _ -)`);
    return { kind: 'session', session: word.slice(1), text: word };
  }
  if (/^https?:\/\//i.test(word)) {
    if (!URL.canParse(word)) throw new UsageError(`"${word}" is not a valid URL`);
    return { kind: 'url', url: word, text: word };
  }
  if (/^stdio:\/\//i.test(word)) {
    const argv = splitCommandLine(word.slice('stdio://'.length));
    return { kind: 'command', argv, text: word };
  }
  return { kind: 'name', name: word, text: word };
}

/** A command line as one string `splitCommandLine` reads back into the same words (POSIX single quotes). */
export function quoteCommandLine(argv: readonly string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
