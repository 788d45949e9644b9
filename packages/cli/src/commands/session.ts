// `mcpc session`: not built yet (its owner replaces this file).
import type { Command } from '../context.js';
import { CliError, ExitCode } from '../exit.js';

export const session: Command = {
  async run() {
    throw new CliError('`session` is not available yet', ExitCode.Error);
  },
};
