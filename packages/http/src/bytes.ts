// Bytes in any runtime: UTF-8 decoding, joining and measuring, through Buffer where there is one, else WHATWG encoding.
//
// Buffer is faster where it exists, and it is what Node's clients hand over; elsewhere the WHATWG encoding API does it.

/** The part of Node's Buffer used here, looked up at load: browsers and Workers have none. */
interface NodeBuffer {
  prototype: Uint8Array;
  byteLength(text: string, encoding: 'utf8'): number;
  concat(parts: readonly Uint8Array[], total: number): Uint8Array;
  allocUnsafeSlow(size: number): Uint8Array;
}
const NodeBuffer = (globalThis as { Buffer?: NodeBuffer }).Buffer;
/** A Buffer, as far as decoding goes. */
interface BufferView {
  toString(encoding: 'utf8', start: number, end: number): string;
}

// ignoreBOM: a BOM is text like any other here, as Buffer#toString keeps it (the SSE parser skips the
// stream's own BOM as bytes).
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

const isNodeBuffer = (bytes: Uint8Array): boolean =>
  NodeBuffer !== undefined && bytes instanceof (NodeBuffer as unknown as typeof Uint8Array);

/** `bytes[start, end)` decoded as UTF-8 (malformed sequences as U+FFFD). */
export function utf8(bytes: Uint8Array, start = 0, end = bytes.length): string {
  if (isNodeBuffer(bytes)) return (bytes as unknown as BufferView).toString('utf8', start, end);
  return decoder.decode(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end));
}

/** The UTF-8 length of `text`, without encoding it. */
export function utf8Length(text: string): number {
  if (NodeBuffer !== undefined) return NodeBuffer.byteLength(text, 'utf8');
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3; // a lone surrogate is encoded as U+FFFD
    } else bytes += 3;
  }
  return bytes;
}

/** `parts` joined, `total` bytes long (their lengths' sum). */
export function concatBytes(parts: readonly Uint8Array[], total: number): Uint8Array {
  if (NodeBuffer !== undefined) return NodeBuffer.concat(parts, total);
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A buffer of `size` bytes whose contents will all be written before they are read. */
export function allocBytes(size: number): Uint8Array {
  return NodeBuffer !== undefined ? NodeBuffer.allocUnsafeSlow(size) : new Uint8Array(size);
}

/** Whether `bytes[start, end)` are exactly `expected`. */
export function bytesEqual(expected: Uint8Array, bytes: Uint8Array, start: number, end: number): boolean {
  if (end - start !== expected.length) return false;
  for (let i = 0; i < expected.length; i++) if (bytes[start + i] !== expected[i]) return false;
  return true;
}

/**
 * A streaming UTF-8 decoder: a character split between two writes comes out whole. Where there is a
 * Buffer, the complete characters of each write are decoded by Buffer (V8's own UTF-8 decoder; a
 * streaming TextDecoder goes through ICU and took a third longer on a 16 MiB line), and the 1–3 bytes of a
 * character cut off at the end wait for the next write.
 */
export class Utf8Stream {
  #decoder: InstanceType<typeof TextDecoder> | undefined;
  #tail: Uint8Array | undefined;

  write(bytes: Uint8Array): string {
    if (NodeBuffer === undefined)
      return (this.#decoder ??= new TextDecoder('utf-8', { ignoreBOM: true })).decode(bytes, { stream: true });
    const tail = this.#tail;
    const input = tail === undefined ? bytes : concatBytes([tail, bytes], tail.length + bytes.length);
    const end = wholeCharactersEnd(input);
    this.#tail = end === input.length ? undefined : input.slice(end);
    return utf8(input, 0, end);
  }

  end(): string {
    if (NodeBuffer === undefined) return this.#decoder?.decode() ?? '';
    const tail = this.#tail;
    this.#tail = undefined;
    return tail === undefined ? '' : utf8(tail); // an unfinished character: U+FFFD, as TextDecoder gives
  }
}

/**
 * Where the last whole UTF-8 character of `bytes` ends: `bytes.length`, or the index of a lead byte whose
 * sequence the bytes do not finish. Malformed bytes count as whole (the decoder replaces them).
 */
function wholeCharactersEnd(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let i = n - 1; i >= 0 && i >= n - 4; i--) {
    const b = bytes[i]!;
    if (b < 0x80) return n; // ASCII: nothing after it can start a character
    if (b >= 0xc0) return n - i >= (b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2) ? n : i; // a lead byte
    // A continuation byte: its lead is further back.
  }
  return n;
}
