import { TransportError } from '@mcpc/jsonrpc';

/**
 * The server's `endpoint` event named a URL on another origin. Refused: configured credential headers
 * must never be sent to a host other than the one they were configured for.
 */
export class EndpointOriginError extends TransportError {
  static override readonly brand: string = 'EndpointOriginError';
  readonly expectedOrigin: string;

  constructor(expectedOrigin: string) {
    super(
      `the server's endpoint event named a URL off ${expectedOrigin}; refused, so credentials never reach another host`,
      {
        code: 'MCPC_ENDPOINT_OFF_ORIGIN',
      },
    );
    this.expectedOrigin = expectedOrigin;
  }
}

/** The SSE stream opened but no usable `endpoint` event arrived in time. */
export class EndpointTimeoutError extends TransportError {
  static override readonly brand: string = 'EndpointTimeoutError';

  constructor(timeoutMs: number) {
    super(`the server sent no endpoint event within ${timeoutMs} ms (is this an HTTP+SSE server?)`, {
      code: 'MCPC_ENDPOINT_TIMEOUT',
    });
  }
}
