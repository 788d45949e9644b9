// A server's open subscriptions, by the id of their current `subscriptions/listen` request.
import type { JsonRpcId, JsonRpcParams } from '@mcpc/jsonrpc';
import { META } from '../server/meta.js';
import { ACKNOWLEDGE, DELIVER, type Subscription } from './subscription.js';

/**
 * A server's open subscriptions, by the JSON-RPC id of their current `subscriptions/listen` request —
 * the id the server stamps on each of their notifications (`io.modelcontextprotocol/subscriptionId`),
 * which is how they are told apart on stdio, where every stream shares one channel.
 */
export class SubscriptionRegistry {
  readonly #byId = new Map<JsonRpcId, Subscription>();
  readonly #all = new Set<Subscription>();

  register(id: JsonRpcId, subscription: Subscription): void {
    this.#byId.set(id, subscription);
    this.#all.add(subscription);
  }

  unregister(id: JsonRpcId, subscription: Subscription): void {
    if (this.#byId.get(id) === subscription) this.#byId.delete(id);
  }

  track(subscription: Subscription): void {
    this.#all.add(subscription);
    void subscription.done.then(() => this.#all.delete(subscription));
  }

  /**
   * Step one of routing a notification: the subscription it belongs to, with its bookkeeping done (an
   * acknowledgment recorded) before anything else sees it. Undefined for a notification of no stream.
   */
  claim(method: string, params: JsonRpcParams | undefined): Subscription | undefined {
    if (this.#byId.size === 0) return undefined;
    const meta = params?._meta;
    const id =
      typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>)[META.subscriptionId] : undefined;
    if (typeof id !== 'string' && typeof id !== 'number') return undefined;
    const subscription = this.#byId.get(id);
    if (subscription !== undefined && method === 'notifications/subscriptions/acknowledged')
      subscription[ACKNOWLEDGE](params);
    return subscription;
  }

  /** Step three: the notification queued for the subscription's listener. */
  deliver(subscription: Subscription, method: string, params: JsonRpcParams | undefined): void {
    subscription[DELIVER](method, params);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.#all].map((s) => s.close()));
  }
}
