// One server's resource subscriptions in either era: a listen stream per URI (2026-07-28) or resources/subscribe.
//
// Subscribing and unsubscribing happen in call order.
import type { EraRequestOptions } from '../server/era.js';
import type { Connection } from '../server/connection.js';
import { escapeForLog } from '@mcpc/jsonrpc';
import { SubscriptionError } from '../errors.js';
import type { ServerStreams } from './server-streams.js';

/** One URI's calls: the last in line (settled, never rejecting), and how many unsubscribes were asked. */
interface Line {
  last: Promise<void>;
  unsubscribes: number;
}

/**
 * `subscribeResource` and `unsubscribeResource` of one server. On a 2026-07-28 server a subscription is
 * a listen stream of its own (see `ServerStreams.watch`); on a classic one, `resources/subscribe`. Calls
 * for one URI run one after the other, in the order they were made, so none overtakes another on the
 * wire and the last one decides. An unsubscribe does not wait for an acknowledgment that may never come:
 * it ends a stream still being opened for the URI at once (that subscribe fails with
 * `SubscriptionError` 'ended'), and a subscribe still waiting its turn behind it fails the same way
 * without being sent.
 */
export class ResourceSubscriptions {
  /** The URIs subscribed to: classic subscriptions, and the URIs the streams watch (kept by them). */
  readonly uris: Set<string>;
  readonly #name: string;
  readonly #connection: Connection;
  readonly #streams: ServerStreams;
  /** By URI, while calls for it are in line; dropped once its last one has settled. */
  readonly #lines = new Map<string, Line>();

  /** `uris` is the set the streams keep their watched URIs in. */
  constructor(name: string, connection: Connection, streams: ServerStreams, uris: Set<string>) {
    this.uris = uris;
    this.#name = name;
    this.#connection = connection;
    this.#streams = streams;
  }

  subscribe(uri: string, options: EraRequestOptions): Promise<void> {
    const line = this.#line(uri);
    const unsubscribes = line.unsubscribes;
    return this.#inLine(uri, line, () => {
      if (line.unsubscribes !== unsubscribes)
        throw new SubscriptionError(
          'ended',
          this.#name,
          `unsubscribed from "${escapeForLog(uri, 200)}" before this subscription was made`,
        );
      return this.#subscribe(uri, options);
    });
  }

  unsubscribe(uri: string, options: EraRequestOptions): Promise<void> {
    const line = this.#line(uri);
    line.unsubscribes++;
    // Ends a stream being opened now; the subscribe that opens it then fails, and the line moves on.
    void this.#streams.unwatch(uri);
    return this.#inLine(uri, line, () => this.#unsubscribe(uri, options));
  }

  #line(uri: string): Line {
    let line = this.#lines.get(uri);
    if (line === undefined) {
      line = { last: Promise.resolve(), unsubscribes: 0 };
      this.#lines.set(uri, line);
    }
    return line;
  }

  #inLine(uri: string, line: Line, call: () => Promise<void>): Promise<void> {
    const run = line.last.then(call);
    const settled = run.then(noop, noop);
    line.last = settled;
    void settled.then(() => {
      if (line.last === settled) this.#lines.delete(uri);
    });
    return run;
  }

  async #subscribe(uri: string, options: EraRequestOptions): Promise<void> {
    await this.#connection.connect();
    if (this.#connection.isModern) return this.#streams.watch(uri, options.timeout);
    await this.#connection.request('resources/subscribe', { uri }, options);
    this.uris.add(uri);
  }

  async #unsubscribe(uri: string, options: EraRequestOptions): Promise<void> {
    if (await this.#streams.unwatch(uri)) return;
    // The era decides the method: known only once connected (as it is after any subscribe).
    await this.#connection.connect();
    // A 2026-07-28 server has no resources/unsubscribe: a URI no stream watches has nothing to end.
    if (this.#connection.isModern) return;
    await this.#connection.request('resources/unsubscribe', { uri }, options);
    this.uris.delete(uri);
  }
}

const noop = (): void => {};
