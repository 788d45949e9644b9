// The SSE parser over bytes: line ends of every kind, events split anywhere, long lines, the bound, ids.
import { describe, expect, it } from 'vitest';
import { ResponseTooLargeError } from '../src/errors.js';
import { SseParser, type SseEvent } from '../src/sse-parser.js';

interface Seen {
  events: SseEvent[];
  ids: string[];
  retries: number[];
  warnings: string[];
}

function parse(chunks: (string | Buffer)[], max = 1 << 30): Seen & { parser: SseParser } {
  const seen: Seen = { events: [], ids: [], retries: [], warnings: [] };
  const parser = new SseParser(max, {
    onEvent: (e) => void seen.events.push(e),
    onId: (id) => void seen.ids.push(id),
    onRetry: (ms) => void seen.retries.push(ms),
    onWarning: (w) => void seen.warnings.push(w),
  });
  for (const c of chunks) parser.feed(typeof c === 'string' ? Buffer.from(c) : c);
  return { ...seen, parser };
}

/** Every way of cutting `text`'s bytes in two. */
function everySplit(text: string): Buffer[][] {
  const bytes = Buffer.from(text);
  return Array.from({ length: bytes.length + 1 }, (_, i) => [bytes.subarray(0, i), bytes.subarray(i)]);
}

describe('SseParser', () => {
  it('reads events with LF, CRLF and CR line ends, cut at any byte', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = `event: message${eol}id: 7${eol}data: {"a":"é€"}${eol}data: two${eol}${eol}: comment${eol}data:x${eol}${eol}`;
      for (const chunks of everySplit(text)) {
        const { events, ids, warnings } = parse(chunks);
        expect(events, JSON.stringify(eol)).toEqual([
          { event: 'message', data: '{"a":"é€"}\ntwo', bytes: Buffer.byteLength('{"a":"é€"}\ntwo') },
          { event: undefined, data: 'x', bytes: 1 },
        ]);
        expect(ids).toEqual(['7']);
        expect(warnings).toEqual([]);
      }
    }
  });

  it('skips a leading BOM, even split across chunks, and only at the start', () => {
    expect(parse(['\ufeffdata: a\n\n']).events.map((e) => e.data)).toEqual(['a']);
    expect(
      parse([Buffer.from([0xef]), Buffer.from([0xbb]), Buffer.from('\xbf', 'latin1'), 'data: b\n\n']).events.map(
        (e) => e.data,
      ),
    ).toEqual(['b']);
    expect(parse(['data: a\n\n', '\ufeffdata: b\n\n']).warnings).toEqual(['malformed SSE field (unknown-field)']);
  });

  it('reads fields without a space, without a colon, and warns of bad ones', () => {
    const { events, retries, warnings } = parse([
      'event:ping\ndata\n\nretry: 1500\nretry: soon\nfoo: bar\ndata: z\n\n',
    ]);
    expect(events).toEqual([
      { event: 'ping', data: '', bytes: 0 },
      { event: undefined, data: 'z', bytes: 1 },
    ]);
    expect(retries).toEqual([1500]);
    expect(warnings).toEqual(['malformed SSE field (invalid-retry)', 'malformed SSE field (unknown-field)']);
  });

  it('reports an id only with an event that has data, and refuses ids it would not echo', () => {
    const { ids, warnings } = parse(['id: 1\n\nid: 2\ndata: a\n\nid: bad\u0001id\ndata: b\n\nid: x\0y\ndata: c\n\n']);
    expect(ids).toEqual(['2']);
    expect(warnings).toEqual(['ignored an SSE event id that is too long or not printable ASCII (6 chars)']);
  });

  it('reads a long line decoded as it comes: multi-byte characters split across chunks stay whole', () => {
    const value = 'aé€😀'.repeat(100_000);
    const bytes = Buffer.from(`data: ${value}\n\n`);
    for (const size of [1000, 65_536, 70_001]) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
      const { events } = parse(chunks);
      expect(events).toHaveLength(1);
      expect(events[0]!.data === value).toBe(true);
      expect(events[0]!.bytes).toBe(Buffer.byteLength(value));
    }
  });

  it('a long line that is not data is a field like any other', () => {
    const { events } = parse([`event: ${'e'.repeat(200_000)}`, '\ndata: a\n\n']);
    expect(events[0]!.event).toBe('e'.repeat(200_000));
  });

  it('bounds the unfinished line and event in characters, and stops there', () => {
    const small = parse(['data: ', 'x'.repeat(100)], 50);
    expect(small.parser.overflow).toBeInstanceOf(ResponseTooLargeError);
    // 40 three-byte characters: 120 bytes, 40 characters: within a bound of 50.
    expect(parse(['data: ', '€'.repeat(40)], 50).parser.overflow).toBeUndefined();
    const long = parse(['data: ', 'x'.repeat(300_000)], 200_000);
    expect(long.parser.overflow).toBeInstanceOf(ResponseTooLargeError);
    long.parser.feed(Buffer.from('\n\n'));
    expect(long.events).toEqual([]);
  });

  it('drops what is unfinished when the stream ends', () => {
    expect(parse(['data: a\n', 'data: b']).events).toEqual([]);
  });
});
