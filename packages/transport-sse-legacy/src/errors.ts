// The legacy SSE transport's own errors: an endpoint on another origin, no endpoint in time.
import { TransportError, TransportErrorCode } from '@mcpc/jsonrpc';
import { brand } from './brand.js';
import { SseErrorCode } from './codes.js';

/**
 * The server's `endpoint` event named a URL on another origin. Refused: configured credential headers
 * must never be sent to a host other than the one they were configured for.
 */
export class EndpointOriginError extends TransportError {
  static {
    brand(this, 'EndpointOriginError');
  }
  readonly expectedOrigin: string;

  constructor(expectedOrigin: string) {
    super(
      `the server's endpoint event named a URL off ${expectedOrigin}; refused, so credentials never reach another host`,
      {
        code: SseErrorCode.EndpointOffOrigin,
      },
    );
    this.expectedOrigin = expectedOrigin;
  }
}

/** The SSE stream opened but no usable `endpoint` event arrived in time. */
export class EndpointTimeoutError extends TransportError {
  static {
    brand(this, 'EndpointTimeoutError');
  }

  constructor(timeoutMs: number) {
    super(`the server sent no endpoint event within ${timeoutMs} ms (is this an HTTP+SSE server?)`, {
      code: TransportErrorCode.EndpointTimeout,
    });
  }
}

// This package's errors in `AnyMcpcError` (see @mcpc/jsonrpc's `McpcErrors`).
declare module '@mcpc/jsonrpc' {
  interface McpcErrors {
    '@mcpc/transport-sse-legacy.EndpointOriginError': EndpointOriginError & {
      readonly code: typeof SseErrorCode.EndpointOffOrigin;
    };
    '@mcpc/transport-sse-legacy.EndpointTimeoutError': EndpointTimeoutError & {
      readonly code: typeof TransportErrorCode.EndpointTimeout;
    };
  }
}
