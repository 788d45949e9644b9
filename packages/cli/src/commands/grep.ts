// `mcpc grep`: not built yet (its owner replaces this file).
import type { Command } from '../context.js';
import { CliError, ExitCode } from '../exit.js';

export const grep: Command = {
  async run() {
    throw new CliError('`grep` is not available yet', ExitCode.Error);
  },
};
