// `mcpc <target> ping`: one ping, and the round trip it took.
import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { UsageError } from '../errors.js';

export const ping: Command = {
  async run(ctx, words, connection) {
    if (words.length > 0) throw new UsageError('`ping` takes no arguments', 'ping');
    const started = performance.now();
    await connection!.server.ping({ signal: ctx.signal });
    const ms = Math.round(performance.now() - started);
    ctx.out.result({ ok: true, ms }, () => ctx.out.line(`pong (${ms} ms)`));
    return ExitCode.Ok;
  },
};
