// A server process that exits on its own: pending calls rejected with the cause, final replies still delivered.
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionClosedError, JsonRpcEngine, TransportError, silentLogger } from '@mcpc/jsonrpc';
import { ProcessExitError } from '@mcpc/transport-stdio';
import { cleanup, isAlive, node, recordingSink, request } from './helpers.js';

afterEach(cleanup);

describe('the server process exits on its own', () => {
  it('rejects the pending call promptly with ConnectionClosedError caused by a ProcessExitError with code and stderr', async () => {
    const t = node('crash-mid-request.mjs');
    const engine = new JsonRpcEngine(t, { logger: silentLogger, requestTimeout: 30_000 });
    await engine.start();
    await engine.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 't', version: '0' },
    });
    await engine.notify('notifications/initialized');

    const started = Date.now();
    const error: unknown = await engine
      .request('tools/call', { name: 'anything', arguments: {} })
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(3_000); // far below the 30 s request timeout

    expect(error).toBeInstanceOf(ConnectionClosedError);
    const cause = (error as ConnectionClosedError).cause;
    expect(cause).toBeInstanceOf(ProcessExitError);
    expect(cause).toBeInstanceOf(TransportError);
    const exit = cause as ProcessExitError;
    expect(exit.code).toBe('MCPC_PROCESS_EXIT');
    expect(exit.exitCode).toBe(3);
    expect(exit.signal).toBeNull();
    expect(exit.stderrTail).toContain('fatal: boom');
    expect(exit.message).toMatch(/^the server process ".*node.*" exited with code 3: fatal: boom$/);

    expect(engine.closed).toBe(true);
    expect(engine.closeCause).toBe(exit);
    await expect(engine.request('ping')).rejects.toBeInstanceOf(ConnectionClosedError);
    await engine.close(); // nothing left to do, and no error
  });

  it('calls sink.close once, with the ProcessExitError, and rejects later sends with ConnectionClosedError', async () => {
    const sink = recordingSink();
    const t = node('crash-mid-request.mjs');
    await t.start(sink);
    await t.send(request(1, 'tools/call', { name: 'x' }));
    const cause = await sink.closed;
    expect(cause).toBeInstanceOf(ProcessExitError);
    await expect(t.send(request(2, 'ping'))).rejects.toSatisfy(
      (e) => e instanceof ConnectionClosedError && e.cause === cause,
    );
    await t.close();
    await t.close();
    expect(sink.closes).toEqual([cause]);
    expect(sink.errors).toEqual([]);
  });

  it('still delivers a final response written just before the exit', async () => {
    const sink = recordingSink();
    // 1 MiB is far more than a pipe holds, so most of it is still unread when the exit is reported.
    const size = 1024 * 1024;
    const t = node('exit-after-reply.mjs', [String(size)]);
    await t.start(sink);
    await t.send(request(7, 'last-words'));
    const cause = await sink.closed;
    expect(cause).toBeInstanceOf(ProcessExitError);
    expect((cause as ProcessExitError).exitCode).toBe(0);
    expect(sink.messages).toHaveLength(1);
    const reply = sink.messages[0] as unknown as { id: number; result: { data: string } };
    expect(reply.id).toBe(7);
    expect(reply.result.data).toHaveLength(size);
  });

  it('waits, after the exit, for a reply still on its way through the pipe', async () => {
    const sink = recordingSink();
    const t = node('exit-after-reply.mjs', ['1000', '--late']);
    await t.start(sink);
    await t.send(request(8, 'late-words'));
    const cause = await sink.closed;
    expect(cause).toBeInstanceOf(ProcessExitError);
    expect((cause as ProcessExitError).stderrTail).toBe('exiting before the reply\n');
    expect(sink.messages).toHaveLength(1);
    expect((sink.messages[0] as { id: number }).id).toBe(8);
  });

  it('names a signal that killed the server', async () => {
    const sink = recordingSink();
    const t = node('stubborn.mjs');
    await t.start(sink);
    process.kill(t.pid!, 'SIGKILL');
    const cause = (await sink.closed) as ProcessExitError;
    expect(cause).toBeInstanceOf(ProcessExitError);
    expect(cause.exitCode).toBeNull();
    expect(cause.signal).toBe('SIGKILL');
    expect(cause.message).toContain('was killed by SIGKILL');
  });
});

describe('the server closes its stdout but keeps running', () => {
  it('closes with a TransportError saying so, then stops the process', async () => {
    const sink = recordingSink();
    const t = node('closes-stdout.mjs');
    await t.start(sink);
    const pid = t.pid!;
    const cause = await sink.closed;
    expect(cause).toBeInstanceOf(TransportError);
    expect(cause).not.toBeInstanceOf(ProcessExitError);
    expect((cause as TransportError).code).toBe('MCPC_STDOUT_CLOSED');
    expect(cause?.message).toContain('closed its stdout but kept running');
    await t.close();
    expect(isAlive(pid)).toBe(false);
    // It was stopped the gentle way: by closing its stdin.
    expect(t.stderrTail).toContain('stdin closed, leaving');
    expect(sink.closes).toEqual([cause]);
  });
});

describe('ProcessExitError', () => {
  it('escapes control characters in the stderr tail and caps it, keeping its end', () => {
    const tail = `${'x'.repeat(2_000)}\u001b[31mred\u0007\nlast words\n`;
    const error = new ProcessExitError('srv', 1, null, tail);
    expect(error.stderrTail).toBe(tail);
    // eslint-disable-next-line no-control-regex -- the point is to find control characters
    expect(error.message).not.toMatch(/[\u0000-\u001f]/);
    expect(error.message).toContain('\\u001b[31mred\\u0007\\u000alast words');
    expect(error.message.length).toBeLessThan(700);
    expect(error.message.startsWith('the server process "srv" exited with code 1: …')).toBe(true);
  });

  it('says when the server printed nothing', () => {
    expect(new ProcessExitError('srv', 2, null, '  \n').message).toBe(
      'the server process "srv" exited with code 2 (it wrote nothing to stderr)',
    );
  });
});
