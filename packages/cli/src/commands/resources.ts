// `mcpc <target> resources`, `templates` and `read <uri> [-o FILE]`.
import { writeFile } from 'node:fs/promises';
import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { CliError, UsageError } from '../errors.js';
import { oneLine, safe, type Output } from '../output.js';

/** Rows of `uri  title  type`, each column as wide as its widest cell (up to a cap), the URI bold, the type dim. */
function printColumns(out: Output, rows: readonly (readonly [string, string, string])[]): void {
  const uriWidth = Math.min(60, Math.max(0, ...rows.map((r) => r[0].length)));
  const titleWidth = Math.min(40, Math.max(0, ...rows.map((r) => r[1].length)));
  for (const [uri, title, type] of rows)
    out.line(
      `${out.style('bold', uri.padEnd(uriWidth))}  ${title.padEnd(titleWidth)}  ${out.style('dim', type)}`.trimEnd(),
    );
}

export const resources: Command = {
  async run(ctx, words, connection) {
    if (words.length > 0)
      throw new UsageError('`resources` takes no arguments (did you mean `read <uri>`?)', 'resources');
    const list = await connection!.server.listResources();
    ctx.out.result(list, () => {
      const { out } = ctx;
      printColumns(
        out,
        list.map((r) => [safe(r.uri, 500), oneLine(r.title ?? r.name, 60), safe(r.mimeType ?? '', 100)]),
      );
      if (list.length === 0) out.note('the server lists no resources');
    });
    return ExitCode.Ok;
  },
};

export const templates: Command = {
  async run(ctx, words, connection) {
    if (words.length > 0) throw new UsageError('`templates` takes no arguments', 'templates');
    const list = await connection!.server.listResourceTemplates();
    ctx.out.result(list, () => {
      const { out } = ctx;
      printColumns(
        out,
        list.map((t) => [safe(t.uriTemplate, 500), oneLine(t.title ?? t.name, 60), safe(t.mimeType ?? '', 100)]),
      );
      if (list.length === 0) out.note('the server lists no resource templates');
    });
    return ExitCode.Ok;
  },
};

export const read: Command = {
  async run(ctx, words, connection) {
    const uri = words[0];
    if (uri === undefined || words.length > 1)
      throw new UsageError('usage: mcpc <target> read <uri> [-o FILE]', 'read');
    const contents = await connection!.server.readResource(uri, { signal: ctx.signal });
    const { out } = ctx;
    const file = ctx.flags.output;
    if (file !== undefined) {
      // One item to the file as its bytes; several are joined (text) — a file holds one thing.
      const chunks = contents.map((c) => c.bytes());
      const total = chunks.reduce((n, b) => n + b.byteLength, 0);
      const all = new Uint8Array(total);
      let at = 0;
      for (const b of chunks) {
        all.set(b, at);
        at += b.byteLength;
      }
      await writeFile(file, all);
      out.result({ uri, file, bytes: total, items: contents.length }, () =>
        out.note(`wrote ${total} bytes to ${file}`),
      );
      return ExitCode.Ok;
    }
    if (out.json) {
      out.line(JSON.stringify(contents, null, 2));
      return ExitCode.Ok;
    }
    for (const item of contents) {
      if (item.isText()) {
        out.line(safe(item.text, 10_000_000));
        continue;
      }
      if (out.stdout.isTTY === true)
        throw new CliError(
          `${safe(item.uri, 500)} is binary (${item.mimeType ?? 'no type'}, ${item.bytes().byteLength} bytes): not printed to a terminal`,
          ExitCode.Usage,
          `save it with -o FILE (or pipe stdout)`,
        );
      out.stdout.write(item.bytes());
    }
    return ExitCode.Ok;
  },
};
