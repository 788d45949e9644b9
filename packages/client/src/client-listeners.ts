// A client's notification and log listeners: delivery off the transport's reader, each listener's failure contained.
import { escapeForLog, safeLog, type JsonRpcParams, type Logger } from '@mcpc/jsonrpc';
import type { LogListener, NotificationListener } from './options.js';
import type { LogMessage } from './types/entities.js';

/** The listeners of `Client.onNotification` and `Client.onLog`. */
export class Listeners {
  readonly #listeners = new Set<NotificationListener>();
  readonly #logListeners = new Set<LogListener>();
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Adds a notification listener; returns the unsubscribe. */
  onNotification(listener: NotificationListener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** Adds a log listener; returns the unsubscribe. */
  onLog(listener: LogListener): () => void {
    this.#logListeners.add(listener);
    return () => void this.#logListeners.delete(listener);
  }

  // Off the transport's reader: listeners may make requests of their own and await them.
  deliver(server: string, method: string, params: JsonRpcParams | undefined): void {
    if (this.#listeners.size === 0 && (method !== 'notifications/message' || this.#logListeners.size === 0)) return;
    queueMicrotask(() => {
      for (const listener of this.#listeners)
        this.#guard('a notification listener', () => listener(server, method, params));
      if (method === 'notifications/message') {
        for (const listener of this.#logListeners)
          this.#guard('a log listener', () => listener(server, params as unknown as LogMessage));
      }
    });
  }

  #guard(what: string, run: () => unknown): void {
    try {
      const result = run();
      if (result instanceof Promise) result.catch((e: unknown) => this.#log(`${what} failed: ${messageOf(e)}`));
    } catch (error) {
      this.#log(`${what} threw: ${messageOf(error)}`);
    }
  }

  #log(message: string): void {
    safeLog(this.#logger, 'error', `[mcpc] ${message}`);
  }
}

const messageOf = (e: unknown): string => escapeForLog(e instanceof Error ? e.message : String(e), 500);
