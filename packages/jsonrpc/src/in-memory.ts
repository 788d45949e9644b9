// A linked pair of in-memory transports for tests: each end is a full `Transport` whose messages go to the other.

import { ConnectionClosedError, MessageTooLargeError, TransportError } from './errors.js';
import { decodeMessage } from './decode.js';
import type { JsonRpcMessage } from './messages.js';
import type { Transport, TransportSink } from './transport.js';

export interface InMemoryTransportOptions {
  /**
   * The largest message either end accepts, in UTF-8 bytes of its JSON text. A bigger one closes the
   * receiving end with `MessageTooLargeError` (and so the pair), as a real transport's frame limit
   * does. No limit by default.
   */
  readonly maxMessageBytes?: number;
  /**
   * Messages one end may hold for the other before that end takes them (it has not started yet, or has
   * not had a turn): a `send` beyond it rejects with a `TransportError`, so memory stays bounded (10 000).
   */
  readonly maxQueuedMessages?: number;
}

const DEFAULT_MAX_QUEUED = 10_000;

/** What waits in an end's inbox: a frame's text, or the news that the other end went away. */
type Delivery = { readonly text: string } | { readonly closedBy: Error };

/**
 * One end of an in-memory pair (see {@link createInMemoryTransportPair}). Messages travel as JSON text
 * and are decoded on arrival, as on a wire: the receiver never shares an object with the sender, and a
 * message that is not valid JSON-RPC reaches the receiver's `sink.error`.
 */
export class InMemoryTransport implements Transport {
  /** Makes two linked ends: what one sends, the other receives (the official SDK's spelling). */
  static createLinkedPair(options: InMemoryTransportOptions = {}): [InMemoryTransport, InMemoryTransport] {
    const a = new InMemoryTransport(options);
    const b = new InMemoryTransport(options);
    a.#other = b;
    b.#other = a;
    return [a, b];
  }

  readonly #maxBytes: number;
  readonly #maxQueued: number;
  #other: InMemoryTransport | undefined;
  #sink: TransportSink | undefined;
  #state: 'new' | 'open' | 'closed' = 'new';
  readonly #inbox: Delivery[] = [];
  #drainScheduled = false;

  private constructor(options: InMemoryTransportOptions) {
    this.#maxBytes = options.maxMessageBytes ?? Number.POSITIVE_INFINITY;
    this.#maxQueued = options.maxQueuedMessages ?? DEFAULT_MAX_QUEUED;
  }

  /** Starts taking messages; those the other end sent before now arrive first, in order. */
  async start(sink: TransportSink): Promise<void> {
    if (this.#state === 'closed') throw new TransportError('the in-memory transport was closed before it started');
    if (this.#state === 'open') throw new TransportError('start() was already called');
    this.#sink = sink;
    this.#state = 'open';
    this.#scheduleDrain();
  }

  /** Hands the message to the other end, which receives it asynchronously, after every earlier one. */
  async send(message: JsonRpcMessage): Promise<void> {
    if (this.#state === 'closed') throw new ConnectionClosedError(undefined);
    const other = this.#other!;
    if (other.#state === 'closed') throw new ConnectionClosedError(undefined);
    let text: string;
    try {
      text = JSON.stringify(message);
    } catch (error) {
      throw new TransportError('the message could not be serialized as JSON', { cause: error });
    }
    if (other.#inbox.length >= other.#maxQueued) {
      throw new TransportError(`the other end holds ${other.#maxQueued} messages it has not taken yet`);
    }
    other.#enqueue({ text });
  }

  /** Closes this end (its sink hears it with no cause) and, after what was already sent, the other one. */
  async close(): Promise<void> {
    this.#finish(undefined);
  }

  #finish(cause: Error | undefined): void {
    if (this.#state === 'closed') return;
    const sink = this.#sink;
    this.#state = 'closed';
    this.#sink = undefined;
    // Nothing is delivered after close: what was still waiting here is dropped.
    this.#inbox.length = 0;
    // The other end hears it after the messages already on their way, as a socket's end follows its data.
    this.#other!.#enqueue({
      closedBy: new TransportError('the other end of the in-memory transport closed', { cause }),
    });
    sink?.close(cause);
  }

  #enqueue(delivery: Delivery): void {
    if (this.#state === 'closed') return;
    this.#inbox.push(delivery);
    this.#scheduleDrain();
  }

  #scheduleDrain(): void {
    if (this.#drainScheduled || this.#state !== 'open' || this.#inbox.length === 0) return;
    this.#drainScheduled = true;
    queueMicrotask(() => this.#drain());
  }

  /** Delivers what was waiting when the turn began (what arrives meanwhile waits for the next turn). */
  #drain(): void {
    this.#drainScheduled = false;
    const batch = this.#inbox.splice(0, this.#inbox.length);
    for (const delivery of batch) {
      if (this.#state !== 'open') return;
      if ('closedBy' in delivery) return this.#finish(delivery.closedBy);
      this.#deliver(delivery.text);
    }
    this.#scheduleDrain();
  }

  #deliver(text: string): void {
    const sink = this.#sink!;
    const byteLength = utf8Length(text);
    if (byteLength > this.#maxBytes) return this.#finish(new MessageTooLargeError(this.#maxBytes));
    const decoded = decodeMessage(text);
    if (decoded.ok) sink.message(decoded.message, { byteLength });
    else sink.error(decoded.error);
  }
}

/**
 * Two linked in-memory transports, for tests: give one to a `JsonRpcEngine` (or a `Client`) and the
 * other to the peer under test. Each honours the whole `Transport` contract: messages arrive
 * asynchronously and in order; `send` after close rejects with `ConnectionClosedError`; closing one end
 * closes the other, whose `sink.close` gets a `TransportError` cause; an optional size bound.
 */
export function createInMemoryTransportPair(
  options?: InMemoryTransportOptions,
): [InMemoryTransport, InMemoryTransport] {
  return InMemoryTransport.createLinkedPair(options);
}

/** The UTF-8 length of a string without encoding it (lone surrogates count as U+FFFD, 3 bytes). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
