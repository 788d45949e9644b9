// A server's stderr: streamed as text to a listener, with a bounded tail kept for errors.
import { StringDecoder } from 'node:string_decoder';

/**
 * Collects a server's stderr: streams it as text to a listener, with characters split across chunks
 * kept whole, and keeps only the last `limitBytes` of it, so an error can say what the server printed
 * without a chatty server growing memory.
 */
export class StderrTail {
  readonly #limitBytes: number;
  readonly #listener: ((text: string) => void) | undefined;
  readonly #decoder: StringDecoder | undefined;
  #chunks: Buffer[] = [];
  #bytes = 0;

  constructor(limitBytes: number, listener?: (text: string) => void) {
    this.#limitBytes = limitBytes;
    this.#listener = listener;
    this.#decoder = listener === undefined ? undefined : new StringDecoder('utf8');
  }

  push(chunk: Buffer): void {
    this.#keep(chunk);
    if (this.#decoder === undefined) return;
    const text = this.#decoder.write(chunk);
    if (text.length > 0) this.#listener?.(text);
  }

  /** The stream ended: an incomplete character left over is delivered as U+FFFD. */
  end(): void {
    const text = this.#decoder?.end() ?? '';
    if (text.length > 0) this.#listener?.(text);
  }

  /** The last bytes written, as text. A character cut by the bound at the start is dropped. */
  get text(): string {
    if (this.#bytes === 0) return '';
    const bytes = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks, this.#bytes);
    let start = 0;
    // Skip UTF-8 continuation bytes (10xxxxxx) the bound cut from their lead byte, at most three.
    while (start < 3 && start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
    return bytes.subarray(start).toString('utf8');
  }

  #keep(chunk: Buffer): void {
    if (chunk.length >= this.#limitBytes) {
      // Copied, so the tail does not pin the whole (possibly large) chunk it was cut from.
      this.#chunks = [Buffer.from(chunk.subarray(chunk.length - this.#limitBytes))];
      this.#bytes = this.#limitBytes;
      return;
    }
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    // Each turn drops or trims the oldest chunk; it ends once the total fits.
    while (this.#bytes > this.#limitBytes) {
      const first = this.#chunks[0]!;
      const excess = this.#bytes - this.#limitBytes;
      if (first.length <= excess) {
        this.#chunks.shift();
        this.#bytes -= first.length;
      } else {
        this.#chunks[0] = Buffer.from(first.subarray(excess));
        this.#bytes -= excess;
      }
    }
  }
}
