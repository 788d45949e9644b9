// `mcpc trust`: which project config files are trusted here, and trusting (or forgetting) one.
//
// Trust is recorded by path and content digest.
import { resolve } from 'node:path';
import { describe, discover, homeOf, trustStorePath } from '../configured.js';
import type { CliContext } from '../context.js';
import type { Command } from '../command.js';
import { isObject } from '../discovery/entries.js';
import { anyServers, filesToRead, tilde } from '../discovery/hosts.js';
import { readConfigFile } from '../discovery/read.js';
import { readTrust, trustOf, writeTrust } from '../discovery/trust.js';
import { ExitCode } from '../exit-codes.js';
import { CliError, UsageError } from '../errors.js';
import { safe } from '../output.js';

/** One file's state, as listed. */
interface FileState {
  readonly path: string;
  readonly state: 'trusted' | 'untrusted' | 'changed' | 'unreadable';
  readonly servers: readonly string[];
  readonly problem?: string;
}

export const trust: Command = {
  async run(ctx, words) {
    const remove = ctx.flags.remove === true;
    if (words.length === 0) {
      if (remove) throw new UsageError('`trust --remove` takes the file to forget', 'trust');
      return list(ctx);
    }
    const store = trustStorePath(ctx.env);
    const done: { path: string; digest?: string; servers?: string[] }[] = [];
    for (const word of words) {
      const path = resolve(ctx.cwd, word);
      if (remove) {
        await writeTrust(store, path, undefined);
        done.push({ path });
        continue;
      }
      const read = await readConfigFile(path);
      if (read.kind === 'missing') throw new UsageError(`${word}: no such file`, 'trust');
      if (read.kind === 'problem')
        throw new CliError(`${safe(word, 500)} ${read.message}: not trusted`, ExitCode.Error);
      const servers = serversOf(read.document);
      await writeTrust(store, path, read.digest);
      done.push({ path, digest: read.digest, servers });
    }
    ctx.out.result(remove ? { forgotten: done.map((d) => d.path) } : { trusted: done }, () => {
      for (const d of done) {
        const shown = safe(tilde(d.path, homeOf(ctx)), 500);
        if (remove) ctx.out.line(`Forgot ${shown}: its servers ask again before they run.`);
        else
          ctx.out.line(
            `Trusted ${shown} as it is now (${d.digest!.slice(0, 19)}…): ${
              d.servers!.length === 0 ? 'it defines no servers' : d.servers!.map((n) => safe(n, 100)).join(', ')
            }. A change to it asks again.`,
          );
      }
    });
    return ExitCode.Ok;
  },
};

/** The servers a parsed config document defines (names only). */
function serversOf(document: unknown): string[] {
  const servers = anyServers(document);
  return isObject(servers) ? Object.keys(servers).filter((n) => n.trim() !== '') : [];
}

/** `mcpc trust` alone: this directory's project config files and whether each is trusted as it is now. */
async function list(ctx: CliContext): Promise<ExitCode> {
  const home = homeOf(ctx);
  const options = { env: ctx.env, cwd: ctx.cwd, home, platform: process.platform };
  const files = filesToRead(options).filter((f) => f.project === true);
  const store = await readTrust(trustStorePath(ctx.env));
  const states: FileState[] = [];
  for (const file of files) {
    const read = await readConfigFile(file.path, file.maxBytes);
    if (read.kind === 'missing') continue;
    if (read.kind === 'problem') {
      states.push({ path: file.path, state: 'unreadable', servers: [], problem: read.message });
      continue;
    }
    const { trusted, changed } = trustOf(store, file.path, read.digest);
    states.push({
      path: file.path,
      state: trusted ? 'trusted' : changed ? 'changed' : 'untrusted',
      servers: serversOf(read.document),
    });
  }
  const discovered = await discover(ctx);
  ctx.out.result({ files: states }, () => {
    const { out } = ctx;
    if (states.length === 0) {
      out.line('No project config file here (.mcp.json, .cursor/mcp.json, .vscode/mcp.json).');
      return;
    }
    for (const s of states) {
      out.line(`${safe(tilde(s.path, home), 500)}  ${out.style(s.state === 'trusted' ? 'green' : 'yellow', s.state)}`);
      if (s.problem !== undefined) out.line(`  ${safe(s.problem, 500)}`);
      for (const entry of discovered.servers.filter((e) => e.file === s.path))
        out.line(`  ${safe(entry.name, 100)}: ${safe(describe(entry), 300)}`);
    }
    if (states.some((s) => s.state === 'untrusted' || s.state === 'changed'))
      out.note('read a file, then run `mcpc trust <file>` to let mcpc start what it defines');
  });
  return ExitCode.Ok;
}
