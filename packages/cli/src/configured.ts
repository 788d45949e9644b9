// The servers configured on this machine (or in --config), found once per run, and naming one of them.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { mcpcDir } from './auth/paths.js';
import type { CliContext } from './context.js';
import { discoverServers, lookupServer } from './discovery/index.js';
import { tilde } from './discovery/hosts.js';
import { redactEntry } from './discovery/redact.js';
import { writeTrust } from './discovery/trust.js';
import type { Discovered, ServerEntry, UntrustedFile } from './discovery/types.js';
import { AmbiguousServerError, UntrustedConfigError, UsageError } from './errors.js';
import { quoteCommandLine } from './target.js';

const found = new WeakMap<CliContext, Promise<Discovered>>();

/** Where the trust of project config files is recorded: the user's own config directory. */
export const trustStorePath = (env: NodeJS.ProcessEnv): string => join(mcpcDir(env), 'trusted.json');

/** The home directory paths are shown against. */
export const homeOf = (ctx: CliContext): string => ctx.env.HOME ?? ctx.env.USERPROFILE ?? homedir();

/** What discovery finds for this run (read once, however many commands ask). */
export function discover(ctx: CliContext): Promise<Discovered> {
  let result = found.get(ctx);
  if (result === undefined) {
    const configFile = ctx.flags.config === undefined ? undefined : resolve(ctx.cwd, ctx.flags.config);
    result = discoverServers({
      env: ctx.env,
      cwd: ctx.cwd,
      home: homeOf(ctx),
      platform: process.platform,
      trustFile: trustStorePath(ctx.env),
      trustProject: ctx.flags['trust-project'] === true,
      ...(configFile !== undefined && { configFile }),
    });
    found.set(ctx, result);
  }
  return result;
}

/**
 * The configured server `name`: refused when two differing servers carry it (both named), and when it
 * comes from a project file the user has not trusted — at a terminal, the user is asked (and a yes is
 * recorded); otherwise the error says how to trust it.
 */
export async function configuredServer(ctx: CliContext, name: string): Promise<ServerEntry> {
  const discovered = await discover(ctx);
  const lookup = lookupServer(discovered, name);
  switch (lookup.kind) {
    case 'found':
      return lookup.entry;
    case 'conflict': {
      const { entries } = lookup.conflict;
      const first =
        entries.find((e) => e.file !== undefined && e.untrusted !== true) ?? entries.find((e) => e.file !== undefined);
      throw new AmbiguousServerError(
        `"${name}" is configured ${entries.length} times, differently — ${entries
          .map((e) => `${e.source}: ${describe(e)}`)
          .join('; ')}. mcpc does not pick one`,
        name,
        entries.map((e) => e.source),
        first?.file !== undefined
          ? `use one file with \`mcpc --config ${quoteCommandLine([first.file])} ${quoteCommandLine([name])}\`, or rename one of them`
          : 'rename one of them',
      );
    }
    case 'untrusted': {
      if (await askTrust(ctx, lookup.file)) {
        await writeTrust(trustStorePath(ctx.env), lookup.file.path, lookup.file.digest);
        found.delete(ctx);
        return configuredServer(ctx, name);
      }
      throw untrustedError(ctx, lookup.file, name);
    }
    case 'missing': {
      const names = discovered.servers.filter((s) => s.untrusted !== true).map((s) => s.name);
      throw new UsageError(
        `no server is configured as "${name}"` +
          (names.length === 0
            ? ' (none is configured: give a URL, --stdio "cmd", or --config FILE)'
            : `; configured: ${[...new Set(names)].slice(0, 20).join(', ')}`),
      );
    }
  }
}

/** A server entry in a few words: its URL or its command line. */
export function describe(entry: ServerEntry): string {
  const shown = redactEntry(entry);
  return shown.url ?? quoteCommandLine([shown.command ?? '', ...(shown.args ?? [])]);
}

function untrustedError(ctx: CliContext, file: UntrustedFile, name: string): UntrustedConfigError {
  const shown = tilde(file.path, homeOf(ctx));
  return new UntrustedConfigError(
    `"${name}" is defined in ${shown}, a project config file you have not trusted` +
      (file.changed ? ' in this version (it changed since you trusted it)' : '') +
      ': mcpc starts and contacts nothing it defines until you do',
    file.path,
    `read it, then run \`mcpc trust ${quoteCommandLine([file.path])}\` (or pass --trust-project for this run)`,
  );
}

/** At a terminal: what the file defines, and whether to trust it. */
async function askTrust(ctx: CliContext, file: UntrustedFile): Promise<boolean> {
  if (!ctx.interactive) return false;
  const { withReader } = await import('./interact/terminal.js');
  const { safe } = await import('./output.js');
  const discovered = await discover(ctx);
  const lines = discovered.servers
    .filter((s) => s.file === file.path)
    .map((s) => `  ${safe(s.name, 100)}: ${safe(describe(s), 300)}`);
  const shown = safe(tilde(file.path, homeOf(ctx)), 500);
  ctx.out.warn(
    `${shown} is a project config file${file.changed ? ' that changed since you trusted it' : ' you have not trusted'}. It defines:\n${lines.join('\n')}`,
  );
  const answer = await withReader(ctx, (reader) =>
    reader.ask(`Trust ${shown} and run what it defines? [y/N] `, ctx.signal),
  );
  return answer.kind === 'line' && /^\s*y(es)?\s*$/i.test(answer.line);
}
