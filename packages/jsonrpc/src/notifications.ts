// The peer's notifications: progress and cancellation routed to their requests, the rest to listeners.

import { asError, bytes, type EngineLog } from './engine-log.js';
import type { NotificationListener } from './engine-types.js';
import type { IncomingRequests } from './incoming.js';
import { escapeForLog } from './logger.js';
import type { JsonRpcNotification } from './messages.js';
import type { OutgoingRequests } from './outgoing.js';
import type { MessageInfo } from './transport.js';

/**
 * Routes each notification from the peer. The engine handles two itself: `notifications/progress` goes
 * to the request whose token it names, `notifications/cancelled` to the handler or the request whose
 * id it names. Every other one goes to each listener; a listener that throws is logged and stops
 * neither the others nor the connection.
 */
export class NotificationDispatch {
  readonly #log: EngineLog;
  readonly #outgoing: OutgoingRequests;
  readonly #incoming: IncomingRequests;
  readonly #listeners = new Set<NotificationListener>();

  constructor(log: EngineLog, outgoing: OutgoingRequests, incoming: IncomingRequests) {
    this.#log = log;
    this.#outgoing = outgoing;
    this.#incoming = incoming;
  }

  /** Adds a listener; returns a function that removes it. */
  listen(listener: NotificationListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  dispatch(message: JsonRpcNotification, info: MessageInfo | undefined): void {
    const { method, params } = message;
    this.#log.trace(() => `← notification ${escapeForLog(method, 100)}${bytes(info)}`);
    if (method === 'notifications/progress') return this.#outgoing.onProgress(params);
    if (method === 'notifications/cancelled') {
      const requestId = params?.requestId;
      // A handler of ours the peer no longer wants answered, else a request of ours the peer ended.
      if ((typeof requestId === 'string' || typeof requestId === 'number') && !this.#incoming.cancel(requestId)) {
        this.#outgoing.cancelledByPeer(requestId, params);
      }
      return;
    }
    for (const listener of this.#listeners) {
      try {
        listener(method, params);
      } catch (error) {
        this.#log.log(
          'error',
          `a notification listener threw on ${escapeForLog(method, 100)}: ${escapeForLog(asError(error).message)}`,
        );
      }
    }
  }
}
