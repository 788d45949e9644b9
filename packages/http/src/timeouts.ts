// The timeout error of Node's client, whose `code` the exchange's retry policy reads.
import { HttpErrorCode } from './codes.js';

/** A timeout of Node's client, with a `code` the exchange's retry policy reads (connect ones are retried). */
export class NodeHttpTimeoutError extends Error {
  readonly code:
    typeof HttpErrorCode.ConnectTimeout | typeof HttpErrorCode.HeadersTimeout | typeof HttpErrorCode.BodyTimeout;

  constructor(code: NodeHttpTimeoutError['code'], ms: number) {
    const what =
      code === HttpErrorCode.ConnectTimeout
        ? 'connecting'
        : code === HttpErrorCode.HeadersTimeout
          ? 'waiting for the response headers'
          : 'waiting for the next body chunk';
    super(`timed out after ${ms} ms ${what}`);
    this.name = 'NodeHttpTimeoutError';
    this.code = code;
  }
}
