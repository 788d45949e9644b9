// `mcpc <target> prompts` and `mcpc <target> prompt <name> [key=value …]`.
import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { UsageError } from '../errors.js';
import { oneLine, safe } from '../output.js';
import { printPrompt } from '../render.js';

export const prompts: Command = {
  async run(ctx, words, connection) {
    if (words.length > 0)
      throw new UsageError('`prompts` takes no arguments (did you mean `prompt <name>`?)', 'prompts');
    const list = await connection!.server.listPrompts();
    ctx.out.result(list, () => {
      const { out } = ctx;
      const width = Math.min(40, Math.max(4, ...list.map((p) => p.name.length)));
      for (const p of list) {
        const args = (p.arguments ?? []).map((a) => (a.required ? `${a.name}*` : a.name)).join(', ');
        out.line(
          `${out.style('bold', safe(p.name, 200).padEnd(width))}  ${oneLine(p.description ?? p.title, 80)}${args ? out.style('dim', ` (${args})`) : ''}`,
        );
      }
      if (list.length === 0) out.note('the server lists no prompts');
    });
    return ExitCode.Ok;
  },
};

export const prompt: Command = {
  async run(ctx, words, connection) {
    const [name, ...rest] = words;
    if (name === undefined) throw new UsageError('usage: mcpc <target> prompt <name> [key=value …]', 'prompt');
    const args: Record<string, string> = {};
    for (const word of rest) {
      const m = /^([^=\s]+)=(.*)$/s.exec(word);
      if (m === null) throw new UsageError(`"${word}" is not key=value (prompt arguments are strings)`, 'prompt');
      args[m[1]!] = m[2]!;
    }
    const result = await connection!.server.getPrompt(name, args, { signal: ctx.signal });
    ctx.out.result(result, (r) => printPrompt(r, ctx.out));
    return ExitCode.Ok;
  },
};
