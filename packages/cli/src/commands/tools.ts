// `mcpc <target> tools` and `mcpc <target> tool <name>`: what the server's tools are and take.
import type { Tool } from '@mcpc/client';
import type { Command } from '../context.js';
import { CliError, ExitCode, UsageError } from '../exit.js';
import { oneLine, safe } from '../output.js';

/** A tool as --json shows it: the protocol's fields, without the client's bookkeeping. */
export function toolJson(tool: Tool): Record<string, unknown> {
  return {
    name: tool.name,
    ...(tool.title !== undefined && { title: tool.title }),
    ...(tool.description !== undefined && { description: tool.description }),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema !== undefined && { outputSchema: tool.outputSchema }),
    ...(tool.annotations !== undefined && { annotations: tool.annotations }),
    taskSupport: tool.taskSupport,
  };
}

/** The argument names of a tool, required ones marked: `a*, b*, note`. */
export function argumentSummary(tool: Tool): string {
  const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: unknown };
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.keys(schema.properties ?? {})
    .map((k) => (required.has(k) ? `${k}*` : k))
    .join(', ');
}

export const tools: Command = {
  async run(ctx, words, connection) {
    if (words.length > 0) throw new UsageError('`tools` takes no arguments (did you mean `tool <name>`?)', 'tools');
    const list = await connection!.server.listTools();
    ctx.out.result(list.map(toolJson), () => {
      const { out } = ctx;
      const width = Math.min(40, Math.max(4, ...list.map((t) => t.name.length)));
      for (const tool of list) {
        const marks = [
          tool.taskSupport !== 'forbidden' ? 'task' : '',
          tool.annotations?.readOnlyHint ? 'read-only' : '',
        ]
          .filter(Boolean)
          .join(', ');
        out.line(
          `${out.style('bold', safe(tool.name, 200).padEnd(width))}  ${oneLine(tool.description ?? tool.title, 90)}${marks ? out.style('dim', ` [${marks}]`) : ''}`,
        );
        if (ctx.flags.schema === true) {
          out.line(out.style('dim', `  input:  ${JSON.stringify(tool.inputSchema)}`));
          if (tool.outputSchema !== undefined)
            out.line(out.style('dim', `  output: ${JSON.stringify(tool.outputSchema)}`));
        }
      }
      if (list.length === 0) out.note('the server lists no tools');
    });
    return ExitCode.Ok;
  },
};

export const tool: Command = {
  async run(ctx, words, connection) {
    const name = words[0];
    if (name === undefined || words.length > 1) throw new UsageError('usage: mcpc <target> tool <name>', 'tool');
    const found = (await connection!.server.listTools()).find((t) => t.name === name);
    if (found === undefined)
      throw new CliError(`the server has no tool "${name}"`, ExitCode.Usage, 'run `tools` to list them');
    ctx.out.result(toolJson(found), () => {
      const { out } = ctx;
      out.line(out.style('bold', safe(found.name, 200)) + (found.title ? ` — ${safe(found.title, 200)}` : ''));
      if (found.description) out.line(safe(found.description, 8_000));
      out.line(`arguments:    ${argumentSummary(found) || 'none'}  (* required)`);
      out.line(`input schema: ${JSON.stringify(found.inputSchema, null, 2)}`);
      if (found.outputSchema !== undefined) out.line(`output schema: ${JSON.stringify(found.outputSchema, null, 2)}`);
      if (found.annotations !== undefined) out.line(`annotations:  ${JSON.stringify(found.annotations)}`);
      out.line(`task support: ${found.taskSupport}`);
    });
    return ExitCode.Ok;
  },
};
