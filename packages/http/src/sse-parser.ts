// An SSE parser over body bytes: lines found in the bytes, decoded once each, one event's memory bounded.
import { allocBytes, bytesEqual, concatBytes, utf8, utf8Length, Utf8Stream } from './bytes.js';
import { ResponseTooLargeError } from './errors.js';

export interface SseEvent {
  readonly event: string | undefined;
  readonly data: string;
  /** The UTF-8 length of `data`, when the parser knows it without re-encoding (it always does here). */
  readonly bytes?: number;
}

/** What a parser reports as it reads. */
export interface SseCallbacks {
  /** A complete event. The id, when valid, was already recorded through `onId`. */
  onEvent(event: SseEvent): void;
  onId(id: string): void;
  onRetry(ms: number): void;
  /** A bad id or a malformed field: reported, the stream goes on. */
  onWarning(message: string): void;
}

const LF = 10;
const CR = 13;
const SPACE = 32;
const COLON = 58;
const MAX_EVENT_ID_LENGTH = 256;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const EVENT_MESSAGE = new TextEncoder().encode('event: message');
const EVENT_MESSAGE_TIGHT = new TextEncoder().encode('event:message');
/**
 * An unfinished line past this many bytes is decoded as its chunks arrive, and its bytes let go: a
 * 16 MiB event is then held once, as text, rather than as bytes and again as their concatenation.
 */
const LONG_LINE_BYTES = 64 * 1024;
/** A long line is decoded this many bytes at a time. */
const STAGE_BYTES = 1024 * 1024;

/**
 * Event ids are echoed back in `Last-Event-ID`: one with control characters could inject a header, and
 * an enormous one costs every reconnect. Only short, printable ASCII ids are kept.
 */
export function isAcceptableEventId(id: string): boolean {
  return id.length <= MAX_EVENT_ID_LENGTH && PRINTABLE_ASCII.test(id);
}

/**
 * The event stream format (WHATWG HTML §9.2) read straight from the body's bytes. Line ends are found
 * in the bytes (each byte looked at once), and each line is decoded once, whole, so a character split
 * across chunks needs no streaming decoder and a small event costs one decode per line. A line
 * still unfinished at the end of a chunk is held as bytes; past {@link LONG_LINE_BYTES} it is decoded
 * chunk by chunk instead (a streaming decoder keeps split characters whole) and joined once at its end.
 * At most `maxBufferChars` characters are buffered for the unfinished line and event: past that,
 * `overflow` is set (ResponseTooLargeError) and nothing more is parsed.
 *
 * Semantics are those of `eventsource-parser`, which this replaces: an event is dispatched at an empty
 * line when it has data; its id (and type) are the ones given within it; a leading BOM is skipped;
 * a bad `retry:` and unknown fields are warnings; what is unfinished at the end of the stream is dropped.
 * Two differences, both where it departs from the SSE spec (test/sse-differential.test.ts pins them): a
 * line ended by a CR at the end of a chunk ends there (eventsource-parser holds it until a later chunk
 * carries a line end, and loses it if none comes), and the BOM is skipped as bytes (EF BB BF), so text
 * that merely begins "ï»¿" is not taken for one.
 */
export class SseParser {
  readonly #max: number;
  readonly #on: SseCallbacks;
  /** The unfinished line, as bytes (short) … */
  #parts: Uint8Array[] = [];
  /** … or, once long, as decoded pieces. */
  #pieces: string[] | undefined;
  #piecesChars = 0;
  #decoder: Utf8Stream | undefined;
  /** A long line's bytes not decoded yet. */
  #staged: Uint8Array | undefined;
  #stagedBytes = 0;
  /** Bytes of the unfinished line, either way. */
  #pendingBytes = 0;
  /** The last chunk ended with CR: a LF first in the next one ends nothing more. */
  #skipLf = false;
  /** Nothing of the stream was read yet (a BOM may come). */
  #atStart = true;
  #data = '';
  #dataLines = 0;
  #dataBytes = 0;
  #event: string | undefined;
  #id: string | undefined;
  /** Set once an unfinished line or event outgrows the bound; the stream must be abandoned. */
  overflow: ResponseTooLargeError | undefined;

  constructor(maxBufferChars: number, on: SseCallbacks) {
    this.#max = maxBufferChars;
    this.#on = on;
  }

  /** Parses the next chunk of the body; events complete in it are reported before it returns. */
  feed(chunk: Uint8Array): void {
    if (this.overflow !== undefined || chunk.length === 0) return;
    let pos = 0;
    if (this.#atStart) {
      if (
        this.#pendingBytes + chunk.length < 3 &&
        isBomPrefix(concatBytes([...this.#parts, chunk], this.#pendingBytes + chunk.length))
      ) {
        this.#parts.push(chunk);
        this.#pendingBytes += chunk.length;
        return;
      }
      this.#atStart = false;
      if (this.#parts.length > 0) {
        chunk = concatBytes([...this.#parts, chunk], this.#pendingBytes + chunk.length);
        this.#parts = [];
        this.#pendingBytes = 0;
      }
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) pos = 3;
    }
    if (this.#skipLf) {
      this.#skipLf = false;
      if (chunk[pos] === LF) pos++;
    }
    const length = chunk.length;
    // Servers end lines with LF: when the chunk holds no CR (one memchr), only LFs are looked for.
    const anyCr = chunk.indexOf(CR, pos) !== -1;
    while (pos < length) {
      let end = chunk.indexOf(LF, pos);
      if (anyCr) {
        const cr = chunk.indexOf(CR, pos);
        if (cr !== -1 && (end === -1 || cr < end)) end = cr;
      }
      if (end === -1) break;
      let next = end + 1;
      if (chunk[end] === CR) {
        if (next === length) this.#skipLf = true;
        else if (chunk[next] === LF) next++;
      }
      if (this.#pendingBytes > 0) this.#finishLine(chunk, pos, end);
      else this.#line(chunk, pos, end);
      pos = next;
    }
    if (pos < length) this.#hold(pos === 0 ? chunk : chunk.subarray(pos));
    this.#check();
  }

  /** A whole line, `buffer[start, end)`. */
  #line(buffer: Uint8Array, start: number, end: number): void {
    if (start === end) return this.#dispatch();
    const first = buffer[start];
    if (first === COLON) return; // a comment
    if (
      first === 0x64 && // data:
      buffer[start + 1] === 0x61 &&
      buffer[start + 2] === 0x74 &&
      buffer[start + 3] === 0x61 &&
      buffer[start + 4] === COLON
    ) {
      const from = start + 5 < end && buffer[start + 5] === SPACE ? start + 6 : start + 5;
      return this.#addData(utf8(buffer, from, end), end - from);
    }
    if (
      first === 0x65 && // event: message, the type nearly every event names: no string made for it
      (bytesEqual(EVENT_MESSAGE, buffer, start, end) || bytesEqual(EVENT_MESSAGE_TIGHT, buffer, start, end))
    ) {
      this.#event = 'message';
      return;
    }
    this.#field(utf8(buffer, start, end));
  }

  /** A line that is not data (or was too long to look at as bytes): field, colon, optional space, value. */
  #field(line: string): void {
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1);
    switch (field) {
      case '':
        return; // a comment
      case 'data':
        return this.#addData(value, utf8Length(value));
      case 'event':
        this.#event = value === '' ? undefined : value;
        return;
      case 'id':
        if (!value.includes('\0')) this.#id = value;
        return;
      case 'retry':
        if (/^\d+$/.test(value)) this.#on.onRetry(parseInt(value, 10));
        else this.#on.onWarning('malformed SSE field (invalid-retry)');
        return;
      default:
        this.#on.onWarning('malformed SSE field (unknown-field)');
    }
  }

  #addData(value: string, bytes: number): void {
    if (this.#dataLines++ === 0) {
      this.#data = value;
      this.#dataBytes = bytes;
    } else {
      this.#data = `${this.#data}\n${value}`;
      this.#dataBytes += 1 + bytes;
    }
  }

  #dispatch(): void {
    const id = this.#id;
    const event = this.#event;
    const data = this.#data;
    const hasData = this.#dataLines > 0;
    this.#id = undefined;
    this.#event = undefined;
    this.#data = '';
    this.#dataLines = 0;
    if (!hasData) return;
    if (id !== undefined) {
      if (isAcceptableEventId(id)) this.#on.onId(id);
      else this.#on.onWarning(`ignored an SSE event id that is too long or not printable ASCII (${id.length} chars)`);
    }
    this.#on.onEvent({ event, data, bytes: this.#dataBytes });
  }

  /** The unfinished tail of a chunk. */
  #hold(part: Uint8Array): void {
    this.#pendingBytes += part.length;
    if (this.#pieces !== undefined) return this.#stage(part);
    this.#parts.push(part);
    if (this.#pendingBytes <= LONG_LINE_BYTES) return;
    // Long: from now on decoded as it comes, so its bytes are not held alongside its text.
    this.#decoder = new Utf8Stream();
    this.#staged = allocBytes(STAGE_BYTES);
    this.#pieces = [];
    this.#piecesChars = 0;
    for (const p of this.#parts) this.#stage(p);
    this.#parts = [];
  }

  /**
   * Bytes of a long line, copied into the staging buffer and decoded a stage at a time: the body's
   * chunks die young, and the text is a few large pieces (decoding each 64 KiB chunk on its own
   * made hundreds of small strings, which the young generation copies about: 40% more memory).
   */
  #stage(part: Uint8Array): void {
    const staged = this.#staged!;
    for (let at = 0; at < part.length;) {
      const n = Math.min(part.length - at, staged.length - this.#stagedBytes);
      staged.set(part.subarray(at, at + n), this.#stagedBytes);
      this.#stagedBytes += n;
      at += n;
      if (this.#stagedBytes === staged.length) this.#flushStage();
    }
  }

  #flushStage(): void {
    const piece = this.#decoder!.write(this.#staged!.subarray(0, this.#stagedBytes));
    this.#stagedBytes = 0;
    this.#pieces!.push(piece);
    this.#piecesChars += piece.length;
  }

  /** The unfinished line ends at `buffer[start, end)`. */
  #finishLine(buffer: Uint8Array, start: number, end: number): void {
    const pieces = this.#pieces;
    const lineBytes = this.#pendingBytes + (end - start);
    this.#pendingBytes = 0;
    if (pieces === undefined) {
      this.#parts.push(buffer.subarray(start, end));
      const line = concatBytes(this.#parts, lineBytes);
      this.#parts = [];
      return this.#line(line, 0, line.length);
    }
    this.#stage(buffer.subarray(start, end));
    this.#flushStage();
    const tail = this.#decoder!.end();
    if (tail !== '') pieces.push(tail);
    this.#pieces = undefined;
    this.#decoder = undefined;
    this.#staged = undefined;
    this.#piecesChars = 0;
    const head = pieces[0]!;
    if (head.startsWith('data:')) {
      // The prefix comes off the first piece, so the join is the value itself: one copy, not two.
      const cut = head.charCodeAt(5) === SPACE ? 6 : 5;
      pieces[0] = head.slice(cut);
      return this.#addData(pieces.join(''), lineBytes - cut);
    }
    this.#field(pieces.join(''));
  }

  /** The bound on what is buffered for the unfinished line and event. */
  #check(): void {
    let pending = this.#pieces !== undefined ? this.#piecesChars + this.#stagedBytes : this.#pendingBytes;
    if (pending + this.#data.length <= this.#max) return;
    // Bytes outnumber characters beyond ASCII: count the characters before refusing.
    if (this.#pieces === undefined) pending = utf8(concatBytes(this.#parts, this.#pendingBytes)).length;
    else {
      this.#flushStage();
      pending = this.#piecesChars;
    }
    if (pending + this.#data.length <= this.#max) return;
    this.overflow = new ResponseTooLargeError(this.#max, 'an SSE event');
    this.#parts = [];
    this.#pieces = undefined;
    this.#decoder = undefined;
    this.#staged = undefined;
    this.#data = '';
  }
}

const isBomPrefix = (bytes: Uint8Array): boolean =>
  (bytes.length < 1 || bytes[0] === 0xef) && (bytes.length < 2 || bytes[1] === 0xbb);
