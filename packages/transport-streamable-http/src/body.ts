import type { Readable } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate, type Gunzip, type BrotliDecompress, type Inflate } from 'node:zlib';
import { ResponseTooLargeError } from './errors.js';

/** What we accept; the server may compress with any of them. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

function decompressorFor(encoding: string): Gunzip | Inflate | BrotliDecompress | undefined {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip({ flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH });
    case 'deflate':
      return createInflate({ flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH });
    case 'br':
      return createBrotliDecompress({ flush: constants.BROTLI_OPERATION_FLUSH, finishFlush: constants.BROTLI_OPERATION_FLUSH });
    default:
      return undefined;
  }
}

/**
 * The body's bytes as they arrive, decompressed incrementally. With `limit`, reading stops as soon as
 * the decompressed total passes it (ResponseTooLargeError): a small, highly compressed body cannot
 * expand into gigabytes in memory. Without it (long-lived SSE streams, bounded per event instead),
 * chunks are still decompressed one at a time and never accumulated here.
 */
export async function* bodyChunks(body: Readable, contentEncoding: string | undefined, limit: number | undefined): AsyncGenerator<Buffer> {
  const encodings = (contentEncoding ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '' && e !== 'identity');
  let source: AsyncIterable<Buffer> = body;
  const stages: (Gunzip | Inflate | BrotliDecompress)[] = [];
  // Encodings are listed in the order they were applied; undo them in reverse.
  for (const encoding of encodings.reverse()) {
    const stage = decompressorFor(encoding);
    if (stage === undefined) throw new TypeError(`unsupported Content-Encoding "${encoding.slice(0, 40)}"`);
    stages.push(stage);
  }
  if (stages.length > 0) {
    let upstream: Readable = body;
    for (const stage of stages) {
      upstream.on('error', (e) => stage.destroy(e));
      upstream.pipe(stage);
      upstream = stage;
    }
    source = upstream as AsyncIterable<Buffer>;
  }
  let total = 0;
  try {
    for await (const chunk of source) {
      total += chunk.length;
      if (limit !== undefined && total > limit) throw new ResponseTooLargeError(limit);
      yield chunk;
    }
  } finally {
    // Stops reading (and decompressing) at once when the consumer leaves early, for whatever reason.
    for (const stage of stages) stage.destroy();
    body.destroy();
  }
}

/** The whole body as text, within `limit` decompressed bytes. */
export async function readText(body: Readable, contentEncoding: string | undefined, limit: number): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of bodyChunks(body, contentEncoding, limit)) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
}
