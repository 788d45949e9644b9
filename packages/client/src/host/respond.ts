// Host handlers wrapped for server requests: the request checked first, handler failures kept off the wire.
import {
  ErrorCode,
  ErrorReply,
  escapeForLog,
  safeLog,
  type JsonRpcParams,
  type Logger,
  type RequestContext,
} from '@mcpc/jsonrpc';
import type { HostRequestContext } from '../types/host.js';

/** The one message a server sees when a host handler fails: host details never cross the wire. */
export const HANDLER_FAILED_MESSAGE = 'The client could not handle the request';

/**
 * Wraps a host handler for a server request: the request is checked first (a malformed one is answered
 * -32602 and the handler never runs), a handler that throws is answered with a constant message while
 * the detail goes to the local log, and an `ErrorReply` the handler throws on purpose goes through.
 */
export function respondWith<Req, Res>(options: {
  readonly server: string;
  readonly method: string;
  readonly logger: Logger;
  /** The request the handler sees, or a string saying why the params are invalid. */
  readonly check: (params: JsonRpcParams | undefined) => Req | string;
  readonly handle: (request: Req, context: HostRequestContext) => Res | Promise<Res>;
  /** The wire result for what the handler returned; throws when the handler returned something unusable. */
  readonly answer: (result: Res, request: Req) => unknown;
}): (params: JsonRpcParams | undefined, context: RequestContext) => Promise<unknown> {
  const { server, method, logger } = options;
  return async (params, rpc) => {
    const request = options.check(params);
    if (typeof request === 'string') {
      safeLog(logger, 'warn', `[mcpc] server "${escapeForLog(server, 100)}" sent a malformed ${method}: ${request}`);
      throw new ErrorReply(ErrorCode.InvalidParams, `Invalid params: ${request}`);
    }
    let result: Res;
    try {
      result = await options.handle(request, { server, signal: rpc.signal });
      return options.answer(result, request);
    } catch (error) {
      if (error instanceof ErrorReply) throw error;
      const detail = error instanceof Error ? error.message : String(error);
      safeLog(
        logger,
        'error',
        `[mcpc] the ${method} handler failed for server "${escapeForLog(server, 100)}": ${escapeForLog(detail, 500)}`,
      );
      throw new ErrorReply(ErrorCode.InternalError, HANDLER_FAILED_MESSAGE);
    }
  };
}
