// `mcpc codegen <target> [--out FILE]`: lists the server's tools and writes a typed TypeScript module for them.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from '../command.js';
import { generateModule, type ConnectSource } from '../codegen/module.js';
import { headerFlags } from '../args.js';
import { ExitCode } from '../exit-codes.js';
import { CliError, UsageError } from '../errors.js';
import { entryFor, openConnection, splitCommandLine } from '../open.js';
import { safe } from '../output.js';
import { targetOf } from '../target.js';
import { VERSION } from '../version.js';
import type { ServerEntry } from '../discovery/types.js';

export const codegen: Command = {
  async run(ctx, words) {
    const fromFlags = (ctx.trailing?.length ?? 0) > 0 || ctx.flags.stdio !== undefined;
    const extra = words.slice(fromFlags ? 0 : 1);
    if (extra.length > 0)
      throw new UsageError(`\`codegen\` takes one target, not also "${extra.join(' ')}"`, 'codegen');
    const target = targetOf(words[0], { flags: ctx.flags, words: [], trailing: ctx.trailing ?? [] }, splitCommandLine);
    if (target.kind === 'session')
      throw new UsageError(
        `codegen needs the server itself (a URL, --stdio "cmd" or a configured name), not the session ${target.text}`,
        'codegen',
      );
    const entry = await entryFor(ctx, target);
    const flagHeaders = Object.keys(headerFlags(ctx.flags) ?? {});
    const connect = connectSource(entry, ctx.flags.transport, flagHeaders);
    const connection = await openConnection(ctx, target);
    let text: string;
    let count: number;
    try {
      const tools = await connection.client.listTools();
      count = tools.length;
      text = generateModule(tools, {
        target: target.text,
        serverName: entry.name,
        serverInfo: connection.server.serverInfo,
        connect,
        version: VERSION,
        splitCommandLine,
      });
    } finally {
      await connection.client.close();
    }
    const out = ctx.flags.out;
    if (out === undefined) {
      if (ctx.out.json) ctx.out.line(JSON.stringify({ tools: count }, null, 2));
      else ctx.out.write(text);
      return ExitCode.Ok;
    }
    const file = resolve(ctx.cwd, out);
    try {
      await writeFile(file, text);
    } catch (error) {
      throw new CliError(`could not write ${safe(file)}: ${(error as Error).message}`, ExitCode.Error);
    }
    ctx.out.result({ file, tools: count }, (r) =>
      ctx.out.line(`wrote ${r.tools} tool${r.tools === 1 ? '' : 's'} to ${safe(r.file)}`),
    );
    return ExitCode.Ok;
  },
};

/** How the generated `connectServer()` reaches the server: its URL or command line, secrets left out. */
function connectSource(
  entry: ServerEntry,
  transportFlag: string | undefined,
  flagHeaders: readonly string[],
): ConnectSource {
  if (entry.command !== undefined)
    return {
      kind: 'command',
      argv: [entry.command, ...(entry.args ?? [])],
      ...(entry.cwd !== undefined && { cwd: entry.cwd }),
      ...(entry.env !== undefined && { envNames: Object.keys(entry.env).sort() }),
    };
  const transport = transportFlag ?? entry.type;
  const headerNames = [...new Set([...Object.keys(entry.headers ?? {}), ...flagHeaders])].sort();
  return {
    kind: 'url',
    url: entry.url ?? '',
    ...((transport === 'streamable-http' || transport === 'http' || transport === 'sse') && { transport }),
    ...(headerNames.length > 0 && { headerNames }),
  };
}
