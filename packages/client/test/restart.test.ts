// Stdio servers that exit on their own: restarted on the next request, in-flight calls failed, crash loops stopped.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  Client,
  ClientClosedError,
  ConnectionClosedError,
  ConnectionError,
  CrashLoopError,
  stdio,
  textOf,
} from '@mcpc/client';
import { alive, linesOf, recordingLogger, until } from './helpers.js';

const stdioFixture = (file: string): string =>
  fileURLToPath(new URL(`../../../tooling/fixtures/stdio/${file}`, import.meta.url));
const scratch = (): string => join(mkdtempSync(join(tmpdir(), 'mcpc-restart-')), 'log');

const mortal = (log: string, args: readonly string[] = []) =>
  stdio({ name: 'mortal', command: process.execPath, args: [stdioFixture('mortal.mjs'), log, ...args] });

describe('a stdio server whose process exits on its own', () => {
  it('is started afresh on the next request after it was killed', async () => {
    const logger = recordingLogger();
    await using client = new Client({ servers: [mortal(scratch())], logger });
    const first = Number(textOf(await client.callTool('pid')));
    process.kill(first, 'SIGKILL');
    await until(() => client.server('mortal').state === 'disconnected');
    const second = Number(textOf(await client.callTool('pid')));
    expect(second).not.toBe(first);
    expect(alive(second)).toBe(true);
    expect(logger.text('warn')).toMatch(
      /server "mortal" disconnected: .*SIGKILL.*; it is started again on the next request/,
    );
  });

  it('one that exits after answering (exit-after N) serves the next call from a fresh process', async () => {
    await using client = new Client({ servers: [mortal(scratch(), ['--exit-after', '1'])], logger: recordingLogger() });
    const pids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      pids.add(textOf(await client.callTool('pid')));
      await until(() => client.server('mortal').state !== 'connected');
    }
    expect(pids.size).toBe(3);
  });

  it('a call in flight when it dies fails with the cause and is never replayed', async () => {
    const log = scratch();
    await using client = new Client({ servers: [mortal(log)], logger: recordingLogger() });
    const error = await client.callTool('die').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as Error).message).toMatch(/exited with code 3: fatal: out of memory/);
    expect(((error as Error).cause as { code?: string }).code).toBe('MCPC_PROCESS_EXIT');
    const pid = textOf(await client.callTool('pid'));
    expect(linesOf(log).filter((l) => l.endsWith(' die'))).toHaveLength(1);
    expect(linesOf(log).at(-1)).toBe(`${pid} pid`);
  });

  it('only close() is final', async () => {
    const client = new Client({ servers: [mortal(scratch())], logger: recordingLogger() });
    const pid = Number(textOf(await client.callTool('pid')));
    await client.close();
    await until(() => !alive(pid));
    await expect(client.callTool('pid')).rejects.toBeInstanceOf(ClientClosedError);
  });

  it('one that dies at once every time ends in CrashLoopError after 5 attempts, and is not started again', async () => {
    const starts = scratch();
    await using client = new Client({
      servers: [
        stdio({
          name: 'doomed',
          command: process.execPath,
          args: [stdioFixture('exit-at-once.mjs'), '1', 'Error: boom', starts],
        }),
      ],
      logger: recordingLogger(),
    });
    const errors: unknown[] = [];
    for (let i = 0; i < 8; i++) errors.push(await client.callTool('anything').catch((e: unknown) => e));
    expect(errors.slice(0, 5).every((e) => e instanceof ConnectionError && e.code === 'MCPC_SERVER_EXITED')).toBe(true);
    const loop = errors[5] as CrashLoopError;
    expect(loop).toBeInstanceOf(CrashLoopError);
    expect(loop.code).toBe('MCPC_CRASH_LOOP');
    expect(loop.message).toMatch(
      /its process failed 5 times within 60 s, so it is not being started again for now; the last time: .*exited \(code 1\)/,
    );
    expect(errors.slice(6).every((e) => e instanceof CrashLoopError)).toBe(true);
    expect(linesOf(starts)).toHaveLength(5);
  });
});

describe('a 2026-07-28 stdio server whose replacement dies right after discovery', () => {
  it('fails each call with a typed error in bounded time, and ends in CrashLoopError: no endless restarts', async () => {
    const starts = scratch();
    const server = fileURLToPath(new URL('../../../tooling/fixtures/modern/scripted-server.mjs', import.meta.url));
    await using client = new Client({
      servers: [
        stdio({
          name: 'fragile',
          command: process.execPath,
          args: [server, 'stdio', '--exit-after-discover', '--starts', starts],
        }),
      ],
      logger: recordingLogger(),
    });
    const started = performance.now();
    const errors: unknown[] = [];
    // The first process is discovered, then dies; each call after that meets a replacement that does the same.
    for (let i = 0; i < 12 && !(errors.at(-1) instanceof CrashLoopError); i++) {
      // Once the death is seen (a call in the same instant may fail on the dead pipe, MCPC_WRITE_FAILED).
      await until(() => client.server('fragile').state !== 'connected', 5_000).catch(() => undefined);
      errors.push(await client.callTool('echo', {}).catch((e: unknown) => e));
    }
    // Each a typed error saying the process went away (or its pipe did), never an answer, never a hang.
    const codes = new Set(errors.map((e) => (e as { code?: unknown }).code));
    for (const code of codes)
      expect(['MCPC_CONNECTION_CLOSED', 'MCPC_SERVER_EXITED', 'MCPC_WRITE_FAILED', 'MCPC_CRASH_LOOP']).toContain(code);
    expect(errors.at(-1)).toBeInstanceOf(CrashLoopError);
    // Started a bounded number of times (the crash-loop bound), in bounded time.
    expect(linesOf(starts).length).toBeLessThanOrEqual(6);
    expect(performance.now() - started).toBeLessThan(20_000);
  }, 30_000);
});
