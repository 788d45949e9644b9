// `mcpc` alone: the servers configured on this machine (and where each came from), and the open sessions.
import { discover } from '../configured.js';
import type { Command } from '../context.js';
import { ExitCode } from '../exit.js';
import { safe } from '../output.js';
import { listSessions } from '../session/list.js';

export const servers: Command = {
  async run(ctx) {
    const [{ servers: found, problems }, sessions] = await Promise.all([discover(ctx), listSessions(ctx)]);
    ctx.out.result({ servers: found, sessions, problems }, () => {
      const { out } = ctx;
      if (found.length === 0) out.line('No servers configured. Give a URL or --stdio "cmd", or --config FILE.');
      else {
        out.line(out.style('bold', 'Servers'));
        const width = Math.min(32, Math.max(...found.map((s) => s.name.length)));
        for (const s of found) {
          const what = s.url !== undefined ? safe(s.url, 300) : safe([s.command, ...(s.args ?? [])].join(' '), 300);
          out.line(`  ${safe(s.name, 100).padEnd(width)}  ${what}  ${out.style('dim', `(${safe(s.source, 300)})`)}`);
        }
      }
      if (sessions.length > 0) {
        out.line(out.style('bold', 'Sessions'));
        for (const s of sessions) out.line(`  @${s.name}  ${s.target}  ${out.style('dim', s.health)}`);
      }
      for (const p of problems) out.warn(safe(p, 500));
    });
    return ExitCode.Ok;
  },
};
