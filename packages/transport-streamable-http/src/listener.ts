// The GET stream that carries the server's own messages: opened after the handshake, re-opened with backoff.
import { discard, sleep } from '@mcpc/http';
import { escapeForLog } from '@mcpc/jsonrpc';
import { mediaType, readEventStream, type MessageHandlers, type StreamCursor } from './messages.js';
import type { ResolvedOptions } from './options.js';
import type { Session } from './session.js';
import type { Wire } from './wire.js';

/** What the listener needs of its transport. */
export interface ListenerHost {
  /** Where the server's messages go. */
  readonly deliver: MessageHandlers;
  /** The server ended the session `staleId` (a 404 to the GET): renew it (which re-opens the stream). */
  renewSession(staleId: string): Promise<void>;
  warn(message: string): void;
  trace(message: string): void;
}

/** At most one GET stream at a time; `stop` ends it (a session renewal), the closing signal for good. */
export class Listener {
  readonly #options: ResolvedOptions;
  readonly #wire: Wire;
  readonly #session: Session;
  readonly #host: ListenerHost;
  readonly #closing: AbortSignal;
  #running: Promise<void> | undefined;
  #stop: AbortController | undefined;

  constructor(options: ResolvedOptions, wire: Wire, session: Session, host: ListenerHost, closing: AbortSignal) {
    this.#options = options;
    this.#wire = wire;
    this.#session = session;
    this.#host = host;
    this.#closing = closing;
  }

  /** Opens the stream unless it is off (`listen: false`), already open, or the transport is closing. */
  start(): void {
    if (!this.#options.listen || this.#running !== undefined || this.#closing.aborted) return;
    const stop = new AbortController();
    this.#stop = stop;
    const signal = AbortSignal.any([stop.signal, this.#closing]);
    this.#running = this.#listen(signal).finally(() => {
      if (this.#stop === stop) {
        this.#running = undefined;
        this.#stop = undefined;
      }
    });
  }

  stop(): void {
    this.#stop?.abort();
    this.#running = undefined;
    this.#stop = undefined;
  }

  /** Settles once the current stream, if any, has ended (it never rejects). */
  async ended(): Promise<void> {
    await this.#running?.catch(() => {});
  }

  /** Keeps a GET stream open for the server's messages, re-opening it with backoff when it drops. */
  async #listen(signal: AbortSignal): Promise<void> {
    const cursor: StreamCursor = { lastEventId: undefined, retryMs: undefined };
    for (let attempt = 0; !signal.aborted;) {
      let received = false;
      const sentWith = this.#session.id;
      try {
        const response = await this.#wire.get(signal, cursor.lastEventId, 0);
        const status = response.statusCode;
        if (status === 405) return void (await discard(response)); // The server offers no GET stream.
        if (status === 404 && sentWith !== undefined) {
          await discard(response);
          void this.#host
            .renewSession(sentWith)
            .catch((e: unknown) => this.#host.warn(`could not renew the session: ${escapeForLog(errorMessage(e))}`));
          return;
        }
        if (status >= 400 || mediaType(response) !== 'text/event-stream') {
          await discard(response);
          return this.#host.warn(
            `the server refused the GET stream (HTTP ${status}); server-initiated messages will arrive only on request streams`,
          );
        }
        const deliver = this.#host.deliver;
        await readEventStream(response, this.#options.maxSseEventBytes, cursor, {
          ...deliver,
          message: (m, bytes) => {
            received = true;
            deliver.message(m, bytes);
          },
        });
      } catch (error) {
        if (signal.aborted) return;
        this.#host.trace(`the GET stream dropped: ${escapeForLog(errorMessage(error))}`);
      }
      attempt = received ? 0 : attempt + 1;
      try {
        await sleep(this.#wire.reconnectDelay(cursor, attempt), signal);
      } catch {
        return;
      }
    }
  }
}

const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));
