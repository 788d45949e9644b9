// `mcpc session <target> @name`: opens the target in a background process that `mcpc @name <command>` then reaches.
import type { Command } from '../command.js';
import { UsageError } from '../errors.js';

const USAGE =
  'usage: mcpc session <target> @name (or mcpc session @name --stdio "cmd", or mcpc session @name -- cmd args); mcpc @name close ends it';

export const session: Command = {
  async run(ctx, words) {
    const names = words.filter((w) => w.startsWith('@'));
    const others = words.filter((w) => !w.startsWith('@'));
    if (names.length !== 1) throw new UsageError(`give the session one @name; ${USAGE}`, 'session');
    if (others.length > 1) throw new UsageError(`give one target; ${USAGE}`, 'session');
    const word = others[0];
    if (word === undefined && ctx.flags.stdio === undefined && (ctx.trailing ?? []).length === 0)
      throw new UsageError(`give a target; ${USAGE}`, 'session');
    const { startSession } = await import('../session/client.js');
    return startSession(ctx, word, names[0]!.slice(1));
  },
};
