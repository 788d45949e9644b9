// The contract of `#decompress`: decompress-node.ts where node:zlib exists, decompress-web.ts elsewhere.

/** A body's decoded bytes, and how to stop decoding them. */
export interface Decoding {
  readonly chunks: AsyncIterable<Uint8Array>;
  readonly stop: () => void;
}
