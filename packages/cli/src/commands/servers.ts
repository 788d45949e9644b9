// `mcpc` alone: the servers configured on this machine, and the open sessions.
//
// Each server shows where it came from, and whether it is untrusted or claimed twice.
import { describe, discover, homeOf } from '../configured.js';
import { tilde } from '../discovery/hosts.js';
import { redactEntry } from '../discovery/redact.js';
import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { safe } from '../output.js';
import { listSessions } from '../session/list.js';
import { quoteCommandLine } from '../target.js';

export const servers: Command = {
  async run(ctx) {
    const [discovered, sessions] = await Promise.all([discover(ctx), listSessions(ctx)]);
    const { servers: found, untrusted, conflicts, problems } = discovered;
    const claimed = new Set(conflicts.map((c) => c.name));
    // Credentials never reach a listing, --json included: the values stay in the files they came from.
    const shown = found.map((s) => ({ ...redactEntry(s), ...(claimed.has(s.name) && { conflict: true as const }) }));
    ctx.out.result({ servers: shown, untrusted, conflicts: conflicts.map((c) => c.name), sessions, problems }, () => {
      const { out } = ctx;
      if (found.length === 0) out.line('No servers configured. Give a URL or --stdio "cmd", or --config FILE.');
      else {
        out.line(out.style('bold', 'Servers'));
        const width = Math.min(32, Math.max(...found.map((s) => safe(s.name, 100).length)));
        for (const s of found) {
          const marks = [
            ...(s.untrusted === true ? ['untrusted'] : []),
            ...(claimed.has(s.name) ? ['name claimed twice'] : []),
          ];
          const mark = marks.length === 0 ? '' : `  ${out.style('yellow', `[${marks.join(', ')}]`)}`;
          out.line(
            `  ${safe(s.name, 100).padEnd(width)}  ${safe(describe(s), 300)}  ${out.style('dim', `(${safe(s.source, 300)})`)}${mark}`,
          );
        }
      }
      for (const file of untrusted)
        out.warn(
          `${safe(tilde(file.path, homeOf(ctx)), 500)} is a project config file you have not trusted` +
            `${file.changed ? ' in this version (it changed)' : ''}: nothing it defines is started. ` +
            `Read it, then run \`mcpc trust ${safe(quoteCommandLine([file.path]), 500)}\``,
        );
      if (sessions.length > 0) {
        out.line(out.style('bold', 'Sessions'));
        for (const s of sessions) out.line(`  @${s.name}  ${safe(s.target, 500)}  ${out.style('dim', s.health)}`);
      }
      for (const p of problems) out.warn(safe(p, 500));
    });
    return ExitCode.Ok;
  },
};
