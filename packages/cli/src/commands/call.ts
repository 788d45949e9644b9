// `mcpc <target> call <tool> [key=value …]`: calls a tool and prints its result (exit 6 when the tool reports an error).
import type { Tool } from '@mcpc/client';
import { readArguments } from '../coerce.js';
import type { Command } from '../context.js';
import { CliError, ExitCode, UsageError } from '../exit.js';
import { progressFor } from '../interact/progress.js';
import { targetWord } from '../failure.js';
import { safe } from '../output.js';
import { printCallResult } from '../render.js';

/** The error for a tool the server does not list: close names, and the command that lists them. */
export function unknownTool(name: string, listed: readonly Tool[], target: string): CliError {
  const wanted = name.toLowerCase();
  const close = listed
    .map((t) => t.name)
    .filter((n) => {
      const have = n.toLowerCase();
      return have.includes(wanted) || wanted.includes(have);
    })
    .slice(0, 3);
  return new CliError(
    `the server has no tool "${safe(name, 200)}"${close.length > 0 ? `; did you mean ${close.map((n) => `"${safe(n, 64)}"`).join(', ')}?` : ''}`,
    ExitCode.Usage,
    `run \`mcpc ${targetWord(target)} tools\` to list them`,
  );
}

export const call: Command = {
  async run(ctx, words, connection) {
    const [name, ...rest] = words;
    if (name === undefined) throw new UsageError('usage: mcpc <target> call <tool> [key=value …]', 'call');
    const { server } = connection!;
    // The schema coerces key=value; a server that cannot list its tools still gets the call.
    const listed: readonly Tool[] | undefined = await server.listTools().catch(() => undefined);
    const definition = listed?.find((t) => t.name === name);
    if (listed !== undefined && definition === undefined) throw unknownTool(name, listed, connection!.target);
    const args = await readArguments(rest, ctx.flags, definition?.inputSchema, ctx.stdin);
    const progress = progressFor(ctx, name);
    let result;
    try {
      result = await server.callTool(name, args, {
        signal: ctx.signal,
        ...(progress.onProgress !== undefined && { onProgress: progress.onProgress }),
        onTaskStatus: (task) =>
          ctx.out.info(`task ${task.taskId}: ${task.status}${task.statusMessage ? ` — ${task.statusMessage}` : ''}`),
      });
    } finally {
      progress.done();
    }
    ctx.out.result(result, (r) => printCallResult(r, ctx.out));
    return result.isError === true ? ExitCode.ToolError : ExitCode.Ok;
  },
};
