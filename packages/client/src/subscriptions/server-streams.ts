// One server's subscription streams: opening, re-sending after a restart, and routing their notifications.
import { escapeForLog, type Logger } from '@mcpc/jsonrpc';
import { CapabilityError, SubscriptionError } from '../errors.js';
import type { Connection } from '../server/connection.js';
import { SubscriptionRegistry } from './registry.js';
import {
  ON_ACK,
  Subscription,
  WHEN_ACTIVE,
  type ListenChannel,
  type ListenOptions,
  type SubscriptionFilter,
  type SubscriptionListener,
} from './subscription.js';

/** A stdio server that dies sooner than this after subscriptions were re-sent to it is not restarted again. */
export const SUBSCRIPTION_RESTART_MIN_INTERVAL = 1_000;

export interface StreamsContext {
  readonly name: string;
  readonly connection: Connection;
  readonly logger: Logger;
  readonly ackTimeout: number;
  /** The server's set of watched URIs (`server.subscriptions`), kept in step with the streams. */
  readonly watched: Set<string>;
  readonly warn: (message: string) => void;
}

/**
 * One server's subscription streams (MCP 2026-07-28): the channel every `Subscription` talks through,
 * the registry that routes notifications to them, the stdio restart they share, and the listen stream
 * behind each URI `subscribeResource` watches.
 */
export class ServerStreams {
  readonly registry = new SubscriptionRegistry();
  readonly #context: StreamsContext;
  readonly #channel: ListenChannel;
  readonly #byUri = new Map<string, Subscription>();
  /** Streams being opened by `watch`, for `unwatch` to end (their acknowledgment may never come). */
  readonly #openingStreams = new Map<string, Subscription>();
  #restarting: Promise<void> | undefined;

  constructor(context: StreamsContext) {
    this.#context = context;
    const { connection, name } = context;
    this.#channel = {
      server: name,
      logger: context.logger,
      ackTimeout: context.ackTimeout,
      get reopens() {
        return connection.isHttp;
      },
      get restarts() {
        return connection.config.kind === 'stdio';
      },
      restart: (cause, resentAt) => this.#restart(cause, resentAt),
      listen: async (notifications, { signal, onId }) => {
        await connection.connect();
        // A server (or the process that replaced one) that is not 2026-07-28 has no subscriptions/listen:
        // a CapabilityError, as the reference behaviour says, before anything is sent.
        if (!connection.isModern) throw new CapabilityError(name, 'subscriptions', 'subscriptions/listen');
        // Task notifications need the tasks extension declared on the listen request itself.
        const declareTasks = (notifications.taskIds?.length ?? 0) > 0;
        return connection.request(
          'subscriptions/listen',
          { notifications },
          { signal, onId, timeout: 0, longLived: true, ...(declareTasks && { declareTasks }) },
        );
      },
      register: (id, s) => this.registry.register(id, s),
      unregister: (id, s) => this.registry.unregister(id, s),
    };
  }

  listen(filter: SubscriptionFilter, listener: SubscriptionListener, options: ListenOptions = {}): Subscription {
    const subscription = new Subscription(this.#channel, filter, listener, options);
    this.registry.track(subscription);
    return subscription;
  }

  /**
   * Watches one URI on a listen stream of its own; resolves once an acknowledgment names it. Calls for
   * one URI come one at a time (`ResourceSubscriptions` keeps them in line), so a second finds the
   * first's stream here rather than opening another.
   */
  async watch(uri: string, ackTimeout: number | undefined): Promise<void> {
    const existing = this.#byUri.get(uri);
    if (existing !== undefined && !existing.closed) {
      // Only a stream the server honours now is a watch: one that dropped is waited for until its
      // replacement is acknowledged (the ON_ACK check closes it if that leaves the URI out), or ends.
      await existing[WHEN_ACTIVE]();
      if (existing.closed || this.#byUri.get(uri) !== existing)
        throw new SubscriptionError(
          'ended',
          this.#context.name,
          `the stream watching "${escapeForLog(uri, 200)}" ended`,
        );
      return;
    }
    const subscription = this.listen(
      { resourceSubscriptions: [uri] },
      () => {},
      ackTimeout === undefined ? {} : { ackTimeout },
    );
    const granted = (ack: Readonly<SubscriptionFilter>): boolean => ack.resourceSubscriptions?.includes(uri) === true;
    this.#openingStreams.set(uri, subscription);
    try {
      await subscription.ready;
    } finally {
      if (this.#openingStreams.get(uri) === subscription) this.#openingStreams.delete(uri);
    }
    // Acknowledged, but unwatched meanwhile (the acknowledgment and the close crossed).
    if (subscription.closed)
      throw new SubscriptionError(
        'ended',
        this.#context.name,
        `the stream watching "${escapeForLog(uri, 200)}" was closed as it was acknowledged`,
      );
    if (!granted(subscription.acknowledged!)) {
      await subscription.close();
      throw new SubscriptionError(
        'refused',
        this.#context.name,
        `the server did not acknowledge a subscription to "${escapeForLog(uri, 200)}"`,
      );
    }
    // A re-opened stream is a new request the server may grant more narrowly: no URI, no watch.
    subscription[ON_ACK] = (ack) => {
      if (!granted(ack)) void subscription.close();
    };
    this.#byUri.set(uri, subscription);
    this.#context.watched.add(uri);
    void subscription.done.then(() => {
      if (this.#byUri.get(uri) !== subscription) return;
      this.#byUri.delete(uri);
      this.#context.watched.delete(uri);
    });
  }

  /**
   * Stops watching a URI; false when no stream watches it (a classic subscription, or none). A stream
   * still being opened for it is closed rather than waited for — during an outage its acknowledgment may
   * never come — and the watch opening it fails (`SubscriptionError` 'ended'); so does one waiting for a
   * dropped stream to be honoured again.
   */
  async unwatch(uri: string): Promise<boolean> {
    const opening = this.#openingStreams.get(uri);
    this.#openingStreams.delete(uri);
    const stream = this.#byUri.get(uri);
    if (stream !== undefined) {
      this.#byUri.delete(uri);
      this.#context.watched.delete(uri);
    }
    await Promise.all([opening?.close(), stream?.close()]);
    return opening !== undefined || stream !== undefined;
  }

  closeAll(): Promise<void> {
    return this.registry.closeAll();
  }

  /**
   * Restarts a stdio server that exited while subscriptions were open, once for all of them. A process
   * that died within SUBSCRIPTION_RESTART_MIN_INTERVAL of having the subscriptions re-sent to it is a
   * crash loop: the subscriptions end with the error instead of restarting it for ever.
   */
  #restart(cause: Error, resentAt: number | undefined): Promise<void> {
    if (resentAt !== undefined && Date.now() - resentAt < SUBSCRIPTION_RESTART_MIN_INTERVAL) {
      return Promise.reject(
        new SubscriptionError(
          'ended',
          this.#context.name,
          `the server process exited again ${Date.now() - resentAt} ms after a restart (${cause.message}); not restarting it`,
        ),
      );
    }
    this.#restarting ??= (async () => {
      this.#context.warn(
        `the server process exited with subscriptions open (${escapeForLog(cause.message, 300)}); restarting it`,
      );
      await this.#context.connection.reconnect();
    })().finally(() => {
      this.#restarting = undefined;
    });
    return this.#restarting;
  }
}
