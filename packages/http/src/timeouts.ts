// The timeout error of the clients that time requests themselves (Node's, fetch), whose `code` the retry policy reads.
import { HttpErrorCode } from './codes.js';

/** A timeout of Node's or the fetch client, with a `code` the exchange's retry policy reads (connect ones are retried). */
export class ClientTimeoutError extends Error {
  readonly code:
    typeof HttpErrorCode.ConnectTimeout | typeof HttpErrorCode.HeadersTimeout | typeof HttpErrorCode.BodyTimeout;

  constructor(code: ClientTimeoutError['code'], ms: number) {
    const what =
      code === HttpErrorCode.ConnectTimeout
        ? 'connecting'
        : code === HttpErrorCode.HeadersTimeout
          ? 'waiting for the response headers'
          : 'waiting for the next body chunk';
    super(`timed out after ${ms} ms ${what}`);
    this.name = 'ClientTimeoutError';
    this.code = code;
  }
}
