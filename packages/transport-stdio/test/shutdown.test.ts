// `close()`: stdin, SIGTERM then SIGKILL, idempotence, and the whole process tree.
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionClosedError, TransportError } from '@mcpc/jsonrpc';
import { StdioTransport } from '@mcpc/transport-stdio';
import {
  capturingLogger,
  cleanup,
  isAlive,
  node,
  recordingSink,
  request,
  signalLines,
  stderrCollector,
  trackPid,
  waitFor,
} from './helpers.js';

afterEach(cleanup);

const timeouts = { stdinCloseMs: 400, sigtermMs: 400 };
// Process start-up and signal delivery on a loaded two-core machine.
const SLACK_MS = 2_500;

async function startStubborn(options: { logger?: ReturnType<typeof capturingLogger> } = {}) {
  const stderr = stderrCollector();
  const sink = recordingSink();
  const t = node('stubborn.mjs', [], { shutdownTimeouts: timeouts, onStderr: stderr.onStderr, ...options });
  await t.start(sink);
  const pid = trackPid(t.pid!);
  // Its SIGTERM trap is in place once it has said its pid.
  await waitFor(() => stderr.text.includes(`stubborn[${pid}]: pid=${pid}`), 5_000, 'stubborn to be ready');
  return { t, sink, stderr, pid };
}

async function startWrapper(args: string[], shutdownTimeouts = timeouts) {
  const stderr = stderrCollector();
  const sink = recordingSink();
  const logger = capturingLogger();
  const t = node('wrapper.mjs', args, { shutdownTimeouts, onStderr: stderr.onStderr, logger });
  await t.start(sink);
  let pids: [number, number] | undefined;
  await waitFor(
    () => {
      const m = /wrapper: pid=(\d+) grandchild=(\d+)/.exec(stderr.text);
      if (m !== null && stderr.text.includes(`stubborn[${m[2]}]: pid=`)) pids = [Number(m[1]), Number(m[2])];
      return pids !== undefined;
    },
    5_000,
    'the wrapper and its grandchild to be ready',
  );
  const [wrapper, grandchild] = pids!;
  trackPid(wrapper);
  trackPid(grandchild);
  return { t, sink, stderr, logger, wrapper, grandchild };
}

describe('close()', () => {
  it('closes stdin, then sends SIGTERM, then SIGKILL to a server that ignores both, within the timeouts', async () => {
    const logger = capturingLogger();
    const { t, sink, stderr, pid } = await startStubborn({ logger });
    const started = Date.now();
    await t.close();
    const elapsed = Date.now() - started;

    expect(isAlive(pid)).toBe(false); // gone the moment close() resolves
    expect(elapsed).toBeGreaterThanOrEqual(timeouts.stdinCloseMs + timeouts.sigtermMs - 50);
    expect(elapsed).toBeLessThan(timeouts.stdinCloseMs + timeouts.sigtermMs + SLACK_MS);
    // The spec's order: stdin first, SIGTERM only after it, SIGKILL last.
    const closedAt = stderr.text.indexOf('ignoring stdin close');
    const termAt = stderr.text.indexOf('ignoring SIGTERM');
    expect(closedAt).toBeGreaterThan(-1);
    expect(termAt).toBeGreaterThan(closedAt);
    expect(logger.lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      expect.stringContaining('sending SIGKILL'),
    ]);
    expect(sink.closes).toEqual([undefined]);
  });

  it('does not wait out any timeout for a server that exits when its stdin closes', async () => {
    const logger = capturingLogger();
    const sink = recordingSink();
    const t = node('echo.mjs', [], { shutdownTimeouts: { stdinCloseMs: 10_000, sigtermMs: 10_000 }, logger });
    await t.start(sink);
    const started = Date.now();
    await t.close();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(logger.lines.filter((l) => l.level !== 'debug')).toEqual([]);
    expect(sink.closes).toEqual([undefined]);
  });

  it('is idempotent: concurrent and repeated calls share one shutdown and sink.close fires once, without a cause', async () => {
    const { t, sink, pid } = await startStubborn();
    const first = t.close();
    const second = t.close();
    expect(second).toBe(first);
    await Promise.all([first, second]);
    await t.close();
    expect(isAlive(pid)).toBe(false);
    expect(sink.closes).toEqual([undefined]);
    await expect(t.send(request(1, 'ping'))).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('kills a grandchild an npx-style wrapper left running when it exited', async () => {
    // Timeouts far beyond a loaded machine's exit time: waiting one out would show in the time and the log.
    const patient = { stdinCloseMs: 10_000, sigtermMs: 10_000 };
    const { t, wrapper, grandchild, sink, logger } = await startWrapper([], patient);
    const started = Date.now();
    await t.close();
    // The wrapper exits on stdin close, so no timeout ran: the group was killed after its leader left.
    expect(Date.now() - started).toBeLessThan(patient.stdinCloseMs);
    expect(signalLines(logger)).toEqual([]);
    await waitFor(() => !isAlive(wrapper) && !isAlive(grandchild), 2_000, 'the whole tree to be gone');
    expect(sink.closes).toEqual([undefined]);
  });

  it('signals the whole process group, so a wrapper and its grandchild that both ignore SIGTERM are killed', async () => {
    // SIGTERM's wait long enough for the wrapper to pass on its grandchild's line before SIGKILL on a loaded machine.
    const { t, stderr, wrapper, grandchild } = await startWrapper(['--stubborn'], { ...timeouts, sigtermMs: 3_000 });
    await t.close();
    await waitFor(() => !isAlive(wrapper) && !isAlive(grandchild), 2_000, 'the whole tree to be gone');
    // SIGTERM reached both: the group was signalled, not only its leader.
    expect(stderr.text).toContain('wrapper: ignoring SIGTERM');
    expect(stderr.text).toContain(`stubborn[${grandchild}]: ignoring SIGTERM`);
  });

  it('kills the rest of the group when the server exits on its own and leaves a child behind', async () => {
    const { t, wrapper, grandchild, sink } = await startWrapper([]);
    // The wrapper dies; its grandchild ignores everything but SIGKILL.
    process.kill(wrapper, 'SIGKILL');
    await sink.closed;
    await waitFor(() => !isAlive(grandchild), 2_000, 'the orphaned grandchild to be killed');
    await t.close();
  });

  it('resolves at once when never started, and start() after close() rejects', async () => {
    const sink = recordingSink();
    const t = new StdioTransport({ command: process.execPath, args: ['-e', ''] });
    await t.close();
    await expect(t.start(sink)).rejects.toBeInstanceOf(TransportError);
    expect(sink.closes).toEqual([]);
  });

  it('waits for a start in progress, then shuts the server down', async () => {
    const sink = recordingSink();
    const t = node('echo.mjs');
    const starting = t.start(sink);
    const closing = t.close();
    await starting;
    await closing;
    expect(isAlive(t.pid!)).toBe(false);
    expect(sink.closes).toEqual([undefined]);
  });
});

describe("the host process's exit hook", () => {
  it('keeps one exit listener for any number of live transports and removes it when the last closes', async () => {
    const before = process.listenerCount('exit');
    const ts = [node('echo.mjs'), node('echo.mjs'), node('echo.mjs'), node('echo.mjs')];
    await Promise.all(ts.map((t) => t.start(recordingSink())));
    expect(process.listenerCount('exit')).toBe(before + 1);
    await Promise.all(ts.slice(0, 3).map((t) => t.close()));
    expect(process.listenerCount('exit')).toBe(before + 1);
    await ts[3]!.close();
    expect(process.listenerCount('exit')).toBe(before);
  });

  it('removes the listener when the server exits on its own', async () => {
    const before = process.listenerCount('exit');
    const sink = recordingSink();
    const t = node('crash-mid-request.mjs');
    await t.start(sink);
    expect(process.listenerCount('exit')).toBe(before + 1);
    await t.send(request(1, 'tools/call'));
    await sink.closed;
    expect(process.listenerCount('exit')).toBe(before);
  });

  it('kills every live server tree synchronously when the listener runs', async () => {
    const before = new Set(process.listeners('exit'));
    const { t, pid } = await startStubborn();
    const hook = process.listeners('exit').find((l) => !before.has(l));
    expect(hook).toBeTypeOf('function');
    (hook as (code: number) => void)(0);
    await waitFor(() => !isAlive(pid), 2_000, 'the server to be killed by the hook');
    await t.close();
  });
});
