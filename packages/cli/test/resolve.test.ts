// The dispatcher's resolution, table by table: what a top-level argv, a shell line and a session request each name.
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/args.js';
import { UsageError } from '../src/errors.js';
import { resolveWords, type Mode, type Resolved } from '../src/resolve.js';

/** A resolution in a few words: `servers`, `help:ping`, `close:s`, `nothing`, or `command target [words]`. */
function shown(resolved: Resolved): string {
  switch (resolved.kind) {
    case 'servers':
    case 'nothing':
      return resolved.kind;
    case 'help':
      return `help:${resolved.topic ?? ''}`;
    case 'close':
      return `close:${resolved.session}`;
    case 'command':
      return [resolved.info.name, resolved.target ?? '-', ...resolved.words].join(' ');
  }
}

const resolveIn = (mode: Mode, argv: readonly string[]): string => shown(resolveWords(parseCommandLine(argv), mode));

describe('resolveWords at the top level (`mcpc …`)', () => {
  it.each([
    ['nothing: the servers', [], 'servers'],
    ['help', ['help'], 'help:'],
    ['help for one command', ['help', 'call'], 'help:call'],
    ['a target alone: info', ['https://x.test/mcp'], 'info https://x.test/mcp'],
    ['a target and a command with words', ['everything', 'call', 'echo', 'a=1'], 'call everything echo a=1'],
    ['a leading command', ['doctor', 'https://x.test/mcp'], 'doctor - https://x.test/mcp'],
    ['a leading command with --stdio', ['doctor', '--stdio', 'srv'], 'doctor -'],
    ['--stdio before a leading command', ['--stdio', 'srv', 'doctor'], 'doctor -'],
    ['--stdio and a server command: no target word', ['--stdio', 'srv', 'tools'], 'tools -'],
    ['--stdio alone: info', ['--stdio', 'srv'], 'info -'],
    ['a server after --', ['ping', '--', 'node', 'server.js'], 'ping -'],
    ['a session and a command', ['@s', 'call', 'echo'], 'call @s echo'],
    ['a session closed', ['@s', 'close'], 'close:s'],
    ['a configured name and a command', ['x', 'ping'], 'ping x'],
  ])('%s', (_what, argv, expected) => {
    expect(resolveIn('top', argv)).toBe(expected);
  });

  it.each([
    ['an unknown command', ['x', 'frobnicate'], /unknown command "frobnicate"$/],
    ['a leading command after a target', ['x', 'doctor'], /`doctor` comes first: mcpc doctor/],
    ['close after a target that is no session', ['x', 'close'], /unknown command "close"/],
  ])('refuses %s with a UsageError', (_what, argv, message) => {
    expect(() => resolveIn('top', argv)).toThrow(UsageError);
    expect(() => resolveIn('top', argv)).toThrow(message);
  });
});

describe('resolveWords on a shell line (the connection is open)', () => {
  it.each([
    ['flags alone: nothing to run', ['--json'], 'nothing'],
    ['help', ['help'], 'help:'],
    ['help for a command the shell does not offer', ['help', 'listen'], 'help:listen'],
    ['a command with words', ['call', 'echo', 'message=hi'], 'call - echo message=hi'],
    ['a command with its flag', ['tools', '--schema'], 'tools -'],
  ])('%s', (_what, argv, expected) => {
    expect(resolveIn('shell', argv)).toBe(expected);
  });

  it.each([
    ['an unknown command', ['frobnicate'], /unknown command "frobnicate" \(help lists them\)/],
    ['a streaming command', ['listen'], /unknown command "listen"/],
    ['a leading command', ['doctor'], /unknown command "doctor"/],
    ['the shell itself', ['shell'], /unknown command "shell"/],
    ['a target of its own', ['tools', '--stdio', 'srv'], /connected already: no --stdio or --/],
    ['a server after --', ['tools', '--', 'srv'], /connected already/],
    ['a control character in the name, shown escaped', ['\u001b[31m'], /unknown command "\\x1b\[31m"/],
  ])('refuses %s with a UsageError', (_what, argv, message) => {
    expect(() => resolveIn('shell', argv)).toThrow(UsageError);
    expect(() => resolveIn('shell', argv)).toThrow(message);
  });
});

describe('resolveWords in a session (`mcpc @name …`, run by its daemon)', () => {
  it.each([
    ['the session alone: info', ['@s'], 'info @s'],
    ['a command with words', ['@s', 'call', 'echo', 'a=1'], 'call @s echo a=1'],
    ['a streaming command', ['@s', 'listen', '--tools'], 'listen @s'],
  ])('%s', (_what, argv, expected) => {
    expect(resolveIn('session', argv)).toBe(expected);
  });

  it.each([
    ['no session word', ['ping'], /a session runs `mcpc @name <command> …`/],
    ['nothing at all', [], /a session runs/],
    ['an unknown command', ['@s', 'frobnicate'], /unknown command "frobnicate" for a session/],
    ['a leading command', ['@s', 'login'], /unknown command "login" for a session/],
  ])('refuses %s with a UsageError', (_what, argv, message) => {
    expect(() => resolveIn('session', argv)).toThrow(UsageError);
    expect(() => resolveIn('session', argv)).toThrow(message);
  });
});
