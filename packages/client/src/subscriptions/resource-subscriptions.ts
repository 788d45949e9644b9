// One server's resource subscriptions in either era: a listen stream per URI (2026-07-28) or resources/subscribe, in call order.
import type { EraRequestOptions } from '../server/era.js';
import type { Connection } from '../server/connection.js';
import type { ServerStreams } from './server-streams.js';

/**
 * `subscribeResource` and `unsubscribeResource` of one server. On a 2026-07-28 server a subscription is
 * a listen stream of its own (see `ServerStreams.watch`); on a classic one, `resources/subscribe`. Calls
 * for one URI keep their order: an unsubscribe waits for the subscribes still in flight, so it neither
 * overtakes them on the wire nor leaves the stream one of them opens running unwatched.
 */
export class ResourceSubscriptions {
  /** The URIs subscribed to: classic subscriptions, and the URIs the streams watch (kept by them). */
  readonly uris: Set<string>;
  readonly #connection: Connection;
  readonly #streams: ServerStreams;
  /** subscribe calls in flight by URI, settled together. */
  readonly #subscribing = new Map<string, Promise<unknown>>();

  /** `uris` is the set the streams keep their watched URIs in. */
  constructor(connection: Connection, streams: ServerStreams, uris: Set<string>) {
    this.uris = uris;
    this.#connection = connection;
    this.#streams = streams;
  }

  subscribe(uri: string, options: EraRequestOptions): Promise<void> {
    const subscribing = this.#subscribe(uri, options);
    const inFlight = Promise.allSettled([this.#subscribing.get(uri), subscribing]);
    this.#subscribing.set(uri, inFlight);
    void inFlight.then(() => {
      if (this.#subscribing.get(uri) === inFlight) this.#subscribing.delete(uri);
    });
    return subscribing;
  }

  async unsubscribe(uri: string, options: EraRequestOptions): Promise<void> {
    await this.#subscribing.get(uri);
    if (await this.#streams.unwatch(uri)) return;
    // The era decides the method: known only once connected (as it is after any subscribe).
    await this.#connection.connect();
    // A 2026-07-28 server has no resources/unsubscribe: a URI no stream watches has nothing to end.
    if (this.#connection.isModern) return;
    await this.#connection.request('resources/unsubscribe', { uri }, options);
    this.uris.delete(uri);
  }

  async #subscribe(uri: string, options: EraRequestOptions): Promise<void> {
    await this.#connection.connect();
    if (this.#connection.isModern) return this.#streams.watch(uri, options.timeout);
    await this.#connection.request('resources/subscribe', { uri }, options);
    this.uris.add(uri);
  }
}
