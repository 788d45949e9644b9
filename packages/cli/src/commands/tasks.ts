// `mcpc <target> tasks …`: a tool called as a task, and the task methods (get, wait, result, cancel, list).
import type { CallToolResult, Task } from '@mcpc/client';
import { intFlag } from '../args.js';
import { readArguments } from '../coerce.js';
import type { CliContext } from '../context.js';
import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { UsageError } from '../errors.js';
import { safe } from '../output.js';
import { printCallResult } from '../render.js';
import { unknownTool } from './call.js';
import { targetWord } from '../failure.js';
import { quoteCommandLine } from '../target.js';

const USAGE =
  'usage: mcpc <target> tasks call <tool> [key=value …] [--ttl MS] [--wait] | get <id> | wait <id> | result <id> | cancel <id> | list';

function printTask(ctx: CliContext, task: Task): void {
  ctx.out.result(task.toJSON(), () => {
    const { out } = ctx;
    out.line(
      `${out.style('bold', task.taskId || '(answered directly)')}  ${task.status}${task.statusMessage ? ` — ${safe(task.statusMessage, 500)}` : ''}`,
    );
    out.line(
      out.style(
        'dim',
        `  created ${task.createdAt}, updated ${task.lastUpdatedAt}, ttl ${task.ttlMs ?? 'unlimited'}${task.pollIntervalMs !== undefined ? `, poll every ${task.pollIntervalMs} ms` : ''}`,
      ),
    );
  });
}

function printResult(ctx: CliContext, result: CallToolResult): ExitCode {
  ctx.out.result(result, (r) => printCallResult(r, ctx.out));
  return result.isError === true ? ExitCode.ToolError : ExitCode.Ok;
}

export const tasks: Command = {
  async run(ctx, words, connection) {
    const { server } = connection!;
    const [sub, ...rest] = words;
    const options = { signal: ctx.signal };
    const id = (): string => {
      if (rest.length !== 1) throw new UsageError(USAGE, 'tasks');
      return rest[0]!;
    };
    const onStatus = (t: Task): void =>
      ctx.out.info(`task ${t.taskId}: ${t.status}${t.statusMessage ? ` — ${t.statusMessage}` : ''}`);
    switch (sub) {
      case 'call': {
        const [name, ...args] = rest;
        if (name === undefined) throw new UsageError(USAGE, 'tasks');
        const listed = await server.listTools().catch(() => undefined);
        const definition = listed?.find((t) => t.name === name);
        if (listed !== undefined && definition === undefined) throw unknownTool(name, listed, connection!.target);
        const values = await readArguments(args, ctx.flags, definition?.inputSchema, ctx.stdin);
        const ttl = intFlag(ctx.flags, 'ttl');
        const task = await server.callToolAsTask(name, values, { ...options, ...(ttl !== undefined && { ttl }) });
        if (ctx.flags.wait !== true) {
          printTask(ctx, task);
          // Over stdio the task lives in the process this command started, which ends with it: the next
          // `mcpc … tasks get` starts another that has never heard of it. A session keeps the process.
          if (server.transportKind === 'stdio' && !connection!.target.startsWith('@'))
            ctx.out.note(
              `note: this task lives in the server process this command started, which has now ended, so later ` +
                `\`tasks get|wait|result\` commands cannot reach it (each starts a new process). Keep one process ` +
                `with a session: \`mcpc session ${targetWord(connection!.target)} @tasks\`, then ` +
                `\`mcpc @tasks tasks call ${quoteCommandLine([name, ...args])}\`, or use --wait.`,
            );
          return ExitCode.Ok;
        }
        onStatus(task);
        return printResult(
          ctx,
          await server.getTaskResult(await server.waitForTask(task, { ...options, onStatus }), options),
        );
      }
      case 'get':
        printTask(ctx, await server.getTask(id(), options));
        return ExitCode.Ok;
      case 'wait': {
        const done = await server.waitForTask(id(), { ...options, onStatus });
        printTask(ctx, done);
        return ExitCode.Ok;
      }
      case 'result':
        return printResult(ctx, await server.getTaskResult(id(), options));
      case 'cancel':
        printTask(ctx, await server.cancelTask(id(), options));
        return ExitCode.Ok;
      case 'list': {
        if (rest.length > 0) throw new UsageError(USAGE, 'tasks');
        const list = await server.listTasks(options);
        ctx.out.result(
          list.map((t) => t.toJSON()),
          () => {
            for (const t of list)
              ctx.out.line(`${t.taskId}  ${t.status}${t.statusMessage ? ` — ${safe(t.statusMessage, 200)}` : ''}`);
            if (list.length === 0) ctx.out.note('no tasks');
          },
        );
        return ExitCode.Ok;
      }
      default:
        throw new UsageError(USAGE, 'tasks');
    }
  },
};
