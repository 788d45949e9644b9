// `complete`, `ping` and `log-level`: the small requests.
import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { UsageError } from '../errors.js';
import { safe } from '../output.js';

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

export const complete: Command = {
  async run(ctx, words, connection) {
    const [ref, argument, value = '', ...rest] = words;
    if (ref === undefined || argument === undefined || rest.length > 0)
      throw new UsageError('usage: mcpc <target> complete <prompt-name | template-uri> <argument> [value]', 'complete');
    // A template has a scheme or a {placeholder}; anything else names a prompt.
    const reference = /[{]|:\/\//.test(ref)
      ? { type: 'ref/resource' as const, uri: ref }
      : { type: 'ref/prompt' as const, name: ref };
    const completion = await connection!.server.complete(
      { ref: reference, argument: { name: argument, value } },
      { signal: ctx.signal },
    );
    ctx.out.result(completion, (c) => {
      for (const v of c.values) ctx.out.line(safe(v, 1_000));
      if (c.hasMore === true) ctx.out.note(`(more: ${c.total ?? 'unknown'} in all)`);
    });
    return ExitCode.Ok;
  },
};

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

export const logLevel: Command = {
  async run(ctx, words, connection) {
    const level = words[0];
    if (level === undefined || words.length > 1 || !(LEVELS as readonly string[]).includes(level))
      throw new UsageError(`usage: mcpc <target> log-level <${LEVELS.join('|')}>`, 'log-level');
    await connection!.server.setLogLevel(level as (typeof LEVELS)[number], { signal: ctx.signal });
    ctx.out.result({ level }, () => ctx.out.note(`log level set to ${level}`));
    return ExitCode.Ok;
  },
};
