// Bytes without Buffer: the helpers and the SSE parser give what they give on Node where `Buffer` does not exist.
//
// They are loaded as in a browser or a Worker; chunk splits, multi-byte characters and long lines included.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as Bytes from '../src/bytes.js';
import { SseParser, type SseEvent } from '../src/sse-parser.js';

type Parser = typeof SseParser;
let bare: { bytes: typeof Bytes; SseParser: Parser };

beforeAll(async () => {
  const saved = globalThis.Buffer;
  vi.resetModules();
  // Loaded with no Buffer in sight: the modules look for it once, at load.
  (globalThis as { Buffer?: unknown }).Buffer = undefined;
  try {
    bare = {
      bytes: await import('../src/bytes.js'),
      SseParser: (await import('../src/sse-parser.js')).SseParser,
    };
  } finally {
    globalThis.Buffer = saved;
  }
});
afterAll(() => vi.resetModules());

/** The events (and ids, retries, warnings) a parser class reports for `chunks`. */
function parse(Parser: Parser, chunks: Uint8Array[]): unknown[] {
  const seen: unknown[] = [];
  const parser = new Parser(1 << 22, {
    onEvent: (e: SseEvent) => seen.push(['event', e.event, e.data, e.bytes]),
    onId: (id) => seen.push(['id', id]),
    onRetry: (ms) => seen.push(['retry', ms]),
    onWarning: (m) => seen.push(['warning', m]),
  });
  for (const chunk of chunks) parser.feed(chunk);
  return seen;
}

/** `bytes` cut at the given points (as fast-check picks them). */
function split(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const p of [...points, bytes.length]) {
    if (p > at) out.push(bytes.slice(at, p));
    at = p;
  }
  return out;
}

const text = fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', ':', ' ', '\u{10ffff}', 'z'), maxLength: 40 });
const line = fc.oneof(
  text.map((t) => `data: ${t}`),
  text.map((t) => `data:${t}`),
  fc.constant('event: message'),
  text.map((t) => `event: ${t}`),
  text.map((t) => `id: ${t}`),
  fc.constant('retry: 250'),
  fc.constant(': comment'),
  fc.constant(''),
  fc.constant(`data: ${'x€'.repeat(40_000)}`), // past LONG_LINE_BYTES: decoded as it arrives
);
const stream = fc.record({
  bom: fc.boolean(),
  lines: fc.array(line, { maxLength: 12 }),
  end: fc.constantFrom('\n', '\r\n', '\r'),
  cuts: fc.array(fc.nat(), { maxLength: 8 }),
});

describe('without Buffer', () => {
  it('utf8Length, concatBytes and utf8 agree with Buffer on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 64 }), (s) => {
        expect(bare.bytes.utf8Length(s)).toBe(Buffer.byteLength(s));
        const encoded = new TextEncoder().encode(s);
        const joined = bare.bytes.concatBytes([encoded.subarray(0, 3), encoded.subarray(3)], encoded.length);
        expect(joined).not.toBeInstanceOf(Buffer);
        expect(bare.bytes.utf8(joined)).toBe(Buffer.from(encoded).toString('utf8'));
      }),
      { numRuns: 2_000, seed: 27 },
    );
  });

  it('the SSE parser reports the same events from plain Uint8Arrays as from Buffers', () => {
    fc.assert(
      fc.property(stream, ({ bom, lines, end, cuts }) => {
        const source = `${bom ? '\ufeff' : ''}${lines.join(end)}${end}${end}`;
        const bytes = new TextEncoder().encode(source);
        const chunks = split(bytes, cuts);
        expect(parse(bare.SseParser, chunks)).toEqual(
          parse(
            SseParser,
            chunks.map((c) => Buffer.from(c)),
          ),
        );
      }),
      { numRuns: 1_500, seed: 27 },
    );
  });

  it('Utf8Stream gives what one decode of all the bytes gives, with Buffer and without, at any split, malformed bytes too', () => {
    // Bytes near UTF-8's edges: ASCII, lead bytes of every length, continuations, bytes never valid.
    const byte = fc.oneof(
      fc.integer({ min: 0x00, max: 0x7f }),
      fc.integer({ min: 0x80, max: 0xbf }),
      fc.integer({ min: 0xc0, max: 0xff }),
    );
    const source = fc.oneof(
      fc.array(byte, { maxLength: 64 }).map((b) => Uint8Array.from(b)),
      fc.string({ unit: 'binary', maxLength: 32 }).map((s) => new TextEncoder().encode(s)),
    );
    const decode = (Stream: typeof Bytes.Utf8Stream, chunks: Uint8Array[]): string => {
      const stream = new Stream();
      return chunks.map((c) => stream.write(c)).join('') + stream.end();
    };
    fc.assert(
      fc.property(source, fc.array(fc.nat(), { maxLength: 6 }), (bytes, cuts) => {
        const whole = new TextDecoder().decode(bytes);
        const chunks = split(bytes, cuts);
        expect(
          decode(
            Bytes.Utf8Stream,
            chunks.map((c) => Buffer.from(c)),
          ),
        ).toBe(whole);
        expect(decode(bare.bytes.Utf8Stream, chunks)).toBe(whole);
      }),
      { numRuns: 5_000, seed: 31 },
    );
  });
});
