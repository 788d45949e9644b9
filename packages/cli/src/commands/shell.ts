// `mcpc shell <target>`: one connection, a prompt with history and tab completion, each line run as an mcpc command.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { checkFlags, parseCommandLine } from '../args.js';
import { mcpcDir } from '../auth/paths.js';
import type { CliContext, Connection } from '../context.js';
import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { UsageError } from '../errors.js';
import { classify } from '../failure.js';
import { commandHelp } from '../help.js';
import { LineReader, shareReader } from '../interact/terminal.js';
import { openConnection, splitCommandLine } from '../open.js';
import { Output, oneLine, safe } from '../output.js';
import { byName, COMMANDS } from '../registry.js';
import { LOGGING_LEVELS } from '@mcpc/client/constants';
import { targetOf } from '../target.js';

/**
 * The commands a shell line may start with: every server command of the table that does not stream (each
 * runs on the open connection), then the shell's own.
 */
export const SHELL_COMMANDS: readonly string[] = [
  ...COMMANDS.filter((c) => c.server && c.streams !== true).map((c) => c.name),
  'help',
  'exit',
];
const HISTORY_LINES = 1_000;
/** Lines read before the shell stops on its own (a bound, not a limit anyone meets). */
const MAX_LINES = 1_000_000;

/** Where the history is kept: `<config dir>/mcpc/history`. */
export const historyPath = (env: NodeJS.ProcessEnv): string => join(mcpcDir(env), 'history');

function loadHistory(path: string): string[] {
  try {
    // The file has the oldest line first; readline wants the newest first.
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .slice(-HISTORY_LINES)
      .reverse();
  } catch {
    return [];
  }
}

function saveHistory(path: string, newestFirst: readonly string[]): void {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const lines = newestFirst.slice(0, HISTORY_LINES).reverse();
    writeFileSync(path, lines.length > 0 ? `${lines.join('\n')}\n` : '', { mode: 0o600 });
    chmodSync(path, 0o600);
  } catch {
    // History is a convenience: a read-only config dir must not stop the shell.
  }
}

/** What completion knows of the server, fetched once on first use. */
class Names {
  #tools: Promise<{ name: string; args: string[] }[]> | undefined;
  #prompts: Promise<{ name: string; args: string[] }[]> | undefined;
  #resources: Promise<string[]> | undefined;
  constructor(private readonly connection: Connection) {}

  tools(): Promise<{ name: string; args: string[] }[]> {
    this.#tools ??= this.connection.server
      .listTools()
      .then((list) =>
        list.map((t) => ({
          name: t.name,
          args: Object.keys((t.inputSchema.properties as Record<string, unknown> | undefined) ?? {}),
        })),
      )
      .catch(() => []);
    return this.#tools;
  }

  prompts(): Promise<{ name: string; args: string[] }[]> {
    this.#prompts ??= this.connection.server
      .listPrompts()
      .then((list) => list.map((p) => ({ name: p.name, args: (p.arguments ?? []).map((a) => a.name) })))
      .catch(() => []);
    return this.#prompts;
  }

  resources(): Promise<string[]> {
    this.#resources ??= this.connection.server
      .listResources()
      .then((list) => list.map((r) => r.uri))
      .catch(() => []);
    return this.#resources;
  }

  /** Forgets the lists (after a call that may have changed them). */
  reset(): void {
    this.#tools = this.#prompts = this.#resources = undefined;
  }
}

/** The completions for a line: matching words and the part of the line they replace. */
export async function completeLine(line: string, names: Names): Promise<[string[], string]> {
  const words = line.split(/\s+/).filter((w, i, all) => w !== '' || i === all.length - 1);
  const partial = words.at(-1) ?? '';
  const before = words.slice(0, -1);
  const match = (list: readonly string[], suffix = ' '): [string[], string] => [
    list.filter((w) => w.startsWith(partial)).map((w) => `${w}${suffix}`),
    partial,
  ];
  if (before.length === 0) return match([...SHELL_COMMANDS, 'quit']);
  const [command, second] = before;
  if (before.length === 1) {
    switch (command) {
      case 'call':
      case 'tool':
        return match((await names.tools()).map((t) => t.name));
      case 'prompt':
        return match((await names.prompts()).map((p) => p.name));
      case 'read':
        return match(await names.resources());
      case 'help':
        return match(SHELL_COMMANDS.filter((c) => c !== 'exit' && c !== 'help'));
      case 'log-level':
        return match(LOGGING_LEVELS);
      case 'tasks':
        return match(['call', 'get', 'wait', 'result', 'cancel', 'list']);
    }
  }
  const argsOf = async (): Promise<string[] | undefined> => {
    if (command === 'call' || (command === 'tasks' && second === 'call'))
      return (await names.tools()).find((t) => t.name === (command === 'call' ? second : before[2]))?.args;
    if (command === 'prompt') return (await names.prompts()).find((p) => p.name === second)?.args;
    return undefined;
  };
  if (command === 'tasks' && second === 'call' && before.length === 2)
    return match((await names.tools()).map((t) => t.name));
  const args = await argsOf();
  if (args === undefined || partial.includes('=')) return [[], partial];
  const given = new Set(before.map((w) => /^([^=:]+):?=/.exec(w)?.[1]).filter((k) => k !== undefined));
  return match(
    args.filter((a) => !given.has(a)),
    '=',
  );
}

/** The commands the shell knows, for `help`. */
function helpText(): string {
  const rows = SHELL_COMMANDS.filter((c) => c !== 'help' && c !== 'exit').map((name) => {
    const info = byName(name);
    return `  ${name.padEnd(10)} ${info?.summary ?? ''}`;
  });
  return [
    'Commands (as after `mcpc <target>`; flags work too, e.g. `tools --schema`):',
    ...rows,
    '  help [cmd]  this list, or one command',
    '  exit        leaves (also quit, Ctrl-D)',
    'Tab completes commands, tool, prompt and resource names, and argument names after `call <tool>`.',
    'Ctrl-C clears the line, or cancels the running call.',
  ].join('\n');
}

export const shell: Command = {
  async run(ctx, words) {
    if (words.length > 1) throw new UsageError('usage: mcpc shell <target>', 'shell');
    const target = targetOf(words[0], { flags: ctx.flags, words: [], trailing: ctx.trailing ?? [] }, splitCommandLine);
    if (target.kind === 'session')
      throw new UsageError('`shell` opens its own connection: give a URL, command or name');
    const connection = await openConnection(ctx, target);
    try {
      return await loop(ctx, connection);
    } finally {
      await connection.client.close();
    }
  },
};

async function loop(ctx: CliContext, connection: Connection): Promise<ExitCode> {
  const { out } = ctx;
  const names = new Names(connection);
  const path = historyPath(ctx.env);
  const tty = ctx.stdin.isTTY === true;
  const reader = new LineReader(ctx.stdin, out.stderr, {
    ...(tty && { history: loadHistory(path), historySize: HISTORY_LINES }),
    completer: (line: string, callback: (error: Error | null, result: [string[], string]) => void): void => {
      completeLine(line, names).then(
        (result) => callback(null, result),
        () => callback(null, [[], line]),
      );
    },
  });
  shareReader(ctx.stdin, reader);
  let running: AbortController | undefined;
  reader.onIdleInterrupt = () => running?.abort(new Error('interrupted'));
  const name = safe(connection.server.name || connection.target, 40);
  const prompt = tty ? `${out.errStyle('cyan', `mcpc ${name}`)}> ` : '';
  if (tty) reader.write(`${out.errStyle('dim', `connected to ${name}; help for the commands, exit to leave`)}\n`);
  try {
    for (let n = 0; n < MAX_LINES && !ctx.signal.aborted; n++) {
      const answer = await reader.ask(prompt, ctx.signal, true);
      if (answer.kind === 'eof' || answer.kind === 'abort') break;
      if (answer.kind === 'interrupt') continue;
      const line = answer.line.trim();
      if (line === '' || line.startsWith('#')) continue;
      if (tty) saveHistory(path, reader.history);
      if (line === 'exit' || line === 'quit') break;
      running = new AbortController();
      try {
        await runLine(ctx, line, connection, running.signal);
      } finally {
        running = undefined;
      }
      if (/^(call|tasks)\b/.test(line)) names.reset();
    }
  } finally {
    shareReader(ctx.stdin, undefined);
    reader.close();
    if (tty) reader.write('\n');
  }
  return ExitCode.Ok;
}

/** Stdin for a shell line's command: empty, so `--args -` cannot eat the shell's own input. */
const noInput = (): NodeJS.ReadableStream & { isTTY?: boolean } => Readable.from([]);

/** Runs one line as an mcpc command on the open connection; prints what went wrong and carries on. */
async function runLine(ctx: CliContext, line: string, connection: Connection, lineSignal: AbortSignal): Promise<void> {
  const { out } = ctx;
  try {
    const parsed = parseCommandLine(splitCommandLine(line));
    const [name, ...words] = parsed.words;
    if (name === undefined) return;
    if (name === 'help') {
      const text = words[0] === undefined ? helpText() : commandHelp(words[0]);
      if (text === undefined) throw new UsageError(`no command "${words[0]}"`);
      out.line(text);
      return;
    }
    const info = byName(name);
    if (info === undefined || !info.server || !SHELL_COMMANDS.includes(name))
      throw new UsageError(`unknown command "${oneLine(name, 40)}" (help lists them)`);
    if (parsed.trailing.length > 0 || parsed.flags.stdio !== undefined)
      throw new UsageError('the shell is connected already: no --stdio or -- here');
    const flags = { ...ctx.flags, ...parsed.flags };
    delete flags.stdio;
    checkFlags(name, parsed.flags, info.flags);
    const lineOut = new Output({
      json: flags.json === true,
      verbose: flags.verbose?.length ?? out.verbose,
      noColor: flags['no-color'] === true,
      stdout: out.stdout,
      stderr: out.stderr,
      env: ctx.env,
    });
    const lineCtx: CliContext = {
      ...ctx,
      out: lineOut,
      flags,
      stdin: noInput(),
      signal: AbortSignal.any([ctx.signal, lineSignal]),
    };
    const command = await info.load();
    const code = await command.run(lineCtx, words, connection);
    if (code !== ExitCode.Ok) out.note(out.errStyle('dim', `(exit ${code})`));
  } catch (error) {
    const { code, hint } = classify(error, connection.target);
    if (code === ExitCode.Interrupted || lineSignal.aborted) out.note('interrupted');
    // A usage mistake in the shell needs no pointer to `mcpc --help`: `help` is right here.
    else
      out.error(
        error instanceof Error ? safe(error.message, 2_000) : String(error),
        error instanceof UsageError ? undefined : hint,
      );
  }
}
