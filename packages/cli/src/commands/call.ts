// `mcpc <target> call <tool> [key=value …]`: calls a tool and prints its result.
//
// It exits 6 when the tool reports an error.
import { closeNames, type Tool } from '@mcpc/client';
import { readArguments } from '../coerce.js';
import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { CliError, UsageError } from '../errors.js';
import { progressFor } from '../interact/progress.js';
import { targetWord } from '../failure.js';
import { safe } from '../output.js';
import { printCallResult } from '../render.js';
import { quoteCommandLine } from '../target.js';

/** The error for a tool the server does not list: close names, and the command that lists them. */
export function unknownTool(name: string, listed: readonly Tool[], target: string): CliError {
  // The client's own "did you mean" (what its NotFoundError suggests), so the CLI and the library agree.
  const close = closeNames(
    name,
    listed.map((t) => t.name),
  ).slice(0, 3);
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
    let args;
    try {
      args = await readArguments(rest, ctx.flags, definition?.inputSchema, ctx.stdin);
    } catch (error) {
      // A wrong argument: the tool's own description says what it takes, not `mcpc --help`.
      if (!(error instanceof UsageError)) throw error;
      throw new CliError(
        error.message,
        ExitCode.Usage,
        `run \`mcpc ${targetWord(connection!.target)} tool ${quoteCommandLine([name])}\` to see its arguments`,
      );
    }
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
