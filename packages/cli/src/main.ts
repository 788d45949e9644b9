// `mcpc`: reads the command line, finds the command and its server, runs it, and turns failures into exit codes.
import { checkFlags, parseCommandLine, type CommandLine } from './args.js';
import type { CliContext } from './context.js';
import type { CommandInfo } from './command.js';
import { ExitCode } from './exit-codes.js';
import { UsageError } from './errors.js';
import { commandHelp, mainHelp } from './help.js';
import { Output, type OutputOptions } from './output.js';
import { COMMANDS, byName } from './registry.js';
import { VERSION } from './version.js';

/** Where a run reads and writes (the process's own streams by default; tests and sessions pass theirs). */
export interface RunIO {
  readonly stdout?: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr?: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Aborts the run (a session's caller went away); Ctrl-C does it for the process's own run. */
  readonly signal?: AbortSignal;
  /** Whether a person can answer prompts (default: stdin and stdout are terminals, no --json). */
  readonly interactive?: boolean;
}

/** The commands that come first (no target before them). */
const LEADING = new Set(COMMANDS.filter((c) => !c.server).map((c) => c.name));

/** What the words ask for: the command, its target word (if it has one) and its own words. */
interface Resolved {
  readonly command: CommandInfo | 'servers' | 'help' | 'close';
  readonly target: string | undefined;
  readonly words: readonly string[];
}

function resolve(line: CommandLine): Resolved {
  const words = line.words;
  const fromFlags = line.trailing.length > 0 || line.flags.stdio !== undefined;
  if (!fromFlags && words.length === 0) return { command: 'servers', target: undefined, words: [] };
  if (!fromFlags && words[0] === 'help') return { command: 'help', target: undefined, words: words.slice(1) };
  // `mcpc doctor --stdio "cmd"` (or `--stdio "cmd" doctor`): a leading command whose target is the flag.
  if (fromFlags && words[0] !== undefined && LEADING.has(words[0]))
    return { command: byName(words[0])!, target: undefined, words: words.slice(1) };
  if (!fromFlags && LEADING.has(words[0]!))
    return { command: byName(words[0]!)!, target: undefined, words: words.slice(1) };
  const target = fromFlags ? undefined : words[0];
  const rest = fromFlags ? words : words.slice(1);
  const name = rest[0] ?? 'info';
  if (name === 'close' && target?.startsWith('@')) return { command: 'close', target, words: rest.slice(1) };
  const info = byName(name);
  if (info === undefined || !info.server) {
    const hint = LEADING.has(name) ? ` (\`${name}\` comes first: mcpc ${name} …)` : '';
    throw new UsageError(`unknown command "${name}"${hint}`);
  }
  return { command: info, target, words: rest.slice(1) };
}

/** Runs `mcpc` with `argv` (without node and the script); resolves with the exit code. */
export async function run(argv: readonly string[], io: RunIO = {}): Promise<number> {
  const json = argv.includes('--json');
  let line: CommandLine;
  try {
    line = parseCommandLine(argv);
  } catch (error) {
    new Output({ json, verbose: 0, ...streams(io) }).error((error as Error).message, 'run `mcpc --help`');
    return ExitCode.Usage;
  }
  const { flags } = line;
  const out = new Output({
    json: flags.json === true,
    verbose: flags.verbose?.length ?? 0,
    noColor: flags['no-color'] === true,
    ...streams(io),
    ...(io.env !== undefined && { env: io.env }),
  });
  if (flags.version === true) {
    out.line(out.json ? JSON.stringify({ version: VERSION }) : `mcpc ${VERSION}`);
    return ExitCode.Ok;
  }
  let resolved: Resolved;
  try {
    resolved = resolve(line);
  } catch (error) {
    if (flags.help === true) {
      out.line(mainHelp());
      return ExitCode.Ok;
    }
    out.error((error as Error).message, 'run `mcpc --help` for the commands');
    return ExitCode.Usage;
  }
  if (resolved.command === 'help' || flags.help === true) {
    const name =
      resolved.command === 'help'
        ? resolved.words[0]
        : typeof resolved.command === 'object'
          ? resolved.command.name
          : undefined;
    const text = name === undefined ? mainHelp() : commandHelp(name);
    if (text === undefined) {
      out.error(`no command "${name}"`, 'run `mcpc --help` for the commands');
      return ExitCode.Usage;
    }
    out.line(text);
    return ExitCode.Ok;
  }

  const stdin = io.stdin ?? process.stdin;
  const stdout = io.stdout ?? process.stdout;
  const abort = new AbortController();
  if (io.signal !== undefined)
    io.signal.addEventListener('abort', () => abort.abort(io.signal?.reason), { once: true });
  const onInterrupt = (): void => {
    // The first Ctrl-C lets the command end cleanly (cancelling what it sent); the second does not wait.
    if (abort.signal.aborted) process.exit(ExitCode.Interrupted);
    abort.abort(new Error('interrupted'));
  };
  const ownProcess = io.signal === undefined;
  if (ownProcess) process.on('SIGINT', onInterrupt);
  const ctx: CliContext = {
    out,
    flags,
    env: io.env ?? process.env,
    cwd: io.cwd ?? process.cwd(),
    stdin,
    interactive: io.interactive ?? (stdin.isTTY === true && stdout.isTTY === true && !out.json),
    signal: abort.signal,
    trailing: line.trailing,
  };
  let targetText: string | undefined;
  try {
    if (resolved.command === 'servers') {
      const { servers } = await import('./commands/servers.js');
      return await servers.run(ctx, [], undefined);
    }
    if (resolved.command === 'close') {
      const { closeSession } = await import('./session/client.js');
      return await closeSession(ctx, resolved.target!.slice(1));
    }
    const info = resolved.command;
    checkFlags(info.name, flags, info.flags);
    if (!info.server) return await (await info.load()).run(ctx, resolved.words, undefined);
    const { splitCommandLine } = await import('./open.js');
    const { targetOf } = await import('./target.js');
    const target = targetOf(resolved.target, line, splitCommandLine);
    targetText = target.text;
    if (target.kind === 'session') {
      const { runInSession } = await import('./session/client.js');
      return await runInSession(ctx, target.session, argv);
    }
    const { openConnection } = await import('./open.js');
    const [command, connection] = await Promise.all([info.load(), openConnection(ctx, target)]);
    try {
      return await command.run(ctx, resolved.words, connection);
    } finally {
      await connection.client.close();
    }
  } catch (error) {
    const { classify, describeFailure } = await import('./failure.js');
    const { code, hint } = classify(error, targetText);
    if (code === ExitCode.Interrupted) out.note('interrupted');
    else {
      const { message, lines } = describeFailure(error, targetText);
      out.error(message, hint);
      // The output layer escapes every line (a server's stderr is untrusted text).
      for (const line of lines) out.note(line);
    }
    if (out.verbose >= 2 && error instanceof Error && error.stack !== undefined) out.debug(error.stack);
    return code;
  } finally {
    if (ownProcess) process.off('SIGINT', onInterrupt);
  }
}

function streams(io: RunIO): Pick<OutputOptions, 'stdout' | 'stderr'> {
  return {
    ...(io.stdout !== undefined && { stdout: io.stdout }),
    ...(io.stderr !== undefined && { stderr: io.stderr }),
  };
}
