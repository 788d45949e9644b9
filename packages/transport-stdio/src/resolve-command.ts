// How to run a command without a shell: as given on POSIX, resolved through PATH and PATHEXT on Windows.
import { statSync } from 'node:fs';
import { win32 } from 'node:path';
import { readVariable } from './environment.js';

export interface ResolveCommandOptions {
  /** Defaults to `process.platform`. Only `'win32'` changes anything. */
  readonly platform?: NodeJS.Platform;
  /** The child's environment: its PATH, PATHEXT and ComSpec are the ones used. Defaults to `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The child's working directory, against which a relative command path is looked up. */
  readonly cwd?: string;
}

/** What to hand to `child_process.spawn` (always without `shell`). */
export interface ResolvedCommand {
  readonly command: string;
  readonly args: readonly string[];
  /** True when `args` are already quoted for `cmd.exe`; pass it on as spawn's `windowsVerbatimArguments`. */
  readonly windowsVerbatimArguments: boolean;
}

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';
const BATCH_FILE = /\.(?:bat|cmd)$/i;
// Windows drops trailing dots and spaces from file names, so `cmd.exe` runs `foo.cmd. ` as `foo.cmd`
// (CVE-2024-36138): judge the name the way Windows will.
const TRAILING_DOTS_AND_SPACES = /[.\s]+$/;
// cmd.exe treats CR and LF as command separators and offers no escape for them.
const LINE_BREAK = /[\r\n]/;

/**
 * How to run `command` without a shell. On POSIX: as given. On Windows, `npx`, `pnpm` and most Node
 * tool launchers are `.cmd` batch shims that CreateProcess cannot run, so the command is looked up on
 * PATH with PATHEXT, and a batch file is run through `cmd.exe /d /e:on /v:off /s /c` with every
 * argument quoted so that neither of the two parses cmd.exe gives a batch file's `%*` can split it or
 * expand anything in it. Throws a `TypeError` for a line break in a command or argument bound for
 * `cmd.exe`, which no quoting can make safe.
 */
export function resolveCommand(
  command: string,
  args: readonly string[] = [],
  options: ResolveCommandOptions = {},
): ResolvedCommand {
  const platform = options.platform ?? process.platform;
  if (platform !== 'win32') return { command, args: [...args], windowsVerbatimArguments: false };

  const env = options.env ?? process.env;
  // File names cannot contain quotes and cmd.exe ignores them in command names; a quoted `"x.cmd"`
  // must not slip past the batch-file check below.
  const name = command.replace(/"/g, '');
  const file = findExecutable(name, env, options.cwd);
  const target = file ?? name;
  if (!BATCH_FILE.test(target.replace(TRAILING_DOTS_AND_SPACES, ''))) {
    return { command: file ?? command, args: [...args], windowsVerbatimArguments: false };
  }
  const line = [quoteBatchCommand(win32.normalize(target)), ...args.map(quoteBatchArgument)].join(' ');
  const shell = readVariable(env, 'ComSpec') ?? 'cmd.exe';
  return { command: shell, args: ['/d', '/e:on', '/v:off', '/s', '/c', `"${line}"`], windowsVerbatimArguments: true };
}

/** The file Windows would run for `command`, searching PATH with PATHEXT as `where` does, or undefined. */
function findExecutable(
  command: string,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string | undefined,
): string | undefined {
  const extensions = (readVariable(env, 'PATHEXT') ?? DEFAULT_PATHEXT).split(';').filter((e) => e.length > 0);
  const lower = command.toLowerCase();
  // A bare name is never tried as-is: next to `npx.cmd` sits `npx`, a shell script Windows cannot run.
  const suffixes = extensions.some((e) => lower.endsWith(e.toLowerCase())) ? ['', ...extensions] : extensions;

  let directories: string[];
  if (/[\\/]/.test(command)) {
    directories = [win32.isAbsolute(command) || cwd === undefined ? '' : cwd];
  } else {
    // The current directory is deliberately not searched: a planted `npx.cmd` there must not win.
    directories = (readVariable(env, 'PATH') ?? '')
      .split(';')
      .map((d) => d.replace(/"/g, '').trim())
      .filter((d) => d.length > 0);
  }
  for (const directory of directories) {
    for (const suffix of suffixes) {
      // Lower case first: shims are named `npx.cmd` while PATHEXT says `.CMD`; case only matters off Windows.
      for (const ext of new Set([suffix.toLowerCase(), suffix])) {
        const candidate = join(directory, command + ext);
        if (isFile(candidate)) return candidate;
      }
    }
  }
  return undefined;
}

/** Joins with the separator the PATH entry itself uses, so the lookup also works where `\` is not one. */
function join(directory: string, name: string): string {
  if (directory === '') return name;
  if (/[\\/]$/.test(directory)) return directory + name;
  return directory + (directory.includes('/') && !directory.includes('\\') ? '/' : '\\') + name;
}

function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

function assertNoLineBreaks(value: string): void {
  if (LINE_BREAK.test(value))
    throw new TypeError('a command or argument run through cmd.exe cannot contain a line break');
}

// `%VAR%` expands even inside quotes and after `^`; `%cd:~,%` is an empty slice of a dynamic variable
// that breaks the expansion up. Done after quoting, so the replacement itself is not escaped.
const escapePercent = (value: string): string => value.replace(/%/g, '%%cd:~,%');

function quoteBatchCommand(command: string): string {
  assertNoLineBreaks(command);
  return `"${escapePercent(command)}"`;
}

/**
 * Quoting that survives both parses: MSVCRT rules (backslashes double only before a quote), with
 * quotes doubled rather than backslash-escaped, so cmd.exe's own quote tracking stays balanced and
 * every metacharacter stays inside quotes. The approach Rust and cross-spawn took after BatBadBut.
 */
function quoteBatchArgument(argument: string): string {
  assertNoLineBreaks(argument);
  let quoted = '"';
  let backslashes = 0;
  for (const char of argument) {
    if (char === '\\') {
      backslashes += 1;
      continue;
    }
    quoted += char === '"' ? '\\'.repeat(backslashes * 2) + '""' : '\\'.repeat(backslashes) + char;
    backslashes = 0;
  }
  return escapePercent(`${quoted}${'\\'.repeat(backslashes * 2)}"`);
}
