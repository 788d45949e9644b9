// One dispatcher, end to end: a failure and --help come out alike from `mcpc`, a `mcpc shell` line and a session.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { EVERYTHING, NODE, freshHome, mcpc, type McpcResult } from './helpers.js';

const STDIO = ['--stdio', `${NODE} ${EVERYTHING} stdio`];
const home = freshHome();

/** The same command line at the top level, in session @d, and as a line of `mcpc shell` (its own output only). */
async function everywhere(words: readonly string[]): Promise<Record<'top' | 'session' | 'shell', McpcResult>> {
  const [top, session, shell] = await Promise.all([
    mcpc([...STDIO, ...words], { home }),
    mcpc(['@d', ...words], { home }),
    mcpc(['shell', ...STDIO], { home, input: `${words.join(' ')}\n` }),
  ]);
  return { top: top!, session: session!, shell: shell! };
}

beforeAll(async () => {
  const started = await mcpc(['session', ...STDIO, '@d'], { home, timeoutMs: 30_000 });
  expect(started.code, started.stderr).toBe(0);
}, 40_000);

afterAll(async () => {
  await mcpc(['@d', 'close'], { home });
  rmSync(home, { recursive: true, force: true });
});

describe('the one dispatcher', () => {
  it('prints a failure the same way from all three: the same error line, and the stack with -vv', async () => {
    const ran = await everywhere(['call', 'nosuch', '-vv']);
    for (const [where, result] of Object.entries(ran)) {
      expect(result.stderr, where).toMatch(/^error: the server has no tool "nosuch"$/m);
      expect(result.stderr, `${where}: the stack, with -vv`).toMatch(/^\s+at .*\.js:\d+:\d+\)?$/m);
    }
    expect(ran.top.code).toBe(ExitCode.Usage);
    expect(ran.session.code).toBe(ExitCode.Usage);
    // The shell carries on after a failed line, and ends well.
    expect(ran.shell.code).toBe(ExitCode.Ok);
  });

  it('without -vv, no stack anywhere', async () => {
    const ran = await everywhere(['call', 'nosuch']);
    for (const [where, result] of Object.entries(ran)) {
      expect(result.stderr, where).toMatch(/^error: the server has no tool "nosuch"$/m);
      expect(result.stderr, where).not.toMatch(/^\s+at /m);
    }
  });

  it("--help prints the command's help from all three (a shell line ran the command instead)", async () => {
    const ran = await everywhere(['tools', '--help']);
    expect(ran.top.code).toBe(0);
    expect(ran.top.stdout).toContain('Usage: mcpc <target> tools [--schema]');
    expect(ran.session.stdout).toBe(ran.top.stdout);
    expect(ran.shell.stdout).toBe(ran.top.stdout);
  });

  it('refuses a flag the command does not take, from all three (the shell without the `mcpc --help` hint)', async () => {
    const ran = await everywhere(['ping', '--schema']);
    for (const [where, result] of Object.entries(ran))
      expect(result.stderr, where).toMatch(/^error: `ping` does not take --schema$/m);
    expect(ran.top.stderr).toContain('hint: run `mcpc help ping` for its usage');
    expect(ran.top.code).toBe(ExitCode.Usage);
    expect(ran.session.code).toBe(ExitCode.Usage);
    expect(ran.shell.stderr).not.toContain('hint:');
  });
});
