// Newline-delimited frames from a byte stream, each bounded in size and checked as UTF-8.
import { isUtf8 } from 'node:buffer';
const LF = 0x0a;
const CR = 0x0d;

const EMPTY = Buffer.alloc(0);

export interface LineDecoderHandlers {
  /** A complete, non-blank line, without its terminator. `frameBytes` counts the terminator too. */
  /** A complete line: a string when it is valid UTF-8, else the bytes (for the decoder to report). */
  line(content: string | Buffer, frameBytes: number): void;
  /** A line grew past the limit. Nothing more is delivered after it. */
  overflow(): void;
}

/**
 * Splits a byte stream into newline-terminated lines, working on the Buffers as they arrive: a line
 * inside one chunk is a zero-copy view of it, and a line spread over chunks is assembled once, when
 * its newline arrives. A line that would exceed `maxLineBytes` (not counting `\n` or a `\r` before it)
 * fails as soon as it does, whether its newline has arrived or not, so no more than the limit (plus
 * the chunk being looked at) is ever held.
 */
export class LineDecoder {
  readonly #maxLineBytes: number;
  readonly #handlers: LineDecoderHandlers;
  // The start of a line whose newline has not arrived yet.
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #stopped = false;

  constructor(maxLineBytes: number, handlers: LineDecoderHandlers) {
    this.#maxLineBytes = maxLineBytes;
    this.#handlers = handlers;
  }

  push(chunk: Buffer): void {
    let start = 0;
    // Checked once for the chunk rather than per line: a newline is never inside a UTF-8 sequence, so
    // every line of a valid chunk is valid. A chunk that is not (one cut mid-character) goes line by line.
    let utf8: boolean | undefined;
    // Each turn consumes through one newline, so the loop runs at most once per line in the chunk.
    while (!this.#stopped && start < chunk.length) {
      const newline = chunk.indexOf(LF, start);
      if (newline === -1) {
        // A trailing `\r` may yet turn out to be half of a `\r\n`, hence the one byte of slack.
        if (this.#pendingBytes + (chunk.length - start) > this.#maxLineBytes + 1) return this.#overflow();
        this.#pending.push(chunk.subarray(start));
        this.#pendingBytes += chunk.length - start;
        return;
      }
      if (this.#pendingBytes === 0 && (utf8 ??= isUtf8(chunk))) {
        // A whole line inside the chunk: decoded straight from it, with no view made of it.
        this.#emitRange(chunk, start, newline);
      } else {
        this.#emit(chunk.subarray(start, newline), 1);
      }
      start = newline + 1;
    }
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    if (this.#stopped || this.#pendingBytes === 0) return;
    this.#emit(Buffer.alloc(0), 0);
  }

  /** Drops what is held and ignores all further input. */
  stop(): void {
    this.#stopped = true;
    this.#pending = [];
    this.#pendingBytes = 0;
  }

  #emit(piece: Buffer, terminatorBytes: number): void {
    let line: Buffer;
    if (this.#pendingBytes === 0) {
      line = piece;
    } else {
      this.#pending.push(piece);
      line = Buffer.concat(this.#pending, this.#pendingBytes + piece.length);
      this.#pending = [];
      this.#pendingBytes = 0;
    }
    const frameBytes = line.length + terminatorBytes;
    if (line.length > 0 && line[line.length - 1] === CR) line = line.subarray(0, line.length - 1);
    if (line.length > this.#maxLineBytes) return this.#overflow();
    if (isBlank(line)) return;
    // Hand on a string and drop the bytes first: for a large result, the Buffer would otherwise stay
    // referenced (doubling the peak) while JSON.parse runs. isUtf8 + toString also beats a fatal TextDecoder.
    if (isUtf8(line)) {
      const text = line.toString('utf8');
      line = EMPTY;
      this.#handlers.line(text, frameBytes);
    } else {
      this.#handlers.line(line, frameBytes);
    }
  }

  /** `#emit` for the bytes `start` to `newline` of a valid UTF-8 chunk, with nothing pending. */
  #emitRange(chunk: Buffer, start: number, newline: number): void {
    const end = newline > start && chunk[newline - 1] === CR ? newline - 1 : newline;
    if (end - start > this.#maxLineBytes) return this.#overflow();
    if (isBlankRange(chunk, start, end)) return;
    this.#handlers.line(chunk.toString('utf8', start, end), newline + 1 - start);
  }

  #overflow(): void {
    this.stop();
    this.#handlers.overflow();
  }
}

/** Blank and whitespace-only lines carry no message; servers emit them and they must not count as errors. */
function isBlank(line: Buffer): boolean {
  return isBlankRange(line, 0, line.length);
}

function isBlankRange(bytes: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const byte = bytes[i];
    if (byte !== 0x20 && byte !== 0x09 && byte !== CR) return false;
  }
  return true;
}
