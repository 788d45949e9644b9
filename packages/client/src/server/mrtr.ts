// Multi-round-trip requests: answering `input_required` rounds, within bounds on rounds, requests and state.
import { neverAborted } from './never-signal.js';
import {
  AbortError,
  ErrorCode,
  ErrorReply,
  JsonRpcErrorCode,
  ServerError,
  TransportErrorCode,
  escapeForLog,
  safeLog,
  type IncomingObservation,
  type JsonRpcParams,
  type Logger,
  type RequestContext,
} from '@mcpc/jsonrpc';
import {
  HeaderMismatchError,
  InputLimitError,
  InputRequiredError,
  type InputRequiredContinuation,
  type InputRequiredReason,
} from '../errors.js';
import type { EraRequestOptions, HostBridge } from './era.js';

/** The requests a server may answer with `input_required` (MCP 2026-07-28 "Supported Requests"). */
export const MRTR_METHODS: ReadonlySet<string> = new Set(['tools/call', 'resources/read', 'prompts/get']);

/** The most `input_required` answers one request may get before the client stops asking again. */
export const MAX_ROUNDS = 10;

/** Default bound on the `inputRequests` of one `input_required` round (`maxInputRequests`). */
export const DEFAULT_MAX_INPUT_REQUESTS = 64;
/** Default bound on the `requestState` echoed back each round, in UTF-8 bytes (`maxRequestStateBytes`). */
export const DEFAULT_MAX_REQUEST_STATE_BYTES = 256 * 1024;

/** The client's bounds on what one round may ask of it. */
export interface InputLimits {
  readonly maxInputRequests: number;
  readonly maxRequestStateBytes: number;
}

/** Failures of a later round after which the same round may be sent again (`resumeInputRequired`). */
const RESENDABLE: ReadonlySet<unknown> = new Set([
  TransportErrorCode.NetworkError,
  TransportErrorCode.TransientServerError,
  JsonRpcErrorCode.RequestTimeout,
  TransportErrorCode.ResponseStreamClosed,
]);

/**
 * Whether a failed round may be sent again as it was: the wire failed, the request timed out, the
 * server failed internally (-32603, or its own -32000…-32099 range, but not the protocol's -32020…-32022
 * except a HeaderMismatch, which a refreshed definition answers). A refusal of the params, a closed
 * connection or a cancel by the caller is not.
 */
function resendable(error: unknown): boolean {
  if (error instanceof HeaderMismatchError) return true;
  if (error instanceof ServerError && error.code === JsonRpcErrorCode.ServerError) {
    const code = error.rpcCode;
    return code === ErrorCode.InternalError || (code <= -32000 && code >= -32099 && (code < -32022 || code > -32020));
  }
  return error instanceof Error && RESENDABLE.has((error as { code?: unknown }).code);
}

const FIRST_PAUSE_MS = 250;
const MAX_PAUSE_MS = 5_000;

/** What `onInputRequiredWait` is told when the server asked for no input, only to come back later. */
export interface InputRequiredWait {
  readonly server: string;
  readonly method: string;
  /** Which round trip this is (1 for the first retry). */
  readonly round: number;
  /** How long the client will pause before retrying, in milliseconds. */
  readonly delay: number;
  readonly requestState: string | undefined;
  /** The server's `input_required` result (untrusted). */
  readonly result: Readonly<Record<string, unknown>>;
  /** Milliseconds since the request started. */
  readonly elapsed: number;
}

/** `'cancel'` stops (with a resumable `InputRequiredError`), `'retry'` retries now; anything else waits the pace. */
export type InputRequiredWaitDecision = 'cancel' | 'retry' | 'wait' | undefined | void;
export type InputRequiredWaitHook = (
  wait: InputRequiredWait,
) => InputRequiredWaitDecision | Promise<InputRequiredWaitDecision>;

export interface RoundContext {
  readonly server: string;
  readonly logger: Logger;
  readonly host: HostBridge;
  readonly requestTimeout: number;
  readonly onWait: InputRequiredWaitHook | undefined;
  readonly limits: InputLimits;
  /** Sends the request once (a new JSON-RPC id each time) within `timeout` ms. */
  readonly send: (params: JsonRpcParams, timeout: number | undefined) => Promise<Record<string, unknown>>;
  /** The connection's tracing hooks, when it is traced. */
  readonly tracing?: InputTracing | undefined;
}

/**
 * How a multi round-trip request is traced, without this module knowing how: each round's send made
 * known as that round, and each input request the client answers observed like a server's request.
 */
export interface InputTracing {
  /** Runs `send` (which starts round `round`'s request synchronously) so the request is known as that round. */
  round<T>(round: number, send: () => T): T;
  /** Watches one input request of the answer whose `inputRequests` is `requests`. */
  input(
    requests: object,
    key: string,
    method: string,
    params: JsonRpcParams | undefined,
  ): IncomingObservation | undefined;
}

type MrtrMethod = InputRequiredContinuation['method'];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A first round the caller already sent (with `firstRoundTimeout`) and whose answer was `input_required`,
 * and when it was sent: `roundTrips` goes on from that answer.
 */
export interface FirstRound {
  readonly result: Record<string, unknown>;
  readonly started: number;
}

/** The timeout of a request's first round, as `roundTrips` gives it: the whole budget, or none of its own. */
export function firstRoundTimeout(budget: number): number | undefined {
  return budget > 0 ? Math.max(1, budget) : undefined;
}

/** Params without the answers of a round (`inputResponses`, `requestState`). */
function withoutRound(params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { inputResponses: _r, requestState: _s, ...base } = params;
  return base;
}

/**
 * A request that may need the client's input (MCP 2026-07-28 multi round-trip requests): while the
 * server answers `input_required`, each of its `inputRequests` is fulfilled by the host's handlers and
 * the request is re-sent, under a new id, with the same params plus `inputResponses` and the server's
 * `requestState` echoed byte for byte. An answer with no requests (the server waits on something out of
 * band) is retried after a growing pause the host can steer. The whole exchange lives within the
 * request's timeout. Resolves with the final result and reports how many rounds it took.
 */
export async function roundTrips(
  ctx: RoundContext,
  method: MrtrMethod,
  params: Record<string, unknown>,
  options: EraRequestOptions & { readonly onRounds?: (rounds: number) => void },
  resume?: InputRequiredContinuation,
  first?: FirstRound,
): Promise<Record<string, unknown>> {
  const started = first?.started ?? Date.now();
  const budget = options.timeout ?? ctx.requestTimeout;
  const deadline = budget > 0 ? started + budget : Number.POSITIVE_INFINITY;
  const source = resume?.params ?? params;
  // The params without a previous round's answers. Copied only when they carry some: a rest copy on
  // every request was a measurable part of a call's cost. A continuation still gets params of its own.
  const base =
    Object.hasOwn(source, 'inputResponses') || Object.hasOwn(source, 'requestState') ? withoutRound(source) : source;
  let state: string | undefined = resume?.requestState;
  let responses: Record<string, unknown> | undefined;
  let pauses = 0;
  const stop = (
    reason: InputRequiredReason,
    detail: string,
    requests: Record<string, unknown> | undefined,
    kept: Record<string, unknown>,
    resumable: boolean,
    cause?: unknown,
  ): never => {
    const continuation: InputRequiredContinuation = {
      server: ctx.server,
      method,
      params: base === source ? { ...base } : base,
      inputRequests: requests,
      requestState: state,
      inputResponses: kept,
    };
    throw new InputRequiredError(reason, detail, continuation, { resumable, ...(cause !== undefined && { cause }) });
  };

  if (resume !== undefined) {
    responses = await fulfilAll(
      ctx,
      resume.inputRequests,
      { ...resume.inputResponses },
      options.signal,
      (reason, detail, kept, resumable, cause) =>
        stop(reason, detail, resume.inputRequests as Record<string, unknown> | undefined, kept, resumable, cause),
    );
  }
  // What the last round asked for, and the answers given: a failed resend is resumable from them.
  let asked: Record<string, unknown> | undefined = resume?.inputRequests as Record<string, unknown> | undefined;
  for (let round = resume === undefined ? 0 : 1; ; round++) {
    const left = deadline - Date.now();
    if (round > 0 && left <= 0)
      stop('timeout', `the request's ${budget} ms ran out after ${round} round trips`, asked, responses ?? {}, true);
    const sent: Record<string, unknown> =
      round === 0
        ? base
        : {
            ...base,
            ...(responses !== undefined && { inputResponses: responses }),
            ...(state !== undefined && { requestState: state }),
          };
    let result: Record<string, unknown>;
    try {
      result =
        round === 0 && first !== undefined
          ? first.result
          : await sendRound(ctx, round, sent as JsonRpcParams, Number.isFinite(left) ? Math.max(1, left) : undefined);
    } catch (error) {
      // The first send has nothing to resume from; a later one carries input the host already gave.
      if (round === 0 || !resendable(error)) throw error;
      return stop(
        'send-failed',
        `round trip ${round + 1} failed: ${error instanceof Error ? error.message : String(error)}`,
        asked,
        responses ?? {},
        true,
        error,
      );
    }
    if (result.resultType !== 'input_required') {
      options.onRounds?.(round);
      return result;
    }
    const requests = result.inputRequests;
    const nextState = result.requestState;
    if ((requests !== undefined && !isObject(requests)) || (nextState !== undefined && typeof nextState !== 'string')) {
      stop(
        'malformed',
        'its input_required result has an inputRequests that is not an object or a requestState that is not a string',
        undefined,
        {},
        false,
      );
    }
    if (requests === undefined && nextState === undefined)
      stop('malformed', 'its input_required result has neither inputRequests nor requestState', undefined, {}, false);
    // Bounded before anything is asked of the host or sent back: the server chooses these sizes.
    if (requests !== undefined) {
      const count = Object.keys(requests as Record<string, unknown>).length;
      if (count > ctx.limits.maxInputRequests)
        throw new InputLimitError('inputRequests', ctx.server, method, count, ctx.limits.maxInputRequests);
    }
    if (typeof nextState === 'string' && nextState.length > ctx.limits.maxRequestStateBytes / 3) {
      const bytes = new TextEncoder().encode(nextState).byteLength; // not Buffer: the root entry loads outside Node too
      if (bytes > ctx.limits.maxRequestStateBytes)
        throw new InputLimitError('requestState', ctx.server, method, bytes, ctx.limits.maxRequestStateBytes);
    }
    // Never invented, never carried over: the retry echoes exactly what this answer gave.
    state = nextState as string | undefined;
    if (round >= MAX_ROUNDS)
      stop(
        'too-many-rounds',
        `the server still asked for input after ${MAX_ROUNDS} round trips`,
        requests as Record<string, unknown> | undefined,
        {},
        true,
      );
    asked = requests as Record<string, unknown> | undefined;
    if (requests !== undefined) {
      responses = await fulfilAll(
        ctx,
        requests as Record<string, unknown>,
        {},
        options.signal,
        (reason, detail, kept, resumable, cause) =>
          stop(reason, detail, requests as Record<string, unknown>, kept, resumable, cause),
      );
      continue;
    }
    responses = undefined;
    const delay = Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** pauses++);
    const decision = await ctx.onWait?.({
      server: ctx.server,
      method,
      round: round + 1,
      delay,
      requestState: state,
      result,
      elapsed: Date.now() - started,
    });
    if (decision === 'cancel') stop('cancelled', 'the host cancelled the wait', undefined, {}, true);
    if (decision === 'retry') continue;
    // The host's own deliberation counts against the budget too.
    if (Date.now() + delay >= deadline)
      stop('timeout', `the request's ${budget} ms would run out during the wait`, undefined, {}, true);
    await sleep(delay, options.signal, method);
  }
}

type Stop = (
  reason: InputRequiredReason,
  detail: string,
  kept: Record<string, unknown>,
  resumable: boolean,
  cause?: unknown,
) => never;

/** Fulfils every request not already answered in `kept`, one at a time (a person may be asked). */
async function fulfilAll(
  ctx: RoundContext,
  requests: Readonly<Record<string, unknown>> | undefined,
  kept: Record<string, unknown>,
  signal: AbortSignal | undefined,
  stop: Stop,
): Promise<Record<string, unknown>> {
  if (requests === undefined) return kept;
  for (const [key, entry] of Object.entries(requests)) {
    if (Object.hasOwn(kept, key)) continue;
    if (
      !isObject(entry) ||
      typeof entry.method !== 'string' ||
      (entry.params !== undefined && !isObject(entry.params))
    ) {
      stop('malformed', `input request "${escapeForLog(key, 64)}" is not a { method, params } request`, kept, false);
    }
    const method = entry.method as string;
    const context: RequestContext = { id: key, method, signal: signal ?? neverAborted() };
    const params = entry.params as JsonRpcParams | undefined;
    const observation = ctx.tracing?.input(requests, key, method, params);
    let answer: unknown;
    try {
      answer = await (observation === undefined
        ? fulfil(ctx, method, params, context)
        : observation.run(() => fulfil(ctx, method, params, context)));
      observation?.answered(answer);
    } catch (error) {
      observation?.failed(error === UNSUPPORTED ? new UnsupportedInputError(method) : asError(error));
      if (error instanceof AbortError) throw error;
      if (error === UNSUPPORTED)
        stop(
          'unsupported',
          `it asked for ${escapeForLog(method, 64)}, which this client has no handler for (or did not declare)`,
          kept,
          false,
        );
      const malformed = error instanceof ErrorReply && error.rpcCode === ErrorCode.InvalidParams;
      stop(
        malformed ? 'malformed' : 'handler-failed',
        `input request "${escapeForLog(key, 64)}" (${escapeForLog(method, 64)}) failed: ${error instanceof Error ? error.message : String(error)}`,
        kept,
        !malformed,
        error,
      );
    }
    // defineProperty: a server-chosen key such as `__proto__` stays a plain key.
    Object.defineProperty(kept, key, { value: answer, enumerable: true, writable: true, configurable: true });
  }
  return kept;
}

/** Sends one round, made known to the tracing as that round when there is tracing. */
function sendRound(
  ctx: RoundContext,
  round: number,
  params: JsonRpcParams,
  timeout: number | undefined,
): Promise<Record<string, unknown>> {
  const { tracing } = ctx;
  return tracing === undefined ? ctx.send(params, timeout) : tracing.round(round, () => ctx.send(params, timeout));
}

/** What a traced input request failed with when the client has no handler for it (as JSON-RPC's -32601). */
class UnsupportedInputError extends Error {
  readonly rpcCode = ErrorCode.MethodNotFound;
  constructor(method: string) {
    super(`no handler for ${method}`);
    this.name = 'UnsupportedInputError';
  }
}

const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

/** Thrown by `fulfil` when the client has no handler for the request (or did not declare it). */
export const UNSUPPORTED = Symbol('unsupported');

/** Answers one input request with the host's handler; throws `UNSUPPORTED` when there is none. */
export function fulfil(
  ctx: Pick<RoundContext, 'host' | 'logger' | 'server'>,
  method: string,
  params: JsonRpcParams | undefined,
  context: RequestContext,
): Promise<unknown> | unknown {
  const { host } = ctx;
  switch (method) {
    case 'elicitation/create': {
      if (host.elicit === undefined || host.capabilities.elicitation === undefined) throw UNSUPPORTED;
      let p = params;
      if (p?.mode === 'url' && Object.hasOwn(p, 'elicitationId')) {
        // The revision removed it: the outcome is learned by retrying, not by a later notification.
        safeLog(
          ctx.logger,
          'warn',
          `[mcpc] server "${escapeForLog(ctx.server, 100)}" sent an elicitationId with a URL-mode elicitation; MCP 2026-07-28 has none, so it was dropped`,
        );
        const { elicitationId: _dropped, ...rest } = p;
        p = rest;
      }
      return host.elicit(p, context, { stateless: true });
    }
    case 'sampling/createMessage':
      if (host.sample === undefined || host.capabilities.sampling === undefined) throw UNSUPPORTED;
      return host.sample(params, context);
    case 'roots/list':
      if (host.listRoots === undefined || host.capabilities.roots === undefined) throw UNSUPPORTED;
      return host.listRoots(context);
    default:
      throw UNSUPPORTED;
  }
}

function sleep(ms: number, signal: AbortSignal | undefined, method: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError(method, signal.reason));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortError(method, signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
