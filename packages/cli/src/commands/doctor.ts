// `mcpc doctor`: not built yet (its owner replaces this file).
import type { Command } from '../context.js';
import { CliError, ExitCode } from '../exit.js';

export const doctor: Command = {
  async run() {
    throw new CliError('`doctor` is not available yet', ExitCode.Error);
  },
};
