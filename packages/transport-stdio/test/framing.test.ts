// LineDecoder framing and a server writing garbage: lines however chunked, the size limit, bad frames.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  JsonRpcEngine,
  JsonRpcProtocolError,
  MessageTooLargeError,
  silentLogger,
  type ProtocolErrorReason,
} from '@mcpc/jsonrpc';
import { LineDecoder } from '../src/line-decoder.js';
import { cleanup, isAlive, node, recordingSink, request, waitFor } from './helpers.js';

afterEach(cleanup);

function decoder(max: number) {
  const lines: string[] = [];
  const frames: number[] = [];
  let overflows = 0;
  const d = new LineDecoder(max, {
    line: (content, frameBytes) => {
      lines.push(content.toString('utf8'));
      frames.push(frameBytes);
    },
    overflow: () => void overflows++,
  });
  return { d, lines, frames, overflows: () => overflows };
}

/** Cuts `bytes` at the given offsets into separate Buffers, as a pipe might. */
function cut(bytes: Buffer, offsets: number[]): Buffer[] {
  const points = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let last = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(last, point));
    last = point;
  }
  return chunks;
}

describe('LineDecoder', () => {
  it('yields the same lines however the stream is cut into chunks (multi-byte characters, CRLF, blank lines)', () => {
    const line = fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 30 })
      .filter((s) => !/[\r\n]/.test(s) && s.trim().length > 0);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n'), fc.constantFrom('', '\n', '\r\n', '  \n')), {
          minLength: 1,
          maxLength: 20,
        }),
        fc.array(fc.nat(), { maxLength: 40 }),
        (entries, offsets) => {
          const wire = Buffer.from(entries.map(([text, end, blank]) => text + end + blank).join(''));
          const { d, lines, frames } = decoder(1024);
          for (const chunk of cut(wire, offsets)) d.push(chunk);
          d.end();
          expect(lines).toEqual(entries.map(([text]) => text));
          expect(frames).toEqual(entries.map(([text, end]) => Buffer.byteLength(text) + end.length));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('accepts a line of exactly the limit and rejects one byte more, before its newline arrives', () => {
    const ok = decoder(10);
    ok.d.push(Buffer.from('0123456789\r'));
    ok.d.push(Buffer.from('\n'));
    expect(ok.lines).toEqual(['0123456789']);
    expect(ok.overflows()).toBe(0);

    const over = decoder(10);
    over.d.push(Buffer.from('01234'));
    over.d.push(Buffer.from('567890a')); // 12 bytes, no newline yet
    expect(over.overflows()).toBe(1);
    over.d.push(Buffer.from('\n{"after":1}\n'));
    over.d.end();
    expect(over.lines).toEqual([]); // nothing after an overflow
    expect(over.overflows()).toBe(1);
  });

  it('rejects an overlong line that arrives whole in one chunk', () => {
    const { d, lines, overflows } = decoder(4);
    d.push(Buffer.from('ok\n12345\nnever\n'));
    expect(lines).toEqual(['ok']);
    expect(overflows()).toBe(1);
  });

  it('hands on a line that is not UTF-8 as bytes, and the other lines of its chunk as text', () => {
    const got: Array<string | Buffer> = [];
    const d = new LineDecoder(100, { line: (content) => void got.push(content), overflow: () => {} });
    d.push(Buffer.concat([Buffer.from('a\n'), Buffer.from([0xff, 0x0a]), Buffer.from(' \r\nb\r\n')]));
    d.push(Buffer.from('c\n\xe2', 'latin1')); // a chunk cut inside a multi-byte character
    d.push(Buffer.from([0x82, 0xac, 0x0a]));
    expect(got).toEqual(['a', Buffer.from([0xff]), 'b', 'c', '€']);
  });

  it('delivers a last line that has no newline when the stream ends', () => {
    const { d, lines, frames } = decoder(100);
    d.push(Buffer.from('a\nlast'));
    expect(lines).toEqual(['a']);
    d.end();
    expect(lines).toEqual(['a', 'last']);
    expect(frames).toEqual([2, 4]);
  });
});

// Per ping, garbage.mjs writes these invalid lines, in this order, around one valid notification
// and the valid response; blank, whitespace-only and CRLF lines must not count as errors.
const EXPECTED_ERRORS: ProtocolErrorReason[] = [
  'parse-error', // not JSON
  'parse-error', // a line split across two writes, not JSON once joined either
  'unknown-shape', // {"jsonrpc":"2.0"}
  'invalid-version', // "jsonrpc":"1.0"
  'parse-error', // not UTF-8
  'batch-unsupported',
  'not-an-object', // 42
];

describe('a server writing garbage', () => {
  it('delivers every valid message and reports each bad line to sink.error as a JsonRpcProtocolError', async () => {
    const sink = recordingSink();
    const t = node('garbage.mjs');
    await t.start(sink);
    for (let id = 1; id <= 3; id++) await t.send(request(id, 'ping'));
    await waitFor(() => sink.messages.filter((m) => 'result' in m).length === 3, 10_000, 'three ping responses');

    expect(sink.messages).toEqual(
      [1, 2, 3].flatMap((id) => [
        { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'héllo' } },
        { jsonrpc: '2.0', id, result: {} },
      ]),
    );
    expect(sink.errors.every((e) => e instanceof JsonRpcProtocolError)).toBe(true);
    expect(sink.errors.map((e) => (e as JsonRpcProtocolError).reason)).toEqual([
      ...EXPECTED_ERRORS,
      ...EXPECTED_ERRORS,
      ...EXPECTED_ERRORS,
    ]);
    expect(sink.closes).toEqual([]);
    // byteLength is the frame on the wire: the CRLF-terminated response is its JSON plus two bytes.
    const responseInfo = sink.infos[1];
    expect(responseInfo?.byteLength).toBe(Buffer.byteLength('{"jsonrpc":"2.0","id":1,"result":{}}') + 2);
  });

  it('leaves the engine usable: requests in between all succeed', async () => {
    const t = node('garbage.mjs');
    const engine = new JsonRpcEngine(t, { logger: silentLogger, requestTimeout: 10_000 });
    await engine.start();
    const results = await Promise.all([engine.request('ping'), engine.request('ping'), engine.request('ping')]);
    expect(results).toEqual([{}, {}, {}]);
    expect(engine.closed).toBe(false);
    await engine.close();
  });
});

describe('maxMessageBytes', () => {
  const MiB = 1024 * 1024;

  it('closes with MessageTooLargeError on a 100 MiB line with a 1 MiB limit, and memory stays bounded', async () => {
    global.gc?.();
    const before = process.memoryUsage().rss;
    const sink = recordingSink();
    const t = node('huge-line.mjs', [String(100 * MiB)], {
      maxMessageBytes: MiB,
      shutdownTimeouts: { stdinCloseMs: 500, sigtermMs: 500 },
    });
    await t.start(sink);
    const cause = await sink.closed;
    const growth = process.memoryUsage().rss - before;

    expect(cause).toBeInstanceOf(MessageTooLargeError);
    expect((cause as MessageTooLargeError).limitBytes).toBe(MiB);
    expect((cause as MessageTooLargeError).code).toBe('MCPC_MESSAGE_TOO_LARGE');
    // Measured: well under 1 MiB. Buffering the line until its newline costs over 200 MiB.
    expect(growth).toBeLessThan(64 * MiB);
    await expect(t.send(request(1, 'ping'))).rejects.toMatchObject({ code: 'MCPC_CONNECTION_CLOSED', cause });
    await t.close();
    expect(sink.closes).toHaveLength(1);
    expect(sink.messages).toEqual([]);
  });

  it('makes a close() called from inside sink.close wait until the server is gone', async () => {
    let handOver!: (closing: Promise<void>) => void;
    const fromSink = new Promise<Promise<void>>((resolve) => (handOver = resolve));
    const t = node('huge-line.mjs', [String(2 * MiB), '--hold'], { maxMessageBytes: MiB });
    await t.start({ message() {}, error() {}, close: () => handOver(t.close()) });
    // Only microtasks between sink.close and here: the server cannot have exited unless close() waited.
    await await fromSink;
    expect(isAlive(t.pid!)).toBe(false);
  });

  it('fails as soon as the limit is passed, without waiting for a newline that never comes', async () => {
    const sink = recordingSink();
    const t = node('huge-line.mjs', [String(2 * MiB), '--hold'], { maxMessageBytes: MiB });
    await t.start(sink);
    expect(await sink.closed).toBeInstanceOf(MessageTooLargeError);
  });

  it('lets a 64 MiB result through, base64-encoded, under the default limit', async () => {
    const sink = recordingSink();
    const bytes = 64 * MiB;
    const t = node('big-result.mjs');
    await t.start(sink);
    await t.send(request(1, 'big', { bytes }));
    await waitFor(() => sink.messages.length > 0 || sink.closes.length > 0, 60_000, 'the big result');
    expect(sink.closes).toEqual([]);
    const reply = sink.messages[0] as { id: number; result: { data: string } };
    expect(reply.id).toBe(1);
    expect(reply.result.data.length).toBe(Math.ceil(bytes / 3) * 4);
    const head = Buffer.from(reply.result.data.slice(0, 400), 'base64');
    expect([...head.subarray(0, 5)]).toEqual([0, 1, 2, 3, 4]);
    const end = Buffer.from(reply.result.data.slice(-400), 'base64');
    expect(end[end.length - 1]).toBe((bytes - 1) % 251);
    expect(sink.infos[0]?.byteLength).toBeGreaterThan(Math.ceil(bytes / 3) * 4);
  }, 90_000);
});
