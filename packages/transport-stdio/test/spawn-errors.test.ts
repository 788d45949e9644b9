// Servers that cannot be started: SpawnError naming the command or directory, bad options refused.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpError, TransportError } from '@mcpc/jsonrpc';
import { SpawnError } from '@mcpc/transport-stdio';
import { cleanup, recordingSink, transport } from './helpers.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcpc-spawn-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(cleanup);

async function startFailure(options: Parameters<typeof transport>[0]) {
  const sink = recordingSink();
  const exitListeners = process.listenerCount('exit');
  const t = transport(options);
  const error: unknown = await t.start(sink).catch((e: unknown) => e);
  // The contract: a transport whose start rejected calls no sink method, and holds nothing.
  expect(sink.closes).toEqual([]);
  expect(sink.messages).toEqual([]);
  expect(sink.errors).toEqual([]);
  expect(process.listenerCount('exit')).toBe(exitListeners);
  await t.close();
  expect(sink.closes).toEqual([]);
  return error;
}

describe('a server that cannot be started', () => {
  it('rejects start() with a SpawnError naming the command and ENOENT when it does not exist', async () => {
    const command = 'mcpc-no-such-command-4f1c9';
    const error = await startFailure({ command, args: ['--x'] });
    expect(error).toBeInstanceOf(SpawnError);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toBeInstanceOf(McpError);
    const e = error as SpawnError;
    expect(e.code).toBe('MCPC_SPAWN_FAILED');
    expect(e.command).toBe(command);
    expect(e.errno).toBe('ENOENT');
    expect(e.syscall).toBe(`spawn ${command}`);
    expect(e.message).toContain(`"${command}"`);
    expect(e.message).toContain('ENOENT');
    expect(e.message).toContain('PATH');
    expect((e.cause as NodeJS.ErrnoException).code).toBe('ENOENT');
  });

  it.skipIf(process.platform === 'win32')('rejects with EACCES for a file that is not executable', async () => {
    const file = join(dir, 'not-executable.sh');
    writeFileSync(file, '#!/bin/sh\necho hi\n');
    chmodSync(file, 0o644);
    const error = await startFailure({ command: file });
    expect(error).toBeInstanceOf(SpawnError);
    expect((error as SpawnError).errno).toBe('EACCES');
    expect((error as SpawnError).command).toBe(file);
    expect((error as SpawnError).message).toMatch(/EACCES.*executable/);
  });

  it('says it is the working directory that is missing, not the command', async () => {
    const cwd = join(dir, 'no-such-dir');
    const error = await startFailure({ command: process.execPath, cwd });
    expect(error).toBeInstanceOf(SpawnError);
    expect((error as SpawnError).errno).toBe('ENOENT');
    expect((error as SpawnError).message).toContain(`the working directory "${cwd}" does not exist`);
  });

  it('rejects, without throwing, for a command spawn refuses outright', async () => {
    const t = transport({ command: 'bad\0command' });
    const starting = t.start(recordingSink());
    await expect(starting).rejects.toBeInstanceOf(SpawnError);
  });

  it('refuses bad options when constructed', () => {
    expect(() => transport({ command: '' })).toThrow(TypeError);
    expect(() => transport({ command: 'x', maxMessageBytes: 0 })).toThrow(RangeError);
    expect(() => transport({ command: 'x', shutdownTimeouts: { sigtermMs: -1 } })).toThrow(RangeError);
    expect(() => transport({ command: 'x', stderrTailBytes: Number.NaN })).toThrow(RangeError);
  });
});
