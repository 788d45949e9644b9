// `mcpc <target> log-level`: the level from which the server sends log messages.
import type { LoggingLevel } from '@mcpc/client/types';
import { LOGGING_LEVELS as LEVELS } from '@mcpc/client/constants';
import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { UsageError } from '../errors.js';

export const logLevel: Command = {
  async run(ctx, words, connection) {
    const level = words[0];
    if (level === undefined || words.length > 1 || !(LEVELS as readonly string[]).includes(level))
      throw new UsageError(`usage: mcpc <target> log-level <${LEVELS.join('|')}>`, 'log-level');
    await connection!.server.setLogLevel(level as LoggingLevel, { signal: ctx.signal });
    ctx.out.result({ level }, () => ctx.out.note(`log level set to ${level}`));
    return ExitCode.Ok;
  },
};
