// `mcpc grep <pattern>`: searches the tool names, titles and descriptions of every configured server.
import { Client, type Logger, type Tool } from '@mcpc/client';
import { intFlag } from '../args.js';
import { discover, homeOf } from '../configured.js';
import { tilde } from '../discovery/hosts.js';
import { usableServers } from '../discovery/lookup.js';
import { quoteCommandLine } from '../target.js';
import type { CliContext } from '../context.js';
import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { UsageError } from '../errors.js';
import { clientOptions, configFor } from '../open.js';
import { safe } from '../output.js';
import type { ServerEntry } from '../discovery/types.js';

/** How many servers are connected at once. */
const CONCURRENCY = 4;
/** How long one server may take to connect and list its tools, unless `--timeout` says otherwise. */
const DEFAULT_BUDGET_MS = 30_000;

/** One match, as --json prints it. */
interface Match {
  readonly server: string;
  readonly tool: string;
  readonly title?: string;
  readonly description?: string;
}

/** The tools of one server, or why they could not be listed. */
type Listing = { readonly tools: readonly Tool[] } | { readonly error: string };

export const grep: Command = {
  async run(ctx, words) {
    if (words.length !== 1) throw new UsageError('`grep` takes one pattern (quote it if it has spaces)', 'grep');
    const pattern = toRegExp(words[0]!);
    const discovered = await discover(ctx);
    for (const p of discovered.problems) ctx.out.warn(safe(p, 1_000));
    // Nothing an untrusted project file defines is started, and no name two servers claim is guessed at.
    for (const file of discovered.untrusted)
      ctx.out.warn(
        `skipped ${file.names.length} server(s) of ${safe(tilde(file.path, homeOf(ctx)), 500)}, a project config ` +
          `file you have not trusted${file.changed ? ' in this version' : ''}: read it, then run \`mcpc trust ${safe(quoteCommandLine([file.path]), 500)}\``,
      );
    const servers = usableServers(discovered);
    if (servers.length === 0) {
      ctx.out.note('no servers are configured (see `mcpc` for where mcpc looks, or give --config FILE)');
      return ExitCode.Error;
    }

    const listings = await mapBounded(servers, CONCURRENCY, (entry) => listTools(ctx, entry));
    const matches: Match[] = [];
    let failed = 0;
    servers.forEach((entry, i) => {
      const listing = listings[i]!;
      if ('error' in listing) {
        failed++;
        // The client's messages usually name the server already.
        const named = listing.error.includes(`"${entry.name}"`);
        ctx.out.warn(`${named ? '' : `${safe(entry.name, 100)}: `}${safe(listing.error, 500)}`);
        return;
      }
      for (const tool of listing.tools) {
        if (![tool.name, tool.title, tool.description].some((text) => text !== undefined && test(pattern, text)))
          continue;
        matches.push({
          server: entry.name,
          tool: tool.name,
          ...(tool.title !== undefined && { title: tool.title }),
          ...(tool.description !== undefined && { description: tool.description }),
        });
      }
    });
    if (ctx.signal.aborted) return ExitCode.Interrupted;

    ctx.out.result(matches, () => {
      const { out } = ctx;
      const mark = (text: string, style: Parameters<typeof out.style>[0] = ['bold', 'red']): string =>
        highlight(text, pattern, (m) => out.style(style, m));
      const serverWidth = Math.min(32, Math.max(0, ...matches.map((m) => safe(m.server, 100).length)));
      const toolWidth = Math.min(40, Math.max(0, ...matches.map((m) => safe(m.tool, 200).length)));
      for (const m of matches) {
        const server = out.style('dim', safe(m.server, 100).padEnd(serverWidth));
        const tool = out.style('bold', mark(safe(m.tool, 200).padEnd(toolWidth), 'red'));
        out.line(`${server}  ${tool}  ${mark(snippet(m, pattern))}`);
      }
    });
    if (failed === servers.length) return ExitCode.Connect;
    return matches.length > 0 ? ExitCode.Ok : ExitCode.Error;
  },
};

/** The pattern as a case-insensitive regular expression; one that does not compile is taken literally. */
export function toRegExp(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'i');
  } catch {
    return new RegExp(pattern.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'i');
  }
}

const test = (pattern: RegExp, text: string): boolean => {
  pattern.lastIndex = 0;
  return pattern.test(text);
};

/** What a human line shows after the tool: the part of the description (or title) that matched, else its start. */
export function snippet(m: Match, pattern: RegExp, max = 100): string {
  const flat = (s: string | undefined): string =>
    safe(s ?? '', 4_000)
      .replace(/\s+/g, ' ')
      .trim();
  const description = flat(m.description);
  const title = flat(m.title);
  const text = test(pattern, description) || !test(pattern, title) ? description || title : title;
  if (text.length <= max) return text;
  const at = pattern.exec(text)?.index ?? 0;
  if (at < max - 30) return `${text.slice(0, max - 1)}…`;
  const start = Math.max(0, Math.min(at - 30, text.length - max + 1));
  const cut = text.slice(start, start + max - 2);
  return `…${cut}${start + max - 2 < text.length ? '…' : ''}`;
}

/** `text` with every match of `pattern` passed through `mark` (the text is already terminal-safe). */
export function highlight(text: string, pattern: RegExp, mark: (s: string) => string): string {
  const global = new RegExp(pattern.source, 'gi');
  let out = '';
  let last = 0;
  for (let i = 0, m = global.exec(text); m !== null && i < 1_000; i++, m = global.exec(text)) {
    if (m[0] === '') {
      global.lastIndex++;
      continue;
    }
    out += text.slice(last, m.index) + mark(m[0]);
    last = m.index + m[0].length;
  }
  return out + text.slice(last);
}

/** Connects one configured server, lists its tools and closes it, within the time budget. Never throws. */
async function listTools(ctx: CliContext, entry: ServerEntry): Promise<Listing> {
  if (ctx.signal.aborted) return { error: 'interrupted' };
  let client: Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  const budget = intFlag(ctx.flags, 'timeout') ?? DEFAULT_BUDGET_MS;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${budget} ms`)), budget);
    onAbort = () => reject(new Error('interrupted'));
    ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
  stop.catch(() => undefined);
  try {
    const config = await configFor(ctx, entry);
    const options = clientOptions(ctx, config);
    client = new Client(
      options.logger === undefined ? options : { ...options, logger: prefixed(options.logger, entry.name) },
    );
    const work = (async () => {
      await client.connect();
      return client.servers[0]!.listTools();
    })();
    work.catch(() => undefined);
    return { tools: await Promise.race([work, stop]) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { error: message.split('\n', 1)[0] ?? 'failed' };
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) ctx.signal.removeEventListener('abort', onAbort);
    await client?.close().catch(() => undefined);
  }
}

/** The client's log lines, each naming the server it is about. */
function prefixed(logger: Logger, name: string): Logger {
  const p = `${safe(name, 100)}: `;
  return {
    debug: (m) => logger.debug(p + m),
    info: (m) => logger.info(p + m),
    warn: (m) => logger.warn(p + m),
    error: (m) => logger.error(p + m),
  };
}

/** `f` over `items`, at most `limit` at a time, results in order. */
async function mapBounded<T, R>(items: readonly T[], limit: number, f: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await f(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
