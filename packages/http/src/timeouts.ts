// The timeout error of Node's client, whose `code` the exchange's retry policy reads.

/** A timeout of Node's client, with a `code` the exchange's retry policy reads (connect ones are retried). */
export class NodeHttpTimeoutError extends Error {
  readonly code: 'MCPC_CONNECT_TIMEOUT' | 'MCPC_HEADERS_TIMEOUT' | 'MCPC_BODY_TIMEOUT';

  constructor(code: NodeHttpTimeoutError['code'], ms: number) {
    const what =
      code === 'MCPC_CONNECT_TIMEOUT'
        ? 'connecting'
        : code === 'MCPC_HEADERS_TIMEOUT'
          ? 'waiting for the response headers'
          : 'waiting for the next body chunk';
    super(`timed out after ${ms} ms ${what}`);
    this.name = 'NodeHttpTimeoutError';
    this.code = code;
  }
}
