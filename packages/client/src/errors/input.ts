// Multi round-trip requests that stopped: the input a server still needs, how to resume, and bounds on what it asks.
import { McpError } from '@mcpc/jsonrpc';
import { brand } from '../brand.js';
import { ClientErrorCode } from '../codes.js';

/** Why a multi round-trip request stopped: a closed set. */
export type InputRequiredReason =
  /** The server asked for something this client cannot provide (a method it has no handler for). */
  | 'unsupported'
  /** `inputRequests` (or one of them) is not well-formed. */
  | 'malformed'
  /** A host handler failed or refused; answers already produced are kept for a resume. */
  | 'handler-failed'
  /** More than 10 rounds: the server kept asking. */
  | 'too-many-rounds'
  /** The host's `onInputRequiredWait` said cancel. */
  | 'cancelled'
  /** The request's timeout ran out while waiting. */
  | 'timeout'
  /** A later round trip failed (network, timeout, server error) after input was given; `cause` says how. */
  | 'send-failed';

/** What is needed to resume a multi round-trip request where it stopped (see `resumeInputRequired`). */
export interface InputRequiredContinuation {
  readonly server: string;
  readonly method: 'tools/call' | 'resources/read' | 'prompts/get';
  /** The original request's params (without `_meta`, which is rebuilt per request). */
  readonly params: Readonly<Record<string, unknown>>;
  /** The server's last `inputRequests` (untrusted). */
  readonly inputRequests: Readonly<Record<string, unknown>> | undefined;
  /** The server's last opaque `requestState`, echoed as is. */
  readonly requestState: string | undefined;
  /** Answers already produced for `inputRequests`, by key: a resume fulfils only the others. */
  readonly inputResponses: Readonly<Record<string, unknown>>;
}

/**
 * A multi round-trip request (MCP 2026-07-28 `input_required`) could not be completed: `reason` says
 * why. `inputRequests` and `requestState` are the server's last; `continuation` lets
 * `client.resumeInputRequired(error)` take it up again where `resumable` is true.
 */
export class InputRequiredError extends McpError {
  static {
    brand(this, 'InputRequiredError');
  }
  readonly reason: InputRequiredReason;
  readonly server: string;
  readonly method: string;
  readonly inputRequests: Readonly<Record<string, unknown>> | undefined;
  readonly requestState: string | undefined;
  readonly continuation: InputRequiredContinuation;
  readonly resumable: boolean;

  constructor(
    reason: InputRequiredReason,
    detail: string,
    continuation: InputRequiredContinuation,
    options: { resumable: boolean; cause?: unknown },
  ) {
    super(
      `${continuation.method} on server "${continuation.server}" needs input the client could not give: ${detail}`,
      { code: ClientErrorCode.InputRequired, cause: options.cause },
    );
    this.reason = reason;
    this.server = continuation.server;
    this.method = continuation.method;
    this.inputRequests = continuation.inputRequests;
    this.requestState = continuation.requestState;
    this.continuation = continuation;
    this.resumable = options.resumable;
  }
}

/**
 * A multi round-trip request (MCP 2026-07-28) went past a bound the client keeps on what a server may
 * ask of it: more `inputRequests` in one `input_required` round than `maxInputRequests` (code
 * `MCPC_TOO_MANY_INPUT_REQUESTS`; no handler was called for that round), or a `requestState` larger
 * than `maxRequestStateBytes` UTF-8 bytes (`MCPC_REQUEST_STATE_TOO_LARGE`; it was not sent back).
 */
export class InputLimitError extends McpError {
  static {
    brand(this, 'InputLimitError');
  }
  readonly limit: 'inputRequests' | 'requestState';
  readonly server: string;
  readonly method: string;
  /** What the server sent: the number of input requests, or the state's size in bytes. */
  readonly size: number;
  /** The bound it broke (the client option raises it). */
  readonly max: number;

  constructor(limit: 'inputRequests' | 'requestState', server: string, method: string, size: number, max: number) {
    super(
      limit === 'inputRequests'
        ? `${method} on server "${server}" asked for ${size} inputs in one round, more than maxInputRequests (${max}); none was asked of the host`
        : `${method} on server "${server}" sent a requestState of ${size} bytes, more than maxRequestStateBytes (${max}); it was not sent back`,
      { code: limit === 'inputRequests' ? ClientErrorCode.TooManyInputRequests : ClientErrorCode.RequestStateTooLarge },
    );
    this.limit = limit;
    this.server = server;
    this.method = method;
    this.size = size;
    this.max = max;
  }
}
