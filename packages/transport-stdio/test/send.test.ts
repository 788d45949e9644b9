// `send()`: backpressure, queued sends on close, rejections instead of throws, aborted sends withdrawn.
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { AbortError, ConnectionClosedError, TransportError, type JsonRpcMessage } from '@mcpc/jsonrpc';
import { StdioTransport } from '@mcpc/transport-stdio';
import { LineWriter } from '../src/line-writer.js';
import { cleanup, node, recordingSink, request, waitFor } from './helpers.js';

afterEach(cleanup);

describe('send()', () => {
  it('writes a burst of several megabytes to a slow reader with backpressure, every message arriving in order', async () => {
    const sink = recordingSink();
    // The server reads nothing for its first 2 s, so the pipe fills almost at once; 2 s, not less, because a timer on
    // a loaded machine can fire hundreds of ms late and the check below must still come before the server reads.
    const t = node('echo.mjs', ['--delay-read-ms', '2000']);
    await t.start(sink);
    const count = 2_000;
    const payload = 'p'.repeat(2_000); // about 4 MB in all
    let handed = 0;
    const sends = Array.from({ length: count }, (_, i) =>
      t.send(request(i, 'echo', { i, payload })).then(() => void handed++),
    );
    await new Promise((resolve) => setTimeout(resolve, 250));
    // A send resolves when its frame reached the pipe; with the reader asleep most cannot have.
    expect(handed).toBeLessThan(count / 2);
    await Promise.all(sends);
    await waitFor(() => sink.messages.length === count, 20_000, 'every echo');
    expect(sink.messages.map((m) => (m as { id: number }).id)).toEqual(Array.from({ length: count }, (_, i) => i));
    expect((sink.messages[count - 1] as { result: { payload: string } }).result.payload).toBe(payload);
    expect(sink.errors).toEqual([]);
  });

  it('rejects sends still queued when close() is called, and every send after, with ConnectionClosedError', async () => {
    const sink = recordingSink();
    // It never reads, so it never sees stdin close either: SIGTERM ends it.
    const t = node('echo.mjs', ['--delay-read-ms', '60000'], { shutdownTimeouts: { stdinCloseMs: 200 } });
    await t.start(sink);
    const big = 'q'.repeat(64 * 1024);
    const sends = Array.from({ length: 20 }, (_, i) => t.send(request(i, 'echo', { big })));
    const outcomes = Promise.allSettled(sends);
    await t.close();
    const settled = await outcomes;
    const rejected = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    expect(rejected.length).toBeGreaterThan(10);
    expect(rejected.every((s) => s.reason instanceof ConnectionClosedError)).toBe(true);
    await expect(t.send(request(99, 'ping'))).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('never throws synchronously: an unserializable message, or a send before start, is a rejected promise', async () => {
    const t = node('echo.mjs');
    let notStarted: Promise<void> | undefined;
    expect(() => (notStarted = t.send(request(0, 'ping')))).not.toThrow();
    await expect(notStarted).rejects.toMatchObject({ code: 'MCPC_NOT_STARTED' });
    await t.start(recordingSink());
    const bad = { jsonrpc: '2.0', id: 1, method: 'x', params: { n: 10n } } as unknown as JsonRpcMessage;
    let sent: Promise<void> | undefined;
    expect(() => (sent = t.send(bad))).not.toThrow();
    await expect(sent).rejects.toSatisfy(
      (e) => e instanceof TransportError && (e as TransportError).code === 'MCPC_ENCODE_FAILED',
    );
  });

  it('withdraws a queued send whose signal aborts, and sends the rest', async () => {
    const sink = recordingSink();
    const t = node('echo.mjs', ['--delay-read-ms', '300']);
    await t.start(sink);
    const big = 'r'.repeat(256 * 1024); // several of these fill the pipe, so later ones queue
    const controller = new AbortController();
    const first = Array.from({ length: 4 }, (_, i) => t.send(request(i, 'echo', { big })));
    const aborted = t.send(request('aborted', 'echo', { big }), { signal: controller.signal });
    const withdrawn = t.send(request('withdrawn', 'echo', { big }));
    // A frame that would wait behind others is refused at once when its signal has already fired.
    const refused = t.send(request('refused', 'echo'), { signal: AbortSignal.abort() });
    const last = t.send(request('last', 'echo', {}));
    controller.abort(new Error('changed my mind'));
    t.abandon('withdrawn', new Error('timed out'));
    await expect(aborted).rejects.toBeInstanceOf(AbortError);
    await expect(withdrawn).rejects.toBeInstanceOf(AbortError);
    await expect(refused).rejects.toBeInstanceOf(AbortError);
    await Promise.all([...first, last]);
    await waitFor(() => sink.messages.length === 5, 10_000, 'the echoes');
    expect(sink.messages.map((m) => (m as { id: unknown }).id)).toEqual([0, 1, 2, 3, 'last']);
  });

  it("reads a send's signal only when its frame has to wait", async () => {
    const t = node('echo.mjs', ['--delay-read-ms', '300']);
    await t.start(recordingSink());
    let reads = 0;
    const never = new AbortController().signal;
    const counted = {
      get signal(): AbortSignal {
        reads++;
        return never;
      },
    };
    await t.send(request(1, 'echo', {}), counted);
    expect(reads).toBe(0);
    const big = 's'.repeat(256 * 1024);
    const first = Array.from({ length: 4 }, (_, i) => t.send(request(10 + i, 'echo', { big })));
    const waiting = t.send(request(2, 'echo', {}), counted);
    expect(reads).toBe(1);
    await Promise.all([...first, waiting]);
  });

  it('reports the byte length of each frame it receives', async () => {
    const sink = recordingSink();
    const t = node('echo.mjs');
    await t.start(sink);
    await t.send(request(1, 'echo', { text: 'ü' }));
    await waitFor(() => sink.messages.length === 1, 5_000, 'the echo');
    expect(sink.infos[0]).toEqual({
      byteLength: Buffer.byteLength(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'ü' } })}\n`),
    });
  });

  it('does not crash the host when the server dies while a large write is in flight (EPIPE)', async () => {
    const sink = recordingSink();
    const t = node('crash-mid-request.mjs');
    await t.start(sink);
    const big = 'z'.repeat(8 * 1024 * 1024);
    const writing = t.send(request(1, 'echo', { big })).catch((e: unknown) => e);
    await t.send(request(2, 'tools/call', {})).catch(() => {});
    await sink.closed;
    const outcome = await writing;
    if (outcome !== undefined) expect(outcome).toBeInstanceOf(Error);
  });

  it('keeps start() to a single call', async () => {
    const t = node('echo.mjs');
    await t.start(recordingSink());
    await expect(t.start(recordingSink())).rejects.toMatchObject({ code: 'MCPC_ALREADY_STARTED' });
    expect(t).toBeInstanceOf(StdioTransport);
  });
});

describe('LineWriter', () => {
  it('hands nothing more to a stream that said it is full until it drains, and keeps the order', async () => {
    const received: string[] = [];
    let peak = 0;
    const stream = new Writable({
      highWaterMark: 1_000,
      write(chunk: Buffer, _encoding, done) {
        received.push(chunk.toString());
        setTimeout(done, 1); // a slow consumer
      },
    });
    const writer = new LineWriter(stream, (cause) => new TransportError('write failed', { cause }));
    const frames = Array.from({ length: 50 }, (_, i) => `${String(i).padStart(3, '0')}${'.'.repeat(400)}\n`);
    const writes = frames.map((frame) =>
      writer.write(frame).then(() => (peak = Math.max(peak, stream.writableLength))),
    );
    peak = Math.max(peak, stream.writableLength);
    await Promise.all(writes);
    // In order; frames of one turn may share a write, which never grows past the high-water mark by more than a frame.
    expect(received.join('')).toBe(frames.join(''));
    expect(received.length).toBeGreaterThan(1);
    for (const chunk of received) expect(chunk.length).toBeLessThanOrEqual(1_000 + 404);
    // Without waiting for 'drain', all 20 KB would sit in the stream's buffer at once.
    expect(peak).toBeLessThanOrEqual(1_000 + 404);
  });

  it('sends the frames of one turn in one write, and fails every one of them when that write fails', async () => {
    const received: string[] = [];
    let fail = false;
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        received.push(chunk.toString());
        done(fail ? new Error('EPIPE') : null);
      },
    });
    stream.on('error', () => {});
    const writer = new LineWriter(stream, (cause) => new TransportError('write failed', { cause }));
    await Promise.all(['a\n', 'b\n', 'c\n'].map((f) => writer.write(f)));
    expect(received).toEqual(['a\nb\nc\n']);
    fail = true;
    const outcomes = await Promise.allSettled(['d\n', 'e\n'].map((f) => writer.write(f)));
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect((outcomes[0] as PromiseRejectedResult).reason).toBeInstanceOf(TransportError);
  });
});
