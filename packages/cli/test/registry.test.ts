// The command table is the one list: help, the shell's commands and its completion all come from it.
import { describe, expect, it } from 'vitest';
import { SHELL_COMMANDS } from '../src/resolve.js';
import { COMMANDS, byName } from '../src/registry.js';

describe('the command table', () => {
  it('gives the shell every server command that does not stream, then its own help and exit', () => {
    const server = COMMANDS.filter((c) => c.server).map((c) => c.name);
    expect(SHELL_COMMANDS).toEqual([...server.filter((n) => n !== 'listen' && n !== 'subscribe'), 'help', 'exit']);
    expect(SHELL_COMMANDS).not.toContain('listen');
    expect(SHELL_COMMANDS).not.toContain('doctor');
  });

  it('names each command once, and every one can be found by its name', () => {
    const names = COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(byName(name)?.name).toBe(name);
  });
});
