// Differential test of the byte-level SSE parser against eventsource-parser, on random streams cut into random chunks.
import { createParser, type ParseError } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseParser, isAcceptableEventId } from '../src/sse-parser.js';

/**
 * One entry of what a parser reported, in order. `id` is the event's own id as our parser reports it
 * (through `onId`, just before the event): only for an event with data, only when acceptable to echo.
 */
type Seen =
  { event: string | undefined; data: string; id: string | undefined } | { retry: number } | { warning: string };

/** Our parser, fed the chunks as they are; also returns the `bytes` each event reported. */
function ours(chunks: Buffer[]): { seen: Seen[]; bytes: (number | undefined)[] } {
  const seen: Seen[] = [];
  const bytes: (number | undefined)[] = [];
  let id: string | undefined;
  const parser = new SseParser(1 << 30, {
    onId: (value) => void (id = value),
    onEvent: (e) => {
      seen.push({ event: e.event, data: e.data, id });
      bytes.push(e.bytes);
      id = undefined;
    },
    onRetry: (ms) => void seen.push({ retry: ms }),
    onWarning: (message) => {
      const field = /^malformed SSE field \((.+)\)$/.exec(message);
      seen.push({ warning: field !== null ? field[1]! : 'bad-id' });
    },
  });
  for (const chunk of chunks) parser.feed(chunk);
  expect(parser.overflow).toBeUndefined();
  return { seen, bytes };
}

/**
 * eventsource-parser, fed the same bytes through a streaming TextDecoder (which, as decoders do by
 * default, takes a leading BOM off: eventsource-parser's own BOM check compares the decoded text's
 * first char codes with the BOM's bytes, so it never sees a decoded BOM).
 *
 * Intentional difference: a CR at the end of what eventsource-parser is fed. A CR ends its line (a LF
 * right after it belongs to the same line end); our parser acts on it at once and skips such a LF if
 * the next chunk starts with one. eventsource-parser holds a CR that ends its input to see whether a LF
 * follows, but looks at it again only when a later feed holds a CR or LF: an event ended by a bare CR
 * at a chunk's end waits for the next line end to arrive, and is lost if the stream ends first
 * (`data: a\n\r` then `x`: one event for us, none for it). Here no feed but the last ends with CR (the
 * CR is carried over to the next one: the text is the same), and the last gets the LF it waits for.
 * The pinned test below shows the difference itself.
 */
function theirs(chunks: Buffer[]): Seen[] {
  const seen: Seen[] = [];
  const parser = createParser({
    onEvent: (e) => {
      const acceptable = e.id !== undefined && isAcceptableEventId(e.id);
      if (e.id !== undefined && !acceptable) seen.push({ warning: 'bad-id' });
      seen.push({ event: e.event, data: e.data, id: acceptable ? e.id : undefined });
    },
    onRetry: (ms) => void seen.push({ retry: ms }),
    onError: (error: ParseError) => void seen.push({ warning: error.type }),
  });
  const decoder = new TextDecoder();
  let carried = '';
  for (const chunk of chunks) {
    const piece = carried + decoder.decode(chunk, { stream: true });
    carried = piece.endsWith('\r') ? '\r' : '';
    parser.feed(carried === '' ? piece : piece.slice(0, -1));
  }
  const last = carried + decoder.decode();
  parser.feed(last.endsWith('\r') ? `${last}\n` : last);
  return seen;
}

// --- Random streams -------------------------------------------------------------------------------

/** One character of a value: anything but CR and LF, with multi-byte, astral, NUL, BOM, colons and spaces likely. */
const char = fc.oneof(
  fc.constantFrom('a', 'z', '0', ' ', ':', '\t', 'é', '€', '😀', '𝄞', '\u0000', '\ufeff', '\u2028', '\u0085'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => c !== '\r' && c !== '\n'),
);
const text = fc.string({ unit: char, maxLength: 12 });
/** Bytes that are not UTF-8: a lone continuation, a truncated sequence, a surrogate, an overlong form. */
const invalid = fc.constantFrom(
  [0xff],
  [0x80],
  [0xc3],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x98],
  [0xed, 0xa0, 0x80],
  [0xc0, 0xaf],
);
/** A value's bytes: mostly text, sometimes with bytes that are not UTF-8 in it. */
const value = fc
  .array(fc.oneof({ arbitrary: text, weight: 40 }, { arbitrary: invalid, weight: 1 }), { maxLength: 3 })
  .map((parts) => Buffer.concat(parts.map((p) => Buffer.from(p))));
/** Between a field's name and its value: with and without the optional space (a second space is the value's). */
const colon = fc.constantFrom(':', ': ', ':  ');
const field = (name: fc.Arbitrary<string>, val: fc.Arbitrary<Buffer>): fc.Arbitrary<Buffer> =>
  fc.oneof(
    { arbitrary: fc.tuple(name, colon, val).map(([n, c, v]) => Buffer.concat([Buffer.from(n + c), v])), weight: 5 },
    { arbitrary: name.map((n) => Buffer.from(n)), weight: 1 }, // a name without a colon: an empty value
  );
const ascii = (s: string): Buffer => Buffer.from(s);
const line: fc.Arbitrary<Buffer> = fc.oneof(
  { arbitrary: fc.constant(Buffer.alloc(0)), weight: 6 }, // the empty line that dispatches
  { arbitrary: field(fc.constant('data'), value), weight: 8 },
  {
    arbitrary: field(fc.constant('event'), fc.oneof(value, fc.constantFrom('message', 'ping', '').map(ascii))),
    weight: 3,
  },
  {
    arbitrary: field(
      fc.constant('id'),
      fc.oneof(
        fc.stringMatching(/^[\x20-\x7e]{0,8}$/).map(ascii),
        fc.constantFrom('a\u0000b', '\u0001', 'x'.repeat(257), 'x'.repeat(256)).map(ascii),
        value,
      ),
    ),
    weight: 3,
  },
  { arbitrary: field(fc.constant('retry'), fc.oneof(fc.stringMatching(/^\d{1,5}$/).map(ascii), value)), weight: 2 },
  { arbitrary: fc.tuple(colon, value).map(([c, v]) => Buffer.concat([ascii(c), v])), weight: 2 }, // a comment
  {
    arbitrary: field(
      fc.oneof(fc.constantFrom('Data', 'dat', 'datum', 'ev', 'ID', ' data', 'x y', 'é'), text),
      value,
    ).filter((l) => !/^(data|event|id|retry)(:|$)/.test(l.toString('latin1'))),
    weight: 2,
  }, // an unknown field
);
const eol = fc.constantFrom('\n', '\r', '\r\n').map(ascii);
/** An event: a few lines with their line ends, then (mostly) the empty line that dispatches it. */
const event = fc
  .tuple(fc.array(fc.tuple(line, eol), { minLength: 1, maxLength: 6 }), fc.option(eol, { freq: 6, nil: undefined }))
  .map(([lines, end]) => [...lines.flat(), end ?? Buffer.alloc(0)]);
/** A stream: an optional BOM, events with mixed line ends, then perhaps an unfinished event and line. */
const stream = fc
  .record({
    bom: fc.boolean(),
    events: fc.array(event, { maxLength: 8 }),
    unfinished: fc.array(fc.tuple(line, eol), { maxLength: 3 }),
    last: fc.option(line, { nil: undefined }),
  })
  .map(({ bom, events, unfinished, last }) =>
    Buffer.concat([
      bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0),
      ...events.flat(),
      ...unfinished.flat(),
      last ?? Buffer.alloc(0),
    ]),
  );

/** Where to cut: random places, and perhaps after every CR (before its LF) and inside every multi-byte character. */
const cutting = fc.record({
  at: fc.array(fc.nat(), { maxLength: 25 }),
  afterCr: fc.boolean(),
  insideChars: fc.boolean(),
  everyByte: fc.boolean(),
});

function cut(bytes: Buffer, how: typeof cutting extends fc.Arbitrary<infer T> ? T : never): Buffer[] {
  const cuts = new Set(how.at.map((n) => n % (bytes.length + 1)));
  for (let i = 0; i < bytes.length; i++) {
    if (how.everyByte) cuts.add(i);
    if (how.afterCr && bytes[i] === 0x0d) cuts.add(i + 1);
    if (how.insideChars && bytes[i]! >= 0xc0) cuts.add(i + 1 + (i % 2)); // after the lead byte, or one further
  }
  const sorted = [...cuts].filter((n) => n > 0 && n < bytes.length).sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const n of sorted) {
    chunks.push(bytes.subarray(from, n));
    from = n;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}

const isUtf8 = (bytes: Buffer): boolean => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

function compare(chunks: Buffer[]): Seen[] {
  const mine = ours(chunks);
  expect(mine.seen).toEqual(theirs(chunks));
  // `bytes` is the UTF-8 length of the data as it came (with bytes that are not UTF-8, those bytes).
  if (isUtf8(Buffer.concat(chunks)))
    expect(mine.bytes).toEqual(mine.seen.flatMap((s) => ('data' in s ? [Buffer.byteLength(s.data)] : [])));
  return mine.seen;
}

describe('SseParser against eventsource-parser', () => {
  it('reports the same events, ids, retries and warnings for random streams cut anywhere', () => {
    fc.assert(
      fc.property(stream, cutting, (bytes, how) => {
        compare(cut(bytes, how));
      }),
      { numRuns: 300 },
    );
  });

  it('agrees on a 2 MiB single-line event read in 64 KiB chunks (the long-line path)', () => {
    const value = 'aé€😀'.repeat(Math.ceil((2 * 1024 * 1024) / 10)); // 10 bytes each: split characters at 64 KiB
    for (const [prefix, end] of [
      ['data: ', '\n\n'],
      ['data:', '\r\n\r\n'],
      ['event: big\ndata:', '\r\r'],
    ] as const) {
      const bytes = Buffer.from(`id: 1\n${prefix}${value}${end}data: after\n\n`);
      const chunks: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += 64 * 1024) chunks.push(bytes.subarray(i, i + 64 * 1024));
      const seen = compare(chunks);
      expect(seen).toHaveLength(2);
      expect((seen[0] as { data: string }).data === value).toBe(true);
    }
  });

  it('the divergences from eventsource-parser 3.1.1 (its behaviour pinned, so an upgrade shows whether they remain)', () => {
    const feedTheirs = (texts: string[]): string[] => {
      const data: string[] = [];
      const parser = createParser({ onEvent: (e) => void data.push(e.data) });
      for (const text of texts) parser.feed(text);
      return data;
    };
    // An empty line ended by CR at a chunk's end: ours dispatches there; eventsource-parser waits for a
    // later chunk holding a line end, and drops the event when the stream ends before one.
    const a = [{ event: undefined, data: 'a', id: undefined }];
    expect(ours([Buffer.from('data: a\n\r')]).seen).toEqual(a);
    expect(ours([Buffer.from('data: a\n\r'), Buffer.from('x')]).seen).toEqual(a);
    expect(feedTheirs(['data: a\n\r'])).toEqual([]);
    expect(feedTheirs(['data: a\n\r', 'x'])).toEqual([]);
    expect(feedTheirs(['data: a\n\rx'])).toEqual(['a']);
    expect(feedTheirs(['data: a\n\r', 'x\n'])).toEqual(['a']);
    // Text beginning "ï»¿" (U+00EF U+00BB U+00BF, a BOM's bytes read as Latin-1): eventsource-parser takes it
    // for a BOM; for us it is the start of a field name (an unknown field).
    expect(ours([Buffer.from('\u00ef\u00bb\u00bfdata: x\n\n')]).seen).toEqual([{ warning: 'unknown-field' }]);
    expect(feedTheirs(['\u00ef\u00bb\u00bfdata: x\n\n'])).toEqual(['x']);
  });
});
