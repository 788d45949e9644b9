// `mcpc <target> tools` and `mcpc <target> tool <name>`: what the server's tools are and take.
import type { Tool } from '@mcpc/client';
import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { UsageError } from '../errors.js';
import { oneLine, safe } from '../output.js';
import { unknownTool } from './call.js';

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

/** A schema's type in a few characters: `number`, `string[]`, `"red"|"blue"`, `object`. */
function typeOf(schema: unknown): string {
  if (typeof schema !== 'object' || schema === null) return 'any';
  const s = schema as {
    type?: unknown;
    enum?: unknown;
    const?: unknown;
    items?: unknown;
    anyOf?: unknown;
    oneOf?: unknown;
  };
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    const shown = s.enum.slice(0, 4).map((v) => JSON.stringify(v));
    return shown.join('|') + (s.enum.length > 4 ? '|…' : '');
  }
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.type === 'array') return `${typeOf(s.items)}[]`;
  if (typeof s.type === 'string') return s.type === 'integer' ? 'number' : s.type;
  if (Array.isArray(s.type)) return s.type.filter((t) => typeof t === 'string').join('|') || 'any';
  const union = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (union !== undefined) return union.slice(0, 4).map(typeOf).join('|');
  return 'any';
}

/** A tool's arguments as a call signature, required ones first: `a: number, b: number, note?: string`. */
export function signature(tool: Tool, max = 120): string {
  const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: unknown };
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const names = Object.keys(schema.properties ?? {});
  const ordered = [...names.filter((n) => required.has(n)), ...names.filter((n) => !required.has(n))];
  const text = ordered.map((n) => `${n}${required.has(n) ? '' : '?'}: ${typeOf(schema.properties?.[n])}`).join(', ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export const tools: Command = {
  async run(ctx, words, connection) {
    if (words.length > 0) throw new UsageError('`tools` takes no arguments (did you mean `tool <name>`?)', 'tools');
    const list = await connection!.server.listTools();
    ctx.out.result(list.map(toolJson), () => {
      const { out } = ctx;
      for (const tool of list) {
        const marks = [
          tool.taskSupport !== 'forbidden' ? 'task' : '',
          tool.annotations?.readOnlyHint ? 'read-only' : '',
        ]
          .filter(Boolean)
          .join(', ');
        // The call's shape first, as `add(a: number, b: number)`, then what it does.
        out.line(
          `${out.style('bold', safe(tool.name, 200))}${out.style('dim', `(${safe(signature(tool), 400)})`)}${marks ? out.style('dim', ` [${marks}]`) : ''}`,
        );
        const about = oneLine(tool.description ?? tool.title, 100);
        if (about !== '') out.line(`  ${about}`);
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
    const listed = await connection!.server.listTools();
    const found = listed.find((t) => t.name === name);
    if (found === undefined) throw unknownTool(name, listed, connection!.target);
    ctx.out.result(toolJson(found), () => {
      const { out } = ctx;
      out.line(out.style('bold', safe(found.name, 200)) + (found.title ? ` — ${safe(found.title, 200)}` : ''));
      if (found.description) out.line(safe(found.description, 8_000));
      out.line(`call:         ${safe(found.name, 200)}(${safe(signature(found, 2_000), 4_000)})`);
      out.line(`arguments:    ${safe(argumentSummary(found), 4_000) || 'none'}  (* required)`);
      out.line(`input schema: ${JSON.stringify(found.inputSchema, null, 2)}`);
      if (found.outputSchema !== undefined) out.line(`output schema: ${JSON.stringify(found.outputSchema, null, 2)}`);
      if (found.annotations !== undefined) out.line(`annotations:  ${JSON.stringify(found.annotations)}`);
      out.line(`task support: ${found.taskSupport}`);
    });
    return ExitCode.Ok;
  },
};
