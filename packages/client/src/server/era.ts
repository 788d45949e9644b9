// The contract between a connection and its protocol era: session facts, request options, the host bridge.
import type { JsonRpcId, JsonRpcParams, Progress, RequestContext } from '@mcpc/jsonrpc';
import type { InputRequiredContinuation } from '../errors.js';
import type { ClientCapabilities, Implementation, LoggingLevel, ServerCapabilities } from '../types/protocol.js';

/** What a server told the client about itself when the session was established. */
export interface SessionFacts {
  readonly protocolVersion: string;
  readonly serverInfo: Implementation;
  readonly capabilities: ServerCapabilities;
  readonly instructions: string | undefined;
}

/** Per-request options every era honours. */
export interface EraRequestOptions {
  readonly timeout?: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: Progress) => void;
  readonly resetTimeoutOnProgress?: boolean;
  readonly maxTotalTimeout?: number;
}

/** What features pass an era beyond the caller's options (not part of the public request options). */
export interface EraCallOptions extends EraRequestOptions {
  /** Extra HTTP headers for this request: a tools/call's `Mcp-Param-*` (stateless era, HTTP only). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Reports how many `input_required` round trips the request took (0: answered at once). */
  readonly onRounds?: (rounds: number) => void;
  /** Takes up a multi round-trip request where an `InputRequiredError` left it. */
  readonly resume?: InputRequiredContinuation;
  /** The answer may take long, with quiet periods (`subscriptions/listen`). */
  readonly longLived?: boolean;
  /** Told the request's JSON-RPC id (each attempt's) before it is sent. */
  readonly onId?: (id: JsonRpcId) => void;
  /**
   * Declare the tasks extension on this request (MCP 2026-07-28 per-request capabilities), whether or not
   * the client declares it on every request: task methods, and a call asked to run as a task.
   */
  readonly declareTasks?: boolean;
}

/**
 * The host side of the client, as an era sees it: who the client is, what it declared, and the
 * handlers that answer a server's input requests. The handlers take the server's raw params, check
 * them, and resolve with the wire result, or throw an `ErrorReply` for a malformed request. An era only
 * decides how such input arrives (classic: server-to-client JSON-RPC requests; stateless: input requests
 * inside a result) and how the answer goes back.
 */
export interface HostBridge {
  readonly clientInfo: Implementation;
  /** Derived from what the host registered, when the connection opens. */
  readonly capabilities: ClientCapabilities;
  /** `stateless`: the request came inside an MCP 2026-07-28 result (URL mode then has no `elicitationId`). */
  readonly elicit:
    | ((
        params: JsonRpcParams | undefined,
        context: RequestContext,
        options?: { readonly stateless?: boolean },
      ) => Promise<unknown>)
    | undefined;
  readonly sample: ((params: JsonRpcParams | undefined, context: RequestContext) => Promise<unknown>) | undefined;
  readonly listRoots: ((context: RequestContext) => unknown) | undefined;
  /** The roots as configured now (undefined: not declared), read without answering anyone. */
  readonly roots?: () => readonly unknown[] | undefined;
}

/**
 * The seam between MCP semantics and a protocol era. The classic era (2024-11-05 … 2025-11-25) runs the
 * `initialize` handshake and keeps the negotiated session; the stateless era (2026-07-28) discovers the
 * server and carries the client's identity in every request's `_meta`. Features call only this
 * interface, so a second era is a second implementation, not a branch in every feature.
 */
export interface ProtocolEra {
  readonly kind: 'classic' | 'stateless';
  /** Establish the session. Rejects with a typed error (`UnsupportedProtocolVersionError`, …). */
  open(): Promise<SessionFacts>;
  /** The server's facts as last learned (an era that can re-learn them keeps them here). */
  readonly facts?: SessionFacts | undefined;
  /** Whether those facts may be out of date (a stateless server's discovery result past its `ttlMs`). */
  readonly stale?: boolean;
  /** Re-learns the facts when they are stale. */
  refresh?(options: EraRequestOptions): Promise<SessionFacts>;
  /** Whether the server offers a capability, given as a path (`'resources.subscribe'`). */
  supports(capability: string): boolean;
  /** Send one logical request and resolve with its result (several round trips, in eras that need them). */
  request(method: string, params: JsonRpcParams | undefined, options: EraCallOptions): Promise<unknown>;
  ping(options: EraRequestOptions): Promise<void>;
  setLogLevel(level: LoggingLevel, options: EraRequestOptions): Promise<void>;
  /** Tell the server the roots changed, where this session can be told. */
  rootsChanged(): Promise<void>;
}
