// `mcpc shell`: not built yet (its owner replaces this file).
import type { Command } from '../context.js';
import { CliError, ExitCode } from '../exit.js';

export const shell: Command = {
  async run() {
    throw new CliError('`shell` is not available yet', ExitCode.Error);
  },
};
