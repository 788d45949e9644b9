// The one way a command line runs (top level, shell line, session request): resolve, check, run, print what failed.
import { isAbsolute, resolve as resolvePath } from 'node:path';
import { Readable } from 'node:stream';
import { checkFlags, parseCommandLine, type CommandLine, type Flags } from './args.js';
import type { CommandInfo } from './command.js';
import type { CliContext, Connection, Outcome } from './context.js';
import { ExitCode } from './exit-codes.js';
import { UsageError } from './errors.js';
import { commandHelp, mainHelp, shellHelp } from './help.js';
import { Output, safe } from './output.js';
import { SHELL_COMMANDS, resolveWords, type Mode, type Resolved } from './resolve.js';
import type { SessionRequest } from './session/requests.js';
import { exportRequested, otlpPlan } from './telemetry/env.js';
import { VERSION } from './version.js';

/** Where a top-level run reads and writes (the process's own streams by default; tests pass theirs). */
export interface RunIO {
  readonly stdout?: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr?: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Aborts the run; Ctrl-C does it for the process's own run (no signal given). */
  readonly signal?: AbortSignal;
  /** Whether a person can answer prompts (default: stdin and stdout are terminals, no --json). */
  readonly interactive?: boolean;
}

/** A command line to run, and where it came from. */
export type DispatchRequest =
  | { readonly mode: 'top'; readonly argv: readonly string[]; readonly io?: RunIO }
  | {
      readonly mode: 'shell';
      readonly line: string;
      /** The context `mcpc shell` runs with: the line's flags are laid over its own. */
      readonly parent: CliContext;
      readonly connection: Connection;
      /** Ctrl-C while the line runs. */
      readonly signal: AbortSignal;
    }
  | { readonly mode: 'session'; readonly argv: readonly string[]; readonly session: SessionRequest };

const OK: Outcome = { code: ExitCode.Ok };

/** Runs one command line; every failure is printed here, and only here. */
export async function dispatch(request: DispatchRequest): Promise<Outcome> {
  const { mode } = request;
  let line: CommandLine;
  try {
    line = await parse(request);
  } catch (error) {
    return report(outputFor(request, fallbackFlags(request)), error, mode, targetOf(request));
  }
  const flags = flagsFor(request, line);
  const out = outputFor(request, flags);
  if (mode === 'top' && flags.version === true) {
    out.line(out.json ? JSON.stringify({ version: VERSION }) : `mcpc ${VERSION}`);
    return OK;
  }
  let resolved: Resolved;
  try {
    resolved = resolveWords(line, mode);
  } catch (error) {
    if (mode === 'top' && flags.help === true) return print(out, mainHelp());
    return report(out, error, mode, targetOf(request));
  }
  if (resolved.kind === 'help' || flags.help === true) return help(out, mode, resolved);
  if (resolved.kind === 'nothing') return OK;

  const { ctx, release } = contextFor(request, out, flags, line);
  let target = targetOf(request);
  try {
    switch (resolved.kind) {
      case 'servers': {
        const { servers } = await import('./commands/servers.js');
        return { code: await servers.run(ctx, [], undefined) };
      }
      case 'close': {
        const { closeSession } = await import('./session/client.js');
        return { code: await closeSession(ctx, resolved.session) };
      }
      case 'command': {
        checkFlags(resolved.info.name, flags, resolved.info.flags);
        const code = await runCommand(request, ctx, resolved, line, (text) => (target = text));
        return { code };
      }
    }
  } catch (error) {
    return report(out, error, mode, target, ctx.signal);
  } finally {
    release();
  }
}

/** The words as flags, words and what follows `--` (a shell line is split as a shell would first). */
async function parse(request: DispatchRequest): Promise<CommandLine> {
  if (request.mode !== 'shell') return parseCommandLine(request.argv);
  const { splitCommandLine } = await import('./open.js');
  return parseCommandLine(splitCommandLine(request.line));
}

/** The flags a command runs with: its line's, laid over the shell's own for a shell line (whose target is open). */
function flagsFor(request: DispatchRequest, line: CommandLine): Flags {
  if (request.mode !== 'shell') return line.flags;
  const flags: Flags = { ...request.parent.flags, ...line.flags };
  delete flags.stdio;
  return flags;
}

/** The flags that shape how a line that cannot be parsed is reported. */
function fallbackFlags(request: DispatchRequest): Flags {
  if (request.mode === 'shell') return request.parent.flags;
  return request.mode === 'top' && request.argv.includes('--json') ? { json: true } : {};
}

/** The target named in messages before the command names its own (a shell's or a session's connection). */
function targetOf(request: DispatchRequest): string | undefined {
  if (request.mode === 'shell') return request.connection.target;
  if (request.mode === 'session') return request.session.target;
  return undefined;
}

function outputFor(request: DispatchRequest, flags: Flags): Output {
  const json = flags.json === true;
  const noColor = flags['no-color'] === true;
  const verbose = flags.verbose?.length;
  switch (request.mode) {
    case 'top': {
      const io = request.io ?? {};
      return new Output({
        json,
        verbose: verbose ?? 0,
        noColor,
        ...(io.stdout !== undefined && { stdout: io.stdout }),
        ...(io.stderr !== undefined && { stderr: io.stderr }),
        ...(io.env !== undefined && { env: io.env }),
      });
    }
    case 'shell': {
      const { out, env } = request.parent;
      return new Output({
        json,
        verbose: verbose ?? out.verbose,
        noColor,
        stdout: out.stdout,
        stderr: out.stderr,
        env,
      });
    }
    case 'session': {
      const { session } = request;
      return new Output({
        json,
        verbose: verbose ?? 0,
        noColor: noColor || session.noColor,
        stdout: session.stdout,
        stderr: session.stderr,
      });
    }
  }
}

/** The context a command runs with, and what to undo after it (the Ctrl-C handler of the process's own run). */
function contextFor(
  request: DispatchRequest,
  out: Output,
  flags: Flags,
  line: CommandLine,
): { ctx: CliContext; release: () => void } {
  const none = (): void => undefined;
  switch (request.mode) {
    case 'shell': {
      const { parent } = request;
      // The line's stdin is empty, so `--args -` cannot eat the shell's own input.
      const ctx: CliContext = {
        ...parent,
        out,
        flags,
        stdin: Readable.from([]),
        signal: AbortSignal.any([parent.signal, request.signal]),
      };
      return { ctx, release: none };
    }
    case 'session': {
      const { session } = request;
      const ctx: CliContext = {
        out,
        flags,
        env: process.env,
        cwd: session.cwd,
        stdin: session.stdin,
        interactive: false,
        signal: session.signal,
      };
      return { ctx, release: none };
    }
    case 'top': {
      const io = request.io ?? {};
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
        lines: {
          commands: SHELL_COMMANDS,
          run: (text, connection, signal) => dispatch({ mode: 'shell', line: text, parent: ctx, connection, signal }),
        },
      };
      return { ctx, release: () => void (ownProcess && process.off('SIGINT', onInterrupt)) };
    }
  }
}

/** Loads the command and runs it on its server: opened here (top level), the shell's, or the session's. */
async function runCommand(
  request: DispatchRequest,
  ctx: CliContext,
  resolved: { readonly info: CommandInfo; readonly target: string | undefined; readonly words: readonly string[] },
  line: CommandLine,
  named: (target: string) => void,
): Promise<number> {
  const { info, words } = resolved;
  switch (request.mode) {
    case 'shell':
      if (ctx.flags.trace === true) throw noTrace(info.name, 'in a shell');
      return (await info.load()).run(ctx, words, request.connection);
    case 'session': {
      const { session } = request;
      // Paths are the caller's: relative ones are taken from its directory, not the daemon's.
      for (const key of ['args-file', 'output'] as const) {
        const value = ctx.flags[key];
        if (value !== undefined && value !== '-' && !isAbsolute(value))
          ctx.flags[key] = resolvePath(session.cwd, value);
      }
      const [command, connection] = await Promise.all([info.load(), session.connection(ctx)]);
      return command.run(ctx, words, { ...connection, target: `@${session.name}` });
    }
    case 'top': {
      const run = async (ctx: CliContext): Promise<number> => {
        if (!info.server) return (await info.load()).run(ctx, words, undefined);
        const { openConnection, splitCommandLine } = await import('./open.js');
        const { targetOf: targetOfLine } = await import('./target.js');
        const target = targetOfLine(resolved.target, line, splitCommandLine);
        named(target.text);
        if (target.kind === 'session') {
          if (ctx.flags.trace === true) throw noTrace(info.name, 'through a session (@name)');
          const { runInSession } = await import('./session/client.js');
          return runInSession(ctx, target.session, request.argv);
        }
        const [command, connection] = await Promise.all([info.load(), openConnection(ctx, target)]);
        try {
          return await command.run(ctx, words, connection);
        } finally {
          await connection.client.close();
        }
      };
      // Tracing (OTLP export, --trace) is loaded only when asked for: without it a run loads nothing more.
      if (ctx.flags.trace !== true && !exportRequested(ctx.env)) return run(ctx);
      const { traced } = await import('./telemetry/run.js');
      // The variables are read here: env.ts stays in the dispatcher's chunk, not one more file before --help.
      return traced(ctx, `mcpc ${info.name}`, otlpPlan(ctx.env), run);
    }
  }
}

/** `--trace` where the run has no connection of its own to trace (a shell's line, a session's command). */
const noTrace = (command: string, where: string): UsageError =>
  new UsageError(`--trace traces a connection of its own: it does not run ${where}`, command);

/** `help [command]`, or `--help`: the whole help (the shell's in a shell), or one command's. */
function help(out: Output, mode: Mode, resolved: Resolved): Promise<Outcome> | Outcome {
  const topic =
    resolved.kind === 'help' ? resolved.topic : resolved.kind === 'command' ? resolved.info.name : undefined;
  const text = topic === undefined ? (mode === 'shell' ? shellHelp() : mainHelp()) : commandHelp(topic);
  if (text === undefined) return report(out, new UsageError(`no command "${topic}"`), mode, undefined);
  return print(out, text);
}

function print(out: Output, text: string): Outcome {
  out.line(text);
  return OK;
}

/**
 * The one place a failure is printed: its exit code and hint (`classify`), the CLI's words for it and the
 * server's stderr tail (`describeFailure`), the stack with -vv. A failure after Ctrl-C is just "interrupted".
 */
async function report(
  out: Output,
  error: unknown,
  mode: Mode,
  target: string | undefined,
  signal?: AbortSignal,
): Promise<Outcome> {
  // Loaded on failure only: it reads the client's error classes, which `--help` need not load.
  const { classify, describeFailure } = await import('./failure.js');
  const { code, hint } = classify(error, target);
  if (code === ExitCode.Interrupted || signal?.aborted === true) {
    out.note('interrupted');
    return { code: ExitCode.Interrupted, failure: error };
  }
  const { message, lines } = describeFailure(error, target);
  // A usage mistake in the shell needs no pointer to `mcpc --help`: `help` is right there.
  out.error(safe(message, 2_000), mode === 'shell' && error instanceof UsageError ? undefined : hint);
  // The output layer escapes every line (a server's stderr is untrusted text).
  for (const text of lines) out.note(text);
  if (out.verbose >= 2 && error instanceof Error && error.stack !== undefined) out.debug(error.stack);
  return { code, failure: error };
}
