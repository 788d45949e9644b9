// `mcpc <target> call <tool> [key=value …]`: calls a tool and prints its result (exit 6 when the tool reports an error).
import type { Tool } from '@mcpc/client';
import { readArguments } from '../coerce.js';
import type { Command } from '../context.js';
import { ExitCode, UsageError } from '../exit.js';
import { progressFor } from '../interact/progress.js';
import { printCallResult } from '../render.js';

export const call: Command = {
  async run(ctx, words, connection) {
    const [name, ...rest] = words;
    if (name === undefined) throw new UsageError('usage: mcpc <target> call <tool> [key=value …]', 'call');
    const { server } = connection!;
    // The schema coerces key=value; a server that cannot list its tools still gets the call.
    const definition: Tool | undefined = await server
      .listTools()
      .then((list) => list.find((t) => t.name === name))
      .catch(() => undefined);
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
