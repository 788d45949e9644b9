// Where there is no node:zlib (browsers, Workers): fetch decodes bodies itself, so a coded one here is refused.
import type { Decoding } from './decompress.js';
import type { HttpBody } from './types.js';

export function decode(_body: HttpBody, encodings: readonly string[]): Decoding {
  throw new TypeError(
    `a body with Content-Encoding "${encodings.join(', ').slice(0, 60)}" cannot be decoded here (no node:zlib); fetch decodes bodies itself`,
  );
}
