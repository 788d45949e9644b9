// `mcpc codegen`: not built yet (its owner replaces this file).
import type { Command } from '../context.js';
import { CliError, ExitCode } from '../exit.js';

export const codegen: Command = {
  async run() {
    throw new CliError('`codegen` is not available yet', ExitCode.Error);
  },
};
