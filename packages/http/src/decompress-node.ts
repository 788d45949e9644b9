// Undoing a body's Content-Encoding with node:zlib, stage by stage, as its bytes arrive (Node, Deno, Bun).
import { Readable } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Decoding } from './decompress.js';
import type { HttpBody } from './types.js';

type Stage = ReturnType<typeof createGunzip> | ReturnType<typeof createBrotliDecompress>;

function stageFor(encoding: string): Stage | undefined {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip({ flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH });
    case 'deflate':
      return createInflate({ flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH });
    case 'br':
      return createBrotliDecompress({
        flush: constants.BROTLI_OPERATION_FLUSH,
        finishFlush: constants.BROTLI_OPERATION_FLUSH,
      });
    default:
      return undefined;
  }
}

/** The body's bytes with `encodings` (in the order they were applied) undone; `stop` ends every stage. */
export function decode(body: HttpBody, encodings: readonly string[]): Decoding {
  const stages: Stage[] = [];
  // Undone in reverse.
  for (const encoding of [...encodings].reverse()) {
    const stage = stageFor(encoding);
    if (stage === undefined) {
      for (const s of stages) s.destroy();
      throw new TypeError(`unsupported Content-Encoding "${encoding.slice(0, 40)}"`);
    }
    stages.push(stage);
  }
  // Compressed bodies come from Node's clients only (fetch decodes its own): node:http's is a Readable,
  // piped through as it is; undici's is read by iteration into one, which pulls as the stages drain.
  let upstream: Readable = body instanceof Readable ? body : Readable.from(body, { objectMode: false });
  for (const stage of stages) {
    upstream.on('error', (e) => stage.destroy(e));
    upstream.pipe(stage);
    upstream = stage;
  }
  return {
    chunks: upstream as AsyncIterable<Uint8Array>,
    stop: () => {
      for (const stage of stages) stage.destroy();
    },
  };
}
