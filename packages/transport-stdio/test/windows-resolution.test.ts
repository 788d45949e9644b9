// `resolveCommand()` on Windows: shims through PATHEXT, cmd.exe quoting, executables and batch files.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, win32 } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolveCommand } from '@mcpc/transport-stdio';
import { cleanup, recordingSink, transport } from './helpers.js';

const COMSPEC = 'C:\\Windows\\System32\\cmd.exe';
let bin: string;
let env: Record<string, string>;

beforeAll(() => {
  bin = mkdtempSync(join(tmpdir(), 'mcpc-win-'));
  // What a Node install on Windows holds: a POSIX shell script beside the .cmd shim for each tool.
  writeFileSync(join(bin, 'npx'), '#!/bin/sh\n');
  writeFileSync(join(bin, 'npx.cmd'), '@echo off\r\n');
  writeFileSync(join(bin, 'node.exe'), '');
  writeFileSync(join(bin, 'tool.bat'), '');
  mkdirSync(join(bin, 'dir.cmd'));
  env = { PATH: `C:\\nowhere;"${bin}"`, PATHEXT: '.COM;.EXE;.BAT;.CMD', ComSpec: COMSPEC };
});
afterAll(() => rmSync(bin, { recursive: true, force: true }));
afterEach(cleanup);

const shim = (): string => `"${win32.normalize(join(bin, 'npx.cmd'))}"`;
const viaCmd = (line: string) => ({
  command: COMSPEC,
  args: ['/d', '/e:on', '/v:off', '/s', '/c', `"${line}"`],
  windowsVerbatimArguments: true,
});

describe('resolveCommand() on Windows', () => {
  it('finds the npx.cmd shim on PATH with PATHEXT (not the shell script beside it) and runs it through cmd.exe', () => {
    expect(
      resolveCommand('npx', ['-y', '@modelcontextprotocol/server-everything'], { platform: 'win32', env }),
    ).toEqual(viaCmd(`${shim()} "-y" "@modelcontextprotocol/server-everything"`));
  });

  it('quotes every argument so neither cmd.exe parse can split it or expand a variable', () => {
    const args = ['a b', 'x&y|z<w>^!', 'say "hi"', 'C:\\dir\\', 'back\\"quote', '100%', '%PATH%', ''];
    const quoted = [
      '"a b"',
      '"x&y|z<w>^!"',
      '"say ""hi"""',
      '"C:\\dir\\\\"',
      '"back\\\\""quote"',
      '"100%%cd:~,%"',
      '"%%cd:~,%PATH%%cd:~,%"',
      '""',
    ];
    expect(resolveCommand('npx', args, { platform: 'win32', env })).toEqual(viaCmd([shim(), ...quoted].join(' ')));
  });

  it('refuses line breaks, which cmd.exe cannot quote', () => {
    expect(() => resolveCommand('npx', ['a\r\nb'], { platform: 'win32', env })).toThrow(TypeError);
    expect(() => resolveCommand('npx', ['a\nb'], { platform: 'win32', env })).toThrow(TypeError);
  });

  it('runs an .exe found on PATH directly, by its full path, arguments untouched', () => {
    expect(resolveCommand('node', ['-e', 'a b'], { platform: 'win32', env })).toEqual({
      command: join(bin, 'node.exe'),
      args: ['-e', 'a b'],
      windowsVerbatimArguments: false,
    });
  });

  it('handles a .bat as a batch file too, an explicit path to a shim, and a quoted command name', () => {
    expect(resolveCommand('tool', [], { platform: 'win32', env })).toEqual(
      viaCmd(`"${win32.normalize(join(bin, 'tool.bat'))}"`),
    );
    expect(resolveCommand(join(bin, 'npx.cmd'), ['x'], { platform: 'win32', env })).toEqual(viaCmd(`${shim()} "x"`));
    expect(resolveCommand('"npx"', [], { platform: 'win32', env })).toEqual(viaCmd(shim()));
  });

  it('reads PATH, PATHEXT and ComSpec whatever their case, and falls back to cmd.exe', () => {
    const lower = { Path: bin, PathExt: '.EXE;.CMD' };
    expect(resolveCommand('npx', [], { platform: 'win32', env: lower })).toEqual({
      ...viaCmd(shim()),
      command: 'cmd.exe',
    });
  });

  it('does not take a directory for the program', () => {
    expect(resolveCommand('dir', [], { platform: 'win32', env }).command).toBe('dir');
  });

  it('leaves a command it cannot find to spawn (ENOENT), unless its name says it is a batch file', () => {
    expect(resolveCommand('missing', ['a'], { platform: 'win32', env })).toEqual({
      command: 'missing',
      args: ['a'],
      windowsVerbatimArguments: false,
    });
    // Windows strips trailing dots and spaces, so this still names a batch file and must be quoted as one.
    expect(resolveCommand('evil.cmd. ', ['&calc'], { platform: 'win32', env })).toEqual(viaCmd('"evil.cmd. " "&calc"'));
  });

  it('does not search the current directory', () => {
    const cwdOnly = { PATH: 'C:\\nowhere', PATHEXT: '.CMD' };
    expect(resolveCommand('npx', [], { platform: 'win32', env: cwdOnly, cwd: bin }).command).toBe('npx');
  });

  it('changes nothing on POSIX', () => {
    expect(resolveCommand('npx', ['-y', 'a b', '%X%'], { platform: 'linux', env })).toEqual({
      command: 'npx',
      args: ['-y', 'a b', '%X%'],
      windowsVerbatimArguments: false,
    });
  });
});

describe.runIf(process.platform === 'win32')('on a real Windows machine', () => {
  it('runs a .cmd shim through cmd.exe with every argument arriving intact', async () => {
    const script = join(bin, 'print-args.cmd');
    writeFileSync(
      script,
      `@"${process.execPath}" -e "process.stdout.write(JSON.stringify({jsonrpc:'2.0',method:'args',params:{argv:process.argv.slice(1)}})+'\\n')" %*\r\n`,
    );
    const args = ['a b', 'x&y|z', '100%', '%PATH%', 'say "hi"', 'C:\\dir\\'];
    const sink = recordingSink();
    const t = transport({ command: script, args });
    await t.start(sink);
    await sink.closed;
    expect(sink.messages).toEqual([{ jsonrpc: '2.0', method: 'args', params: { argv: args } }]);
  });
});
