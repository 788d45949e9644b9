// `mcpc shell <target>`: one connection, a prompt with history and tab completion, each line run as an mcpc command.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { mcpcDir } from '../auth/paths.js';
import type { CliContext, Connection, LineRunner } from '../context.js';
import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { UsageError } from '../errors.js';
import { LineReader, shareReader } from '../interact/terminal.js';
import { openConnection, splitCommandLine } from '../open.js';
import { safe } from '../output.js';
import { LOGGING_LEVELS } from '@mcpc/client/constants';
import { targetOf } from '../target.js';

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
export async function completeLine(
  line: string,
  names: Names,
  commands: readonly string[],
): Promise<[string[], string]> {
  const words = line.split(/\s+/).filter((w, i, all) => w !== '' || i === all.length - 1);
  const partial = words.at(-1) ?? '';
  const before = words.slice(0, -1);
  const match = (list: readonly string[], suffix = ' '): [string[], string] => [
    list.filter((w) => w.startsWith(partial)).map((w) => `${w}${suffix}`),
    partial,
  ];
  if (before.length === 0) return match([...commands, 'quit']);
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
        return match(commands.filter((c) => c !== 'exit' && c !== 'help'));
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

export const shell: Command = {
  async run(ctx, words) {
    if (words.length > 1) throw new UsageError('usage: mcpc shell <target>', 'shell');
    const target = targetOf(words[0], { flags: ctx.flags, words: [], trailing: ctx.trailing ?? [] }, splitCommandLine);
    if (target.kind === 'session')
      throw new UsageError('`shell` opens its own connection: give a URL, command or name');
    // The dispatcher runs each line; it comes through the context (a command does not import it).
    const lines = ctx.lines;
    if (lines === undefined) throw new UsageError('`shell` runs from the command line only');
    const connection = await openConnection(ctx, target);
    try {
      return await loop(ctx, connection, lines);
    } finally {
      await connection.client.close();
    }
  },
};

async function loop(ctx: CliContext, connection: Connection, lines: LineRunner): Promise<ExitCode> {
  const { out } = ctx;
  const names = new Names(connection);
  const path = historyPath(ctx.env);
  const tty = ctx.stdin.isTTY === true;
  const reader = new LineReader(ctx.stdin, out.stderr, {
    ...(tty && { history: loadHistory(path), historySize: HISTORY_LINES }),
    completer: (line: string, callback: (error: Error | null, result: [string[], string]) => void): void => {
      completeLine(line, names, lines.commands).then(
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
        const { code, failure } = await lines.run(line, connection, running.signal);
        // A failure was printed with its reason; a command that ended badly on its own gets its code shown.
        if (failure === undefined && code !== ExitCode.Ok) out.note(out.errStyle('dim', `(exit ${code})`));
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
