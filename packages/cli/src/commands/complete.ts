// `mcpc <target> complete`: completion values for a prompt's or a resource template's argument.
import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { UsageError } from '../errors.js';
import { safe } from '../output.js';

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
