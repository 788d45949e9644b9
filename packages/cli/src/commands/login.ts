// `mcpc login` / `mcpc logout`: not built yet (its owner replaces this file).
import type { Command } from '../context.js';
import { CliError, ExitCode } from '../exit.js';

export const login: Command = {
  async run() {
    throw new CliError('`login` is not available yet', ExitCode.Error);
  },
};

export const logout: Command = {
  async run() {
    throw new CliError('`logout` is not available yet', ExitCode.Error);
  },
};
