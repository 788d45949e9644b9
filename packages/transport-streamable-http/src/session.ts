// A Streamable HTTP session: the id the server assigned, the negotiated version, and renewal by replaying `initialize`.
import type { JsonRpcId, JsonRpcRequest, JsonRpcResponse } from '@mcpc/jsonrpc';
import { untilAborted } from '@mcpc/http';

// The spec: a session id is visible ASCII (0x21–0x7E). A length bound keeps a hostile one off every request.
const SESSION_ID = /^[\x21-\x7e]{1,1024}$/;
// A protocol version is echoed in a header: a short token, nothing that could break the header.
const PROTOCOL_VERSION = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * What a Streamable HTTP session is made of, as far as the transport is concerned: the id the server
 * assigned, the protocol version the initialize exchange negotiated, and that exchange itself, kept so
 * an expired session can be renewed by replaying it.
 */
export class Session {
  id: string | undefined;
  protocolVersion: string | undefined;
  /** notifications/initialized went out: a renewed session repeats it and re-opens the GET stream. */
  initialized = false;
  #initialize: JsonRpcRequest | undefined;
  readonly #initializeIds = new Set<JsonRpcId>();
  #renewal: Promise<void> | undefined;
  #renewals = 0;

  beginInitialize(request: JsonRpcRequest): void {
    this.#initialize = request;
    this.#initializeIds.add(request.id);
    this.id = undefined;
  }

  /** Takes the session id from an initialize response's `Mcp-Session-Id`, if it is a valid one. */
  adoptId(value: string | undefined, warn: (message: string) => void): void {
    if (value === undefined) return;
    if (SESSION_ID.test(value)) this.id = value;
    else warn(`ignored a session id that is not 1–1024 visible ASCII characters (${value.length} chars)`);
  }

  /** Notes the negotiated version when an initialize answer goes past. */
  observeResponse(response: JsonRpcResponse): void {
    if (response.id === null || !this.#initializeIds.delete(response.id) || !('result' in response)) return;
    const version = (response.result as { protocolVersion?: unknown } | null)?.protocolVersion;
    if (typeof version === 'string' && PROTOCOL_VERSION.test(version)) this.protocolVersion = version;
  }

  nextRenewalId(): string {
    const id = `mcpc-session-renewal-${++this.#renewals}`;
    this.#initializeIds.add(id);
    return id;
  }

  /** A renewal is under way: the session has no id until it ends. */
  get renewing(): boolean {
    return this.#renewal !== undefined;
  }

  /**
   * Settles once the renewal under way has: a message sent meanwhile waits for the new id instead of
   * going out with none, which the server would refuse without the 404 that tells the transport to
   * renew. Rejects with the renewal's failure (there is no session to send in), or when `signal` aborts.
   */
  renewed(signal: AbortSignal): Promise<void> {
    return this.#renewal === undefined ? Promise.resolve() : untilAborted(this.#renewal, signal);
  }

  /**
   * Renews the session that `staleId` named, once however many requests met its end. A request that
   * failed on a session already replaced finds the renewal done and goes on at once.
   */
  renew(
    staleId: string | undefined,
    signal: AbortSignal,
    run: (initialize: JsonRpcRequest) => Promise<void>,
  ): Promise<void> {
    const initialize = this.#initialize;
    if (initialize === undefined) return Promise.resolve();
    if (this.#renewal === undefined) {
      if (staleId !== this.id) return Promise.resolve();
      this.id = undefined;
      this.#renewal = run(initialize).finally(() => {
        this.#renewal = undefined;
      });
    }
    return untilAborted(this.#renewal, signal);
  }
}
